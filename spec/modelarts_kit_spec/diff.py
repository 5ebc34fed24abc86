"""``spec diff``: classify every change between two OpenAPI versions, like oasdiff.

Both documents are walked operation by operation (matched by method and path template, with
parameter names ignored), with ``$ref`` followed on the fly (cycle-safe). A change is reported
once, at the pointer where the changed keyword is declared (a shared component's own pointer),
with every operation that reaches it (``operations``) and every pointer it is reached at
(``reached``); ``operation``/``endpoint`` name the first of them. Where a shared schema serves
both requests and responses, the change breaks whoever it breaks on either side. A field whose
type and format change together is one ``type-changed`` (old and new carry both).

Each change says whether it **breaks clients** (a client built for OLD, talking to a server
that implements NEW) and whether it **breaks servers** (a server that implements OLD exactly,
serving clients built for NEW: the implementation must change). One principle decides:

=========  ====================================  ====================================
side       what the change does                  breaks
=========  ====================================  ====================================
request    narrows what may be sent              clients (old requests are rejected)
request    widens what may be sent / adds input  servers (they must accept and honour it)
response   widens what may come back             clients (they meet the unexpected)
response   narrows what may come back            servers (what they send no longer conforms)
=========  ====================================  ====================================

Consequences worth stating: a new optional request field breaks servers, not clients; a new
optional response field breaks nothing (responses are open: clients must ignore unknown
fields) unless the old response object was closed (``additionalProperties: false``); an enum
value added to a response breaks clients; a value removed from a response enum breaks nobody
(the one exception, as issue #3 and oasdiff rate it). Open enums (``anyOf: [{enum: [...]},
{type: string}]``, read through :func:`modelarts_kit_spec.values.documented_values`) accept any
string, so their documented values are compared on their own: a documented value added or
removed breaks nobody (``documented-value-added``/``-removed``, also when a plain string gains
or loses its list), while opening a closed enum widens it and closing an open one narrows it
(``enum-opened``/``enum-closed``, judged by the principle); a new operation breaks servers
only; a new error status breaks nobody (clients handle unknown errors generically) while a new
success status breaks clients. What the spec means (its ``x-modelarts-*`` extensions: roles,
lifecycle, error codes, guidance, and any extension the kit does not know) is compared by
:mod:`modelarts_kit_spec.diff_meaning`, under the same principle.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Literal

from modelarts_kit_spec.diff_meaning import MEANING_RULES, meaning_changed
from modelarts_kit_spec.load import (
    HTTP_METHODS,
    JSON,
    SpecError,
    parse_yaml_text,
    pointer_join,
    read_yaml,
)
from modelarts_kit_spec.values import documented_values
from modelarts_kit_spec.walker import SchemaWalker

__all__ = [
    "RULES",
    "Change",
    "SpecSource",
    "diff_documents",
    "read_source",
    "render_json",
    "render_markdown",
    "render_markdown_sections",
]

Side = Literal["request", "response"]

# Every rule id this module can emit, with what it means (shown by the docs and the tests).
RULES: dict[str, str] = {
    "operation-added": "a new operation (servers must implement it)",
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


# --------------------------------------------------------------------------- reading


def read_source(reference: str, *, cwd: Path | None = None) -> SpecSource:
    """Read a spec from a file or from ``git:REV:path`` (``git show REV:path`` in ``cwd``)."""
    if reference.startswith("git:"):
        rev, sep, path = reference[len("git:") :].partition(":")
        if not sep or not rev or not path:
            raise SpecError(f"{reference!r}: expected git:REV:PATH")
        text = git_show(rev, path, cwd=cwd)
        document = parse_yaml_text(text, reference)
    else:
        document = read_yaml(Path(reference))
    if not isinstance(document, Mapping):
        raise SpecError(f"{reference}: the document must be a mapping")
    if not str(document.get("openapi", "")).startswith("3."):
        raise SpecError(
            f"{reference}: /openapi must be a 3.x version, got {document.get('openapi')!r}"
        )
    return SpecSource(label=reference, document=document)


def git_show(rev: str, path: str, *, cwd: Path | None = None) -> str:
    """The content of ``path`` at ``rev``; SpecError names the revision when git refuses.

    A revision is never an option: one starting with ``-`` is refused, and
    ``--end-of-options`` keeps git from reading ``REV:PATH`` as one (``--output=FILE``
    would write a file anywhere)."""
    if rev.startswith("-"):
        raise SpecError(
            f"git:{rev}:{path}: revision {rev!r} starts with '-' (rule: a revision is not an "
            "option)"
        )
    try:
        result = subprocess.run(
            ["git", "show", "--end-of-options", f"{rev}:{path}"],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as exc:
        raise SpecError(f"git:{rev}:{path}: cannot run git: {exc.strerror}") from exc
    if result.returncode != 0:
        raise SpecError(f"git:{rev}:{path}: {result.stderr.strip() or 'git show failed'}")
    return result.stdout


# --------------------------------------------------------------------------- walking


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


def _impact(side: Side, *, widened: bool, narrowed: bool) -> tuple[bool, bool]:
    """(breaks_clients, breaks_servers) under the module's principle."""
    if side == "request":
        return narrowed, widened
    return widened, narrowed


