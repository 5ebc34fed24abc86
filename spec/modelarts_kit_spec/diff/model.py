"""The change model of ``spec diff``: the rule ids (:data:`RULES`), a :class:`Change`, and the
:class:`Walk` over both documents that the rules report changes to, with where a schema pair sits
(:class:`Place`) and the principle that says whom a change breaks (:func:`side_impact`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from modelarts_kit_spec.diff_meaning import MEANING_RULES
from modelarts_kit_spec.document import JSON, pointer_join
from modelarts_kit_spec.walker import SchemaWalker

__all__ = [
    "RULES",
    "Change",
    "Place",
    "Side",
    "SpecSource",
    "Walk",
    "as_list",
    "as_mapping",
    "deref",
    "fmt",
    "side_impact",
]

Side = Literal["request", "response"]

# Every rule id this module can emit, with what it means (shown by the docs and the tests).
RULES: dict[str, str] = {
    "operation-added": "a new operation (servers must implement it, unless its role is optional)",
    "operation-removed": "an operation disappeared (clients calling it break)",
    "operation-id-changed": "the operationId changed (generated client method names change)",
    "parameter-added": "a new parameter; required ones break clients, every one breaks servers",
    "parameter-removed": "a parameter disappeared (clients sending it break)",
    "parameter-required-changed": "a parameter became required or optional",
    "request-body-added": "a request body appeared",
    "request-body-removed": "the request body disappeared",
    "request-body-required-changed": "the request body became required or optional",
    "media-type-added": "a media type appeared in a request or response",
    "media-type-removed": "a media type disappeared from a request or response",
    "response-status-added": "a new response status code",
    "response-status-removed": "a response status code disappeared",
    "response-header-added": "a new response header",
    "response-header-removed": "a response header disappeared",
    "security-changed": "the accepted security requirements changed",
    "security-scheme-changed": "a security scheme's definition changed",
    "property-added": "a new property in a request or response object",
    "property-removed": "a property disappeared",
    "required-added": "an existing property became required",
    "required-removed": "a required property became optional",
    "type-changed": "the JSON type changed",
    "nullable-changed": "null became allowed or disallowed",
    "format-changed": "the format changed (e.g. int32 -> int64)",
    "enum-value-added": "a value was added to an enum",
    "enum-value-removed": "a value was removed from an enum",
    "documented-value-added": "an open enum documents a new value (any string was allowed)",
    "documented-value-removed": "an open enum no longer documents a value (any string still is)",
    "enum-opened": "a closed enum became open (values outside the list are allowed)",
    "enum-closed": "an open enum became closed (only the listed values are allowed)",
    "constraint-tightened": "a constraint was added or tightened (maxLength, minimum, pattern...)",
    "constraint-loosened": "a constraint was removed or loosened",
    "constraint-changed": "a constraint changed in a way that is neither tighter nor looser",
    "additional-properties-changed": "unknown properties became allowed or forbidden",
    "default-changed": "the default value changed",
    "variants-changed": "oneOf/anyOf/allOf members were added or removed",
    # What the spec means (x-modelarts-*): modelarts_kit_spec.diff_meaning, reason per rule.
    **MEANING_RULES,
}


@dataclass(frozen=True)
class SpecSource:
    label: str  # file name or git:REV:path
    document: JSON


@dataclass(frozen=True)
class Change:
    rule: str
    operation: str  # operationId (or METHOD path when there is none); the first of operations
    endpoint: str  # "POST /v2/{project_id}/training-jobs"
    pointer: str  # where the changed keyword is declared (NEW doc; OLD if removed)
    old: JSON
    new: JSON
    breaks_clients: bool
    breaks_servers: bool
    message: str
    operations: tuple[str, ...] = ()  # every operation the change touches
    reached: tuple[str, ...] = ()  # every pointer it is reached at, from an operation

    @property
    def breaking(self) -> bool:
        return self.breaks_clients or self.breaks_servers


@dataclass
class Walk:
    """Both documents, the operation being compared, and where findings go."""

    old_doc: JSON
    new_doc: JSON
    operation: str = ""
    endpoint: str = ""
    changes: list[Change] = field(default_factory=list)
    place: Place | None = None  # the schema pair whose rules are running

    def emit(
        self,
        rule: str,
        pointer: str,
        old: JSON,
        new: JSON,
        impact: tuple[bool, bool],
        message: str,
    ) -> None:
        declared = pointer
        if self.place is not None and self.place.declared:
            reached_at = self.place.pointer
            if pointer == reached_at or pointer.startswith(reached_at + "/"):
                declared = self.place.declared + pointer[len(reached_at) :]
        self.record(
            rule, self.operation, self.endpoint, pointer, old, new, impact, message, declared
        )

    def record(
        self,
        rule: str,
        operation: str,
        endpoint: str,
        pointer: str,
        old: JSON,
        new: JSON,
        impact: tuple[bool, bool],
        message: str,
        declared: str | None = None,
    ) -> None:
        """One change; ``pointer`` as reached from the operation, ``declared`` where the
        keyword lives (a shared component's pointer; the reached pointer when inline)."""
        assert rule in RULES, rule
        self.changes.append(
            Change(
                rule,
                operation,
                endpoint,
                declared or pointer,
                old,
                new,
                *impact,
                message,
                operations=(operation,),
                reached=(pointer,),
            )
        )


@dataclass(frozen=True)
class Place:
    """Where a schema pair sits: request or response, pointer, dotted field name."""

    side: Side
    pointer: str
    field: str
    seen: frozenset[tuple[str, str]] = frozenset()
    declared: str = ""  # where this schema is declared, once a $ref led into a component

    def child(self, pointer_tokens: tuple[str | int, ...], field_suffix: str) -> Place:
        return Place(
            self.side,
            pointer_join(self.pointer, *pointer_tokens),
            self.field + field_suffix,
            self.seen,
            pointer_join(self.declared, *pointer_tokens) if self.declared else "",
        )

    @property
    def label(self) -> str:
        return f"{self.side} {'body' if not self.field else f'field `{self.field}`'}"


def side_impact(side: Side, *, widened: bool, narrowed: bool) -> tuple[bool, bool]:
    """(breaks_clients, breaks_servers) under the module's principle."""
    if side == "request":
        return narrowed, widened
    return widened, narrowed


def as_mapping(value: JSON) -> Mapping[str, JSON]:
    return value if isinstance(value, Mapping) else {}


def deref(document: JSON, node: JSON) -> tuple[JSON, str]:
    """Follow $ref (the spec's walker); the node and the pointer it resolved to ('' if none)."""
    resolved, pointer, _ = SchemaWalker(document).deref(node)
    return resolved, pointer


def as_list(value: JSON) -> list[JSON]:
    return list(value) if isinstance(value, list) else []


def fmt(value: JSON) -> str:
    """A value for a message; None (the keyword is absent) reads as "(unset)"."""
    return "(unset)" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)
