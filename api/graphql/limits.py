"""Depth, alias and cost limits of a GraphQL document, checked in time linear in its size.

A fragment may be spread many times, and fragments may spread one another (``F0`` spreads ``F1``
twice, ``F1`` spreads ``F2`` twice, ...): expanding spreads makes the check's own work grow
exponentially with a document of a few hundred bytes. Instead each fragment is measured once (once
at the top level, once below it, as list sizes count only at the top level) and a spread adds the
fragment's measure; fragments are measured bottom-up, in the order spreads reach them, and a
spread that closes a cycle counts nothing (graphql-core's own rule refuses the cycle).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValidationContext,
    ValidationRule,
)

from api.graphql.refusals import Refusal
from domain.errors import Detail

LIST_SIZES = {"games": (50, 200), "events": (500, 1000)}
"""Fields whose ``limit`` argument sizes a list: (default, largest the resolver allows). Their
sub-selection is counted that many times in an operation's cost."""


@dataclass(frozen=True, slots=True)
class Tally:
    """What a selection set resolves once expanded, without expanding it."""

    cost: int = 0
    """Fields resolved, a top-level list field's sub-selection counted as often as the list is long."""
    depth: int = 0
    """Nesting of fields with a sub-selection (``{ games { total } }`` is 1)."""
    aliases: int = 0
    roots: int = 0
    """Top-level fields other than introspection (each alias counts): requests for the limiter."""

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.cost + other.cost,
            max(self.depth, other.depth),
            self.aliases + other.aliases,
            self.roots + other.roots,
        )


NOTHING = Tally()


def _list_factor(node: FieldNode) -> int:
    sizes = LIST_SIZES.get(node.name.value)
    if sizes is None:
        return 1
    default, largest = sizes
    for argument in node.arguments or ():
        if argument.name.value == "limit":
            if isinstance(argument.value, IntValueNode):
                return max(1, min(int(argument.value.value), largest))
            return largest
    return default


@dataclass(slots=True)
class DocumentMeasure:
    """Measures the operations of one document; ``visits`` counts the selections looked at, the
    work the check does (each fragment's body is looked at no more than twice)."""

    fragments: dict[str, FragmentDefinitionNode]
    visits: int = 0
    _known: dict[tuple[str, bool], Tally] = field(default_factory=dict)
    _open: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, document: DocumentNode) -> DocumentMeasure:
        return cls({d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)})

    def operation(self, operation: OperationDefinitionNode) -> Tally:
        return self.selections(operation.selection_set, root=True)

    def selections(self, selection_set: SelectionSetNode | None, root: bool) -> Tally:
        if selection_set is None:
            return NOTHING
        total = NOTHING
        for selection in selection_set.selections:
            self.visits += 1
            if isinstance(selection, FieldNode):
                total += self._field(selection, root)
            elif isinstance(selection, InlineFragmentNode):
                total += self.selections(selection.selection_set, root)
            elif isinstance(selection, FragmentSpreadNode):
                total += self._fragment(selection.name.value, root)
        return total

    def _field(self, node: FieldNode, root: bool) -> Tally:
        inner = self.selections(node.selection_set, root=False)
        introspection = node.name.value.startswith("__")
        factor = _list_factor(node) if root else 1
        return Tally(
            cost=1 + factor * inner.cost,
            depth=0 if introspection or node.selection_set is None else 1 + inner.depth,
            aliases=(1 if node.alias else 0) + inner.aliases,
            roots=1 if root and not introspection else 0,
        )

    def _fragment(self, name: str, root: bool) -> Tally:
        known = self._known.get((name, root))
        if known is not None:
            return known
        definition = self.fragments.get(name)
        if definition is None or name in self._open:
            return NOTHING  # unknown or cyclic: graphql-core's own rules refuse the document
        self._open.add(name)
        try:
            measured = self.selections(definition.selection_set, root)
        finally:
            self._open.discard(name)
        self._known[(name, root)] = measured
        return measured


def _refusal(code: str, template: str, **values: object) -> GraphQLError:
    return Refusal(code, Detail(template, values))


def limits_rule(max_depth: int, max_aliases: int, max_cost: int) -> type[ValidationRule]:
    """A validation rule refusing documents beyond the limits, each reported with its code."""

    class DocumentLimits(ValidationRule):
        def __init__(self, context: ValidationContext) -> None:
            super().__init__(context)
            measure = DocumentMeasure.of(context.document)
            aliases = 0
            try:
                for definition in context.document.definitions:
                    if not isinstance(definition, OperationDefinitionNode):
                        continue
                    tally = measure.operation(definition)
                    aliases += tally.aliases
                    if tally.depth > max_depth:
                        context.report_error(
                            _refusal(
                                "query_too_deep",
                                "the operation nests {levels} levels; at most {at_most} are allowed",
                                levels=tally.depth,
                                at_most=max_depth,
                            )
                        )
                    if tally.cost > max_cost:
                        context.report_error(
                            _refusal(
                                "query_too_costly",
                                "the operation would resolve {fields} fields; at most {at_most} are allowed "
                                "(list limits count in full)",
                                fields=tally.cost,
                                at_most=max_cost,
                            )
                        )
            except RecursionError:
                context.report_error(
                    _refusal(
                        "query_too_deep",
                        "the document nests too deeply; at most {max_levels} levels",
                        max_levels=max_depth,
                    )
                )
                return
            if aliases > max_aliases:
                context.report_error(
                    _refusal(
                        "too_many_aliases",
                        "{aliases} aliases found in the document; at most {at_most} are allowed",
                        aliases=aliases,
                        at_most=max_aliases,
                    )
                )

    return DocumentLimits


def root_fields(document: DocumentNode, operation: OperationDefinitionNode) -> int:
    """Top-level fields of ``operation`` (each alias counts), fragments counted, not expanded."""
    return DocumentMeasure.of(document).operation(operation).roots