def _mapping(value: JSON) -> Mapping[str, JSON]:
    return value if isinstance(value, Mapping) else {}


def _deref(document: JSON, node: JSON) -> tuple[JSON, str]:
    """Follow $ref (the spec's walker); the node and the pointer it resolved to ('' if none)."""
    resolved, pointer, _ = SchemaWalker(document).deref(node)
    return resolved, pointer


def _list(value: JSON) -> list[JSON]:
    return list(value) if isinstance(value, list) else []


def _fmt(value: JSON) -> str:
    """A value for a message; None (the keyword is absent) reads as "(unset)"."""
    return "(unset)" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)


# --------------------------------------------------------------------------- schema rules

SchemaRule = Callable[[Walk, Mapping[str, JSON], Mapping[str, JSON], Place], None]
SCHEMA_RULES: list[SchemaRule] = []


def schema_rule(check: SchemaRule) -> SchemaRule:
    SCHEMA_RULES.append(check)
    return check


def _types(schema: Mapping[str, JSON]) -> tuple[set[str] | None, bool]:
    """(types other than null or None for "any type", whether null is allowed)."""
    raw = schema.get("type")
    if raw is None:
        return None, True
    types = {raw} if isinstance(raw, str) else {str(t) for t in raw}
    nullable = "null" in types or schema.get("nullable") is True
    return types - {"null"}, nullable


def _covered(kind: str, types: set[str]) -> bool:
    return kind in types or (kind == "integer" and "number" in types)


@schema_rule
def type_changed(walk: Walk, old: Mapping[str, JSON], new: Mapping[str, JSON], at: Place) -> None:
    old_types, _ = _types(old)
    new_types, _ = _types(new)
    if old_types == new_types:
        return
    widened = new_types is None or (
        old_types is not None and any(not _covered(t, old_types) for t in new_types)
    )
    narrowed = old_types is None and new_types is not None
    if old_types is not None and new_types is not None:
        narrowed = any(not _covered(t, new_types) for t in old_types)
    before: JSON = old.get("type")
    after: JSON = new.get("type")
    said_before, said_after = _fmt(before), _fmt(after)
    if old.get("format") != new.get("format"):
        # One field, one finding: the format that changed with the type travels with it.
        before = {"type": before, "format": old.get("format")}
        after = {"type": after, "format": new.get("format")}
        said_before += f" (format {_fmt(old.get('format'))})"
        said_after += f" (format {_fmt(new.get('format'))})"
    walk.emit(
        "type-changed",
        pointer_join(at.pointer, "type"),
        before,
        after,
        _impact(at.side, widened=widened, narrowed=narrowed),
        f"{at.label}: type changed from {said_before} to {said_after}",
    )


@schema_rule
def nullable_changed(
    walk: Walk, old: Mapping[str, JSON], new: Mapping[str, JSON], at: Place
) -> None:
    if "type" not in old or "type" not in new:
        return
    _, old_null = _types(old)
    _, new_null = _types(new)
    if old_null == new_null:
        return
    walk.emit(
        "nullable-changed",
        pointer_join(at.pointer, "type"),
        old_null,
        new_null,
        _impact(at.side, widened=new_null, narrowed=old_null),
        f"{at.label}: null is {'now allowed' if new_null else 'no longer allowed'}",
    )


FORMAT_WIDENINGS = {
    ("int32", "int64"),
    ("float", "double"),
    ("int32", "double"),
    ("int64", "double"),
}


@schema_rule
def format_changed(walk: Walk, old: Mapping[str, JSON], new: Mapping[str, JSON], at: Place) -> None:
    before, after = old.get("format"), new.get("format")
    if before == after or _types(old)[0] != _types(new)[0]:
        return  # unchanged, or reported with the type (type_changed)
    widened = after is None or (before, after) in FORMAT_WIDENINGS
    narrowed = before is None or (after, before) in FORMAT_WIDENINGS
    if not widened and not narrowed:
        widened = narrowed = True
    walk.emit(
        "format-changed",
        pointer_join(at.pointer, "format"),
        before,
        after,
        _impact(at.side, widened=widened, narrowed=narrowed),
        f"{at.label}: format changed from {_fmt(before)} to {_fmt(after)}",
    )


def _enum(schema: Mapping[str, JSON]) -> list[JSON] | None:
    if isinstance(schema.get("enum"), list):
        return list(schema["enum"])
    if "const" in schema:
        return [schema["const"]]
    return None


