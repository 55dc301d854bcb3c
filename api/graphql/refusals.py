"""GraphQL errors with their values as named fields, like the REST problems' details.

Our own refusals (limits, deadline, rate) are ``Refusal``s: a ``GraphQLError`` that carries its
``domain.errors.Detail`` and its code. graphql-core's errors carry a sentence only; in it the
library quotes every name it speaks of (``'nope'``, ``'GameType'``, ``'$id'``), so those quoted
names are the values a translation shows, a name quoted right after ``type`` as a type."""

from __future__ import annotations

import re
from typing import Any

from graphql import GraphQLError

from domain.errors import Detail

QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


class Refusal(GraphQLError):
    def __init__(self, code: str, detail: Detail, **rest: Any) -> None:
        super().__init__(detail.english, extensions={"code": code}, **rest)
        self.code = code
        self.detail = detail


def library_detail(message: str) -> Detail:
    """graphql-core's (or Strawberry's) sentence, its quoted names as the values."""
    template, values = "", dict[str, object]()
    end = 0
    for index, quoted in enumerate(QUOTED.finditer(message)):
        before = message[end : quoted.start()]
        name = f"name_{index}"
        if before.endswith("type "):
            name = "type" if "type" not in values else "other_type"
        template += Detail.plain(before).template + "{" + name + "}"
        values[name] = quoted.group()
        end = quoted.end()
    return Detail(template + Detail.plain(message[end:]).template, values)
