"""Conditional reads, ``If-None-Match`` → 304: a weak ``ETag`` per game version and viewer for the
game and its choices; a hash of the body for static game data.

The tag is derived from the game's version (every change bumps it), the viewer (seat, host or
spectator: two seats never share a tag, since they see different secrets) and the language of
the texts. It is weak because the clock's ``remaining_seconds`` is computed at each read: a 304
means "nothing happened in the game", and the absolute ``deadline`` is still exact.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Any

from fastapi import Header

from domain.services.core import Viewer

IfNoneMatch = Annotated[
    str | None,
    Header(description="The ETag of an earlier read: 304 (no body) if nothing changed since."),
]
NOT_MODIFIED: dict[int | str, dict[str, Any]] = {
    304: {"description": "Not modified: unchanged for this viewer since the ETag sent (no body)."}
}

VARY = "Authorization, Accept-Language"
CACHE_CONTROL = "private, no-cache"
"""Per viewer, and to be revalidated at each use (a 304 costs no view rendering)."""


def game_etag(
    game_id: str,
    version: int,
    viewer: Viewer,
    lang: str,
    resource: str = "game",
    connected: frozenset[int] = frozenset(),
) -> str:
    """``connected``: the seats connected now (the game view shows them; presence changes no
    version, so it must change the tag itself)."""
    who = "host" if viewer.is_host else "spectator" if viewer.seat is None else f"seat{viewer.seat}"
    seats = ",".join(str(seat) for seat in sorted(connected))
    tagged = f"{resource}\x00{game_id}\x00{version}\x00{who}\x00{lang}\x00{seats}"
    digest = hashlib.sha256(tagged.encode()).hexdigest()
    return f'W/"{version}-{digest[:20]}"'


def content_etag(body: str) -> str:
    """For answers that change only with the code (static game data): a hash of the body."""
    return f'"{hashlib.sha256(body.encode()).hexdigest()[:32]}"'


def matches(if_none_match: str | None, etag: str) -> bool:
    """RFC 9110 weak comparison against each listed tag (or ``*``)."""
    if if_none_match is None:
        return False
    wanted = _opaque(etag)
    for candidate in if_none_match.split(","):
        candidate = candidate.strip()
        if candidate == "*" or _opaque(candidate) == wanted:
            return True
    return False


def _opaque(tag: str) -> str:
    return tag[2:] if tag.startswith("W/") else tag