def _is_open(schema: Mapping[str, JSON]) -> bool:
    found = documented_values(schema)
    return found is not None and found.open


def _plain_string(schema: Mapping[str, JSON]) -> bool:
    return schema.get("type") == "string" and "enum" not in schema and "const" not in schema


@schema_rule
def documented_values_changed(
    walk: Walk, old: Mapping[str, JSON], new: Mapping[str, JSON], at: Place
) -> None:
    """Open enums: documented values compared apart from what validation accepts."""
    before, after = documented_values(old), documented_values(new)
    if not (before is not None and before.open) and not (after is not None and after.open):
        return
    pointer = pointer_join(at.pointer, "anyOf")
    if before is not None and after is not None and before.open != after.open:
        opened = after.open
        walk.emit(
            "enum-opened" if opened else "enum-closed",
            pointer if opened else pointer_join(at.pointer, "enum"),
            list(before.values),
            list(after.values),
            _impact(at.side, widened=opened, narrowed=not opened),
            f"{at.label}: the enum became "
            + ("open" if opened else "closed")
            + f" (values {_fmt(list(after.values))})",
        )
        return
    if (before is None and not _plain_string(old)) or (after is None and not _plain_string(new)):
        return  # some other shape on one side: type-changed and variants-changed judge it
    old_values = list(before.values) if before is not None else []
    new_values = list(after.values) if after is not None else []
    for value in new_values:
        if value not in old_values:
            walk.emit(
                "documented-value-added",
                pointer,
                None,
                value,
                (False, False),
                f"{at.label}: documented value {_fmt(value)} added (the enum is open)",
            )
    for value in old_values:
        if value not in new_values:
            walk.emit(
                "documented-value-removed",
                pointer,
                value,
                None,
                (False, False),
                f"{at.label}: documented value {_fmt(value)} removed (the enum is open)",
            )


@schema_rule
def enum_changed(walk: Walk, old: Mapping[str, JSON], new: Mapping[str, JSON], at: Place) -> None:
    if _is_open(old) or _is_open(new):
        return  # documented_values_changed
    before, after = _enum(old), _enum(new)
    if before == after:
        return
    pointer = pointer_join(at.pointer, "enum")
    if before is None or after is None:
        # An enum appearing narrows to its values; one disappearing widens to anything.
        widened = after is None
        walk.emit(
            "enum-value-added" if widened else "enum-value-removed",
            pointer,
            before,
            after,
            _impact(at.side, widened=widened, narrowed=not widened),
            f"{at.label}: enum "
            + ("removed (any value allowed)" if widened else f"introduced: {_fmt(after)}"),
        )
        return
    for value in after:
        if value not in before:
            walk.emit(
                "enum-value-added",
                pointer,
                None,
                value,
                _impact(at.side, widened=True, narrowed=False),
                f"{at.label}: enum value {_fmt(value)} added",
            )
    for value in before:
        if value not in after:
            # The one exception to the principle: a value dropped from a response enum breaks
            # nobody (issue #3, as oasdiff rates it): clients just stop seeing it, and a server
            # that still sends it is caught by the contract kit, not by a changelog.
            impact = (
                (False, False)
                if at.side == "response"
                else _impact(at.side, widened=False, narrowed=True)
            )
            walk.emit(
                "enum-value-removed",
                pointer,
                value,
                None,
                impact,
                f"{at.label}: enum value {_fmt(value)} removed",
            )


# keyword -> True when a larger value is tighter (minimums), False when smaller is (maximums)
NUMERIC_CONSTRAINTS = {
    "maxLength": False,
    "maxItems": False,
    "maxProperties": False,
    "maximum": False,
    "exclusiveMaximum": False,
    "minLength": True,
    "minItems": True,
    "minProperties": True,
    "minimum": True,
    "exclusiveMinimum": True,
}


def _constraint(
    walk: Walk, at: Place, keyword: str, before: JSON, after: JSON, tightened: bool | None
) -> None:
    rule = {True: "constraint-tightened", False: "constraint-loosened", None: "constraint-changed"}
    walk.emit(
        rule[tightened],
        pointer_join(at.pointer, keyword),
        before,
        after,
        _impact(
            at.side,
            widened=tightened is not True,
            narrowed=tightened is not False,
        ),
        f"{at.label}: {keyword} changed from {_fmt(before)} to {_fmt(after)}",
    )


@schema_rule
def constraints_changed(
    walk: Walk, old: Mapping[str, JSON], new: Mapping[str, JSON], at: Place
) -> None:
    tightened: bool | None
    for keyword, larger_is_tighter in NUMERIC_CONSTRAINTS.items():
        before, after = old.get(keyword), new.get(keyword)
        if before == after or isinstance(before, bool) or isinstance(after, bool):
            continue
        if before is None or after is None:
            tightened = before is None
        else:
            tightened = (after > before) == larger_is_tighter
        _constraint(walk, at, keyword, before, after, tightened)
    for keyword in ("pattern", "multipleOf"):
        before, after = old.get(keyword), new.get(keyword)
        if before != after:
            tightened = True if before is None else False if after is None else None
            _constraint(walk, at, keyword, before, after, tightened)
    before_unique, after_unique = bool(old.get("uniqueItems")), bool(new.get("uniqueItems"))
    if before_unique != after_unique:
        _constraint(walk, at, "uniqueItems", before_unique, after_unique, after_unique)


def _dependencies(schema: Mapping[str, JSON]) -> set[tuple[str, str]]:
    raw = _mapping(schema.get("dependentRequired"))
    return {(str(k), str(d)) for k, deps in raw.items() for d in _list(deps)}


@schema_rule
def combination_rules_changed(
    walk: Walk, old: Mapping[str, JSON], new: Mapping[str, JSON], at: Place
) -> None:
    """``dependentRequired`` pairs and a ``not`` ("choose one of", "not both"): each one
    added demands more (tightened), each one removed demands less (loosened)."""
    before, after = _dependencies(old), _dependencies(new)
    for name, dependency in sorted(after - before):
        _constraint(walk, at, "dependentRequired", None, {name: [dependency]}, True)
    for name, dependency in sorted(before - after):
        _constraint(walk, at, "dependentRequired", {name: [dependency]}, None, False)
    had_not, has_not = "not" in old, "not" in new
    if had_not != has_not:
        _constraint(walk, at, "not", old.get("not"), new.get("not"), has_not)


@schema_rule
def additional_properties_changed(
    walk: Walk, old: Mapping[str, JSON], new: Mapping[str, JSON], at: Place
) -> None:
    before, after = old.get("additionalProperties"), new.get("additionalProperties")
    closed_before, closed_after = before is False, after is False
    if closed_before == closed_after:
        return
    walk.emit(
        "additional-properties-changed",
        pointer_join(at.pointer, "additionalProperties"),
        before,
        after,
        _impact(at.side, widened=closed_before, narrowed=closed_after),
        f"{at.label}: unknown properties are {'now forbidden' if closed_after else 'now allowed'}",
    )


@schema_rule
def default_changed(
    walk: Walk, old: Mapping[str, JSON], new: Mapping[str, JSON], at: Place
) -> None:
    if old.get("default") == new.get("default") or at.side != "request":
        return  # a response default documents nothing a party relies on
    walk.emit(
        "default-changed",
        pointer_join(at.pointer, "default"),
        old.get("default"),
        new.get("default"),
        (True, True),  # omitting the field now means something else, on both ends
        f"{at.label}: default changed from {_fmt(old.get('default'))} "
        f"to {_fmt(new.get('default'))}",
    )


def _required(schema: Mapping[str, JSON]) -> set[str]:
    raw = schema.get("required")
    return {str(n) for n in raw} if isinstance(raw, list) else set()


@schema_rule
def properties_changed(
    walk: Walk, old: Mapping[str, JSON], new: Mapping[str, JSON], at: Place
) -> None:
    old_props, new_props = _mapping(old.get("properties")), _mapping(new.get("properties"))
    old_req, new_req = _required(old), _required(new)
    for name in new_props:
        if name in old_props:
            continue
        required = name in new_req
        field_at = at.child(("properties", name), f"{'.' if at.field else ''}{name}")
        if at.side == "request":
            impact = (required, True)
        else:
            impact = (old.get("additionalProperties") is False, required)
        walk.emit(
            "property-added",
            field_at.pointer,
            None,
            {"required": required},
            impact,
            f"{field_at.label}: added ({'required' if required else 'optional'})",
        )
    for name in old_props:
        if name in new_props:
            continue
        field_at = at.child(("properties", name), f"{'.' if at.field else ''}{name}")
        walk.emit(
            "property-removed",
            field_at.pointer,
            {"required": name in old_req},
            None,
            (True, False),
            f"{field_at.label}: removed",
        )
    for name in new_props:
        if name not in old_props or (name in old_req) == (name in new_req):
            continue
        field_at = at.child(("properties", name), f"{'.' if at.field else ''}{name}")
        became_required = name in new_req
        walk.emit(
            "required-added" if became_required else "required-removed",
            pointer_join(at.pointer, "required"),
            not became_required,
            became_required,
            _impact(at.side, widened=not became_required, narrowed=became_required),
            f"{field_at.label}: "
            + ("optional -> required" if became_required else "required -> optional"),
        )


@schema_rule
def variants_changed(
    walk: Walk, old: Mapping[str, JSON], new: Mapping[str, JSON], at: Place
) -> None:
    open_enum = _is_open(old) or _is_open(new)
    for keyword in ("oneOf", "anyOf", "allOf"):
        if keyword == "anyOf" and open_enum:
            continue  # an open enum's anyOf is its value list: documented_values_changed
        before = _list(old.get(keyword))
        after = _list(new.get(keyword))
        if len(before) == len(after):
            continue
        grew = len(after) > len(before)
        # More oneOf/anyOf members accept more; more allOf members demand more.
        widened = grew if keyword != "allOf" else not grew
        walk.emit(
            "variants-changed",
            pointer_join(at.pointer, keyword),
            len(before),
            len(after),
            _impact(at.side, widened=widened, narrowed=not widened),
            f"{at.label}: {keyword} went from {len(before)} to {len(after)} members",
        )


def compare_schema(walk: Walk, old_node: JSON, new_node: JSON, at: Place) -> None:
    """Apply every schema rule to a pair, then recurse into the subschemas both have."""
    old, old_key = _deref(walk.old_doc, old_node)
    new, new_key = _deref(walk.new_doc, new_node)
    if not isinstance(old, Mapping) or not isinstance(new, Mapping):
        return  # boolean schemas: nothing to compare by keyword
    if old_key or new_key:
        pair = (old_key, new_key)
        if pair in at.seen:
            return  # recursive schema: this pair is already being compared further up
        at = Place(at.side, at.pointer, at.field, at.seen | {pair}, new_key or old_key)
    outer, walk.place = walk.place, at
    try:
        for check in SCHEMA_RULES:
            check(walk, old, new, at)
    finally:
        walk.place = outer
    old_props, new_props = _mapping(old.get("properties")), _mapping(new.get("properties"))
    for name, sub in new_props.items():
        if name in old_props:
            sep = "." if at.field else ""
            compare_schema(walk, old_props[name], sub, at.child(("properties", name), sep + name))
    for keyword, suffix in (("items", "[]"), ("additionalProperties", "{}"), ("not", "!")):
        if isinstance(old.get(keyword), Mapping) and isinstance(new.get(keyword), Mapping):
            compare_schema(walk, old[keyword], new[keyword], at.child((keyword,), suffix))
    for keyword in ("oneOf", "anyOf", "allOf", "prefixItems"):
        before, after = old.get(keyword), new.get(keyword)
        if keyword == "anyOf" and (_is_open(old) or _is_open(new)):
            continue
        if isinstance(before, list) and isinstance(after, list):
            for index, (b, a) in enumerate(zip(before, after, strict=False)):
                compare_schema(walk, b, a, at.child((keyword, index), f"<{keyword}[{index}]>"))


# --------------------------------------------------------------------------- operation rules


@dataclass(frozen=True)
class OperationView:
    method: str
    path: str
    pointer: str
    operation: Mapping[str, JSON]
    parameters: dict[tuple[str, str], tuple[str, Mapping[str, JSON]]]  # (in, name) -> (ptr, param)
    security: list[JSON]

    @property
    def endpoint(self) -> str:
        return f"{self.method.upper()} {self.path}"

    @property
    def operation_id(self) -> str:
        return str(self.operation.get("operationId") or self.endpoint)


TEMPLATE = re.compile(r"\{[^{}]*\}")


def _operations(document: JSON) -> dict[tuple[str, str], OperationView]:
    views: dict[tuple[str, str], OperationView] = {}
    for path, item in _mapping(document.get("paths")).items():
        item, _ = _deref(document, item)
        item = _mapping(item)
        shared = _parameter_index(document, item.get("parameters"), pointer_join("/paths", path))
        for method in HTTP_METHODS:
            op = item.get(method)
            if not isinstance(op, Mapping):
                continue
            pointer = pointer_join("/paths", path, method)
            params = {**shared, **_parameter_index(document, op.get("parameters"), pointer)}
            params = _key_path_parameters_by_position(str(path), params)
            security = op.get("security", document.get("security") or [])
            key = (method, TEMPLATE.sub("{}", str(path)))
            views[key] = OperationView(method, str(path), pointer, op, params, list(security))
    return views


def _key_path_parameters_by_position(
    path: str, params: dict[tuple[str, str], tuple[str, Mapping[str, JSON]]]
) -> dict[tuple[str, str], tuple[str, Mapping[str, JSON]]]:
    """Path parameters are matched by their place in the template: renaming {id} to {job_id}
    changes nothing on the wire."""
    names = [m.group(0)[1:-1] for m in TEMPLATE.finditer(path)]
    return {
        (
            ("path", f"{{{names.index(name)}}}")
            if where == "path" and name in names
            else (where, name)
        ): value
        for (where, name), value in params.items()
    }


def _parameter_index(
    document: JSON, raw: JSON, owner: str
) -> dict[tuple[str, str], tuple[str, Mapping[str, JSON]]]:
    index: dict[tuple[str, str], tuple[str, Mapping[str, JSON]]] = {}
    for position, item in enumerate(raw if isinstance(raw, list) else []):
        param, _ = _deref(document, item)
        param = _mapping(param)
        key = (str(param.get("in")), str(param.get("name")))
        index[key] = (pointer_join(owner, "parameters", position), param)
    return index


def operations_changed(walk: Walk, old: JSON, new: JSON) -> None:
    old_ops, new_ops = _operations(old), _operations(new)
    for key, view in new_ops.items():
        walk.operation, walk.endpoint = view.operation_id, view.endpoint
        if key not in old_ops:
            walk.emit(
                "operation-added", view.pointer, None, view.operation_id, (False, True),
                f"operation {view.operation_id} ({view.endpoint}) added",
            )  # fmt: skip
            continue
        before = old_ops[key]
        if before.operation_id != view.operation_id:
            walk.emit(
                "operation-id-changed",
                pointer_join(view.pointer, "operationId"),
                before.operation_id,
                view.operation_id,
                (True, False),
                f"operationId changed from {before.operation_id} to {view.operation_id}",
            )
        for check in OPERATION_RULES:
            check(walk, before, view)
    for key, view in old_ops.items():
        if key not in new_ops:
            walk.operation, walk.endpoint = view.operation_id, view.endpoint
            walk.emit(
                "operation-removed", view.pointer, view.operation_id, None, (True, False),
                f"operation {view.operation_id} ({view.endpoint}) removed",
            )  # fmt: skip


OperationRule = Callable[[Walk, OperationView, OperationView], None]
OPERATION_RULES: list[OperationRule] = []


def operation_rule(check: OperationRule) -> OperationRule:
    OPERATION_RULES.append(check)
    return check


def _param_required(param: Mapping[str, JSON]) -> bool:
    return bool(param.get("required", param.get("in") == "path"))


@operation_rule
def parameters_changed(walk: Walk, old: OperationView, new: OperationView) -> None:
    for key, (pointer, param) in new.parameters.items():
        where, name = key[0], str(param.get("name"))
        required = _param_required(param)
        if key not in old.parameters:
            walk.emit(
                "parameter-added",
                pointer,
                None,
                {"in": where, "name": name, "required": required},
                (required, True),
                f"{where} parameter `{name}` added ({'required' if required else 'optional'})",
            )
            continue
        old_param = old.parameters[key][1]
        was_required = _param_required(old_param)
        if was_required != required:
            walk.emit(
                "parameter-required-changed",
                pointer_join(pointer, "required"),
                was_required,
                required,
                _impact("request", widened=not required, narrowed=required),
                f"{where} parameter `{name}`: "
                + ("optional -> required" if required else "required -> optional"),
            )
        if isinstance(old_param.get("schema"), Mapping) and isinstance(
            param.get("schema"), Mapping
        ):
            place = Place("request", pointer_join(pointer, "schema"), f"{where}:{name}")
            compare_schema(walk, old_param["schema"], param["schema"], place)
    for key, (pointer, param) in old.parameters.items():
        if key not in new.parameters:
            name = str(param.get("name"))
            walk.emit(
                "parameter-removed",
                pointer,
                {"in": key[0], "name": name},
                None,
                (True, False),
                f"{key[0]} parameter `{name}` removed",
            )


def _content(document: JSON, node: JSON) -> Mapping[str, JSON]:
    resolved, _ = _deref(document, node)
    return _mapping(_mapping(resolved).get("content"))


def _compare_content(walk: Walk, old_node: JSON, new_node: JSON, pointer: str, side: Side) -> None:
    old_content, new_content = _content(walk.old_doc, old_node), _content(walk.new_doc, new_node)
    for media, body in new_content.items():
        media_pointer = pointer_join(pointer, "content", media)
        if media not in old_content:
            walk.emit(
                "media-type-added", media_pointer, None, media,
                _impact(side, widened=True, narrowed=False),
                f"{side} media type {media} added",
            )  # fmt: skip
            continue
        old_schema = _mapping(old_content[media]).get("schema")
        new_schema = _mapping(body).get("schema")
        if isinstance(old_schema, Mapping) and isinstance(new_schema, Mapping):
            compare_schema(
                walk, old_schema, new_schema, Place(side, pointer_join(media_pointer, "schema"), "")
            )
    for media in old_content:
        if media not in new_content:
            walk.emit(
                "media-type-removed", pointer_join(pointer, "content", media), media, None,
                _impact(side, widened=False, narrowed=True),
                f"{side} media type {media} removed",
            )  # fmt: skip


@operation_rule
def request_body_changed(walk: Walk, old: OperationView, new: OperationView) -> None:
    old_body, _ = _deref(walk.old_doc, old.operation.get("requestBody"))
    new_body, _ = _deref(walk.new_doc, new.operation.get("requestBody"))
    pointer = pointer_join(new.pointer, "requestBody")
    if old_body is None and new_body is None:
        return
    if old_body is None:
        required = bool(_mapping(new_body).get("required"))
        walk.emit(
            "request-body-added", pointer, None, {"required": required}, (required, True),
            f"request body added ({'required' if required else 'optional'})",
        )  # fmt: skip
        return
    if new_body is None:
        walk.emit(
            "request-body-removed", pointer_join(old.pointer, "requestBody"), "present", None,
            (True, False), "request body removed",
        )  # fmt: skip
        return
    was, now = bool(_mapping(old_body).get("required")), bool(_mapping(new_body).get("required"))
    if was != now:
        walk.emit(
            "request-body-required-changed",
            pointer_join(pointer, "required"),
            was,
            now,
            _impact("request", widened=not now, narrowed=now),
            "request body " + ("optional -> required" if now else "required -> optional"),
        )
    _compare_content(walk, old_body, new_body, pointer, "request")


@operation_rule
def responses_changed(walk: Walk, old: OperationView, new: OperationView) -> None:
    old_responses = _mapping(old.operation.get("responses"))
    new_responses = _mapping(new.operation.get("responses"))
    for status, response in new_responses.items():
        pointer = pointer_join(new.pointer, "responses", status)
        success = str(status).startswith("2")
        if status not in old_responses:
            walk.emit(
                "response-status-added", pointer, None, str(status), (success, False),
                f"response status {status} added"
                + ("" if success else " (clients handle unknown error statuses generically)"),
            )  # fmt: skip
            continue
        _compare_headers(walk, old_responses[status], response, pointer)
        _compare_content(walk, old_responses[status], response, pointer, "response")
    for status in old_responses:
        if status not in new_responses:
            walk.emit(
                "response-status-removed",
                pointer_join(old.pointer, "responses", status),
                str(status),
                None,
                (False, True),
                f"response status {status} removed (servers that still send it no longer conform)",
            )


def _compare_headers(walk: Walk, old_node: JSON, new_node: JSON, pointer: str) -> None:
    old_resp, _ = _deref(walk.old_doc, old_node)
    new_resp, _ = _deref(walk.new_doc, new_node)
    old_headers = _mapping(_mapping(old_resp).get("headers"))
    new_headers = _mapping(_mapping(new_resp).get("headers"))
    for name, header in new_headers.items():
        header_pointer = pointer_join(pointer, "headers", name)
        resolved, _ = _deref(walk.new_doc, header)
        if name not in old_headers:
            required = bool(_mapping(resolved).get("required"))
            walk.emit(
                "response-header-added", header_pointer, None, {"required": required},
                (False, required), f"response header {name} added",
            )  # fmt: skip
            continue
        old_resolved, _ = _deref(walk.old_doc, old_headers[name])
        old_schema, new_schema = (
            _mapping(old_resolved).get("schema"),
            _mapping(resolved).get("schema"),
        )
        if isinstance(old_schema, Mapping) and isinstance(new_schema, Mapping):
            place = Place("response", pointer_join(header_pointer, "schema"), f"header:{name}")
            compare_schema(walk, old_schema, new_schema, place)
    for name in old_headers:
        if name not in new_headers:
            walk.emit(
                "response-header-removed", pointer_join(pointer, "headers", name), name, None,
                (True, False), f"response header {name} removed",
            )  # fmt: skip


def _requirements(security: Iterable[JSON]) -> set[frozenset[str]]:
    return {frozenset(_mapping(item)) for item in security}


@operation_rule
def security_changed(walk: Walk, old: OperationView, new: OperationView) -> None:
    before, after = _requirements(old.security), _requirements(new.security)
    pointer = pointer_join(new.pointer, "security")
    for requirement in sorted(after - before, key=sorted):
        walk.emit(
            "security-changed", pointer, None, sorted(requirement), (False, True),
            f"security alternative {sorted(requirement) or 'anonymous'} added "
            "(servers must accept it)",
        )  # fmt: skip
    for requirement in sorted(before - after, key=sorted):
        walk.emit(
            "security-changed", pointer, sorted(requirement), None, (True, False),
            f"security alternative {sorted(requirement) or 'anonymous'} removed",
        )  # fmt: skip
    old_schemes = _mapping(_mapping(walk.old_doc.get("components")).get("securitySchemes"))
    new_schemes = _mapping(_mapping(walk.new_doc.get("components")).get("securitySchemes"))
    for name in sorted({name for requirement in before & after for name in requirement}):
        old_def, _ = _deref(walk.old_doc, old_schemes.get(name))
        new_def, _ = _deref(walk.new_doc, new_schemes.get(name))
        significant = ("type", "in", "name", "scheme", "bearerFormat", "flows", "openIdConnectUrl")
        changed = [k for k in significant if _mapping(old_def).get(k) != _mapping(new_def).get(k)]
        if changed:
            walk.emit(
                "security-scheme-changed",
                pointer_join("/components/securitySchemes", name),
                {k: _mapping(old_def).get(k) for k in changed},
                {k: _mapping(new_def).get(k) for k in changed},
                (True, True),
                f"security scheme {name} changed ({', '.join(changed)})",
            )


# --------------------------------------------------------------------------- entry points


def diff_documents(
    old: JSON, new: JSON, *, labels: tuple[str, str] = ("old", "new")
) -> list[Change]:
    """Every change from ``old`` to ``new``, breaking ones first, then by operation and pointer."""
    walk = Walk(old_doc=old, new_doc=new)
    operations_changed(walk, old, new)
    meaning_changed(old, new, walk.record, labels=labels)
    return sorted(
        _merged(walk.changes),
        key=lambda c: (not c.breaking, c.operation, c.pointer, c.rule, _fmt(c.old), _fmt(c.new)),
    )


def _both_sides(message: str, messages: list[str]) -> str:
    """A message that says both sides when a shared schema's change reaches both (the rules
    word them "request field ..." and "response field ...")."""
    sides = {m.split(" ", 1)[0] for m in messages}
    if {"request", "response"} <= sides and message.startswith(("request ", "response ")):
        return "request and response " + message.split(" ", 1)[1]
    return message


def _merged(changes: Iterable[Change]) -> list[Change]:
    """One change per rule, declared pointer and values: a shared schema's change once, with
    every operation and pointer it is reached at, breaking whoever any of them breaks."""
    groups: dict[tuple[str, str, str, str], list[Change]] = {}
    for change in sorted(changes, key=lambda c: (c.operation, c.reached)):
        key = (change.rule, change.pointer, _fmt(change.old), _fmt(change.new))
        groups.setdefault(key, []).append(change)
    merged: list[Change] = []
    for members in groups.values():
        first = members[0]
        merged.append(
            replace(
                first,
                message=_both_sides(first.message, [c.message for c in members]),
                breaks_clients=any(c.breaks_clients for c in members),
                breaks_servers=any(c.breaks_servers for c in members),
                operations=tuple(dict.fromkeys(o for c in members for o in c.operations)),
                reached=tuple(dict.fromkeys(r for c in members for r in c.reached)),
            )
        )
    return merged


def render_json(changes: list[Change], old: SpecSource, new: SpecSource) -> str:
    payload = {
        "old": {"source": old.label, "version": _version(old.document)},
        "new": {"source": new.label, "version": _version(new.document)},
        "summary": {
            "changes": len(changes),
            "breaks_clients": sum(c.breaks_clients for c in changes),
            "breaks_servers": sum(c.breaks_servers for c in changes),
        },
        "changes": [asdict(c) for c in changes],
    }
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"


def _version(document: JSON) -> str:
    return str(_mapping(_mapping(document).get("info")).get("version", ""))


def _md_line(change: Change) -> str:
    parties = [
        p
        for p, hit in (("clients", change.breaks_clients), ("servers", change.breaks_servers))
        if hit
    ]
    breaks = f" — **breaks {' and '.join(parties)}**" if parties else ""
    operations = change.operations or (change.operation,)
    where = f" ({change.endpoint})" if change.endpoint and len(operations) == 1 else ""
    names = ", ".join(f"`{name}`" for name in operations)
    return f"- {names}{where}: {change.message}{breaks} [`{change.rule}` at `{change.pointer}`]"


def render_markdown_sections(changes: list[Change], level: int = 2) -> str:
    """Breaking changes first, then the others; 'No changes.' when there are none."""
    if not changes:
        return "No changes.\n"
    hashes = "#" * level
    parts: list[str] = []
    breaking = [c for c in changes if c.breaking]
    other = [c for c in changes if not c.breaking]
    if breaking:
        parts.append(f"{hashes} Breaking changes\n\n" + "\n".join(map(_md_line, breaking)) + "\n")
    if other:
        parts.append(f"{hashes} Non-breaking changes\n\n" + "\n".join(map(_md_line, other)) + "\n")
    return "\n".join(parts)


def render_markdown(changes: list[Change], old: SpecSource, new: SpecSource) -> str:
    title = (
        f"# Spec changes: {old.label} ({_version(old.document)}) -> "
        f"{new.label} ({_version(new.document)})\n\n"
    )
    clients = sum(c.breaks_clients for c in changes)
    servers = sum(c.breaks_servers for c in changes)
    summary = f"{len(changes)} change(s): {clients} break clients, {servers} break servers.\n\n"
    return title + summary + render_markdown_sections(changes, level=2)
