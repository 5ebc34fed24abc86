"""The schema rules of ``spec diff``: what changed in a pair of schemas (type, nullability,
format, enums and documented values, constraints, combinations, additional properties,
defaults, properties and required, variants), and :func:`compare_schema`, which applies every
rule to a pair and recurses into the subschemas both have."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from modelarts_kit_spec.diff.model import (
    Place,
    Walk,
    as_list,
    as_mapping,
    deref,
    fmt,
    side_impact,
)
from modelarts_kit_spec.document import JSON, pointer_join
from modelarts_kit_spec.values import documented_values

__all__ = ["SCHEMA_RULES", "SchemaRule", "compare_schema", "schema_rule"]

SchemaRule = Callable[[Walk, Mapping[str, JSON], Mapping[str, JSON], Place], None]
SCHEMA_RULES: list[SchemaRule] = []


def schema_rule(check: SchemaRule) -> SchemaRule:
    SCHEMA_RULES.append(check)
    return check


def _types(schema: Mapping[str, JSON]) -> tuple[set[str] | None, bool]:
    """(types other than null or None for "any type", whether null is allowed). Without a
    ``type``, an ``anyOf``/``oneOf`` whose every branch states one allows their union: dropping
    ``type: [object, array]`` beside ``anyOf`` of an object and an array changes nothing."""
    raw = schema.get("type")
    if raw is None:
        raw = _branch_types(schema)
    if raw is None:
        return None, True
    types = {raw} if isinstance(raw, str) else {str(t) for t in raw}
    nullable = "null" in types or schema.get("nullable") is True
    return types - {"null"}, nullable


def _branch_types(schema: Mapping[str, JSON]) -> list[str] | None:
    """The union of the types the ``anyOf``/``oneOf`` branches state; None if one states none
    (a ``$ref``, an untyped branch) or there are no branches."""
    found: list[str] = []
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if not isinstance(branches, list):
            continue
        for branch in branches:
            kind = branch.get("type") if isinstance(branch, Mapping) else None
            if kind is None:
                return None
            found += [kind] if isinstance(kind, str) else [str(k) for k in kind]
    return sorted(set(found)) or None


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
    said_before, said_after = fmt(before), fmt(after)
    if old.get("format") != new.get("format"):
        # One field, one finding: the format that changed with the type travels with it.
        before = {"type": before, "format": old.get("format")}
        after = {"type": after, "format": new.get("format")}
        said_before += f" (format {fmt(old.get('format'))})"
        said_after += f" (format {fmt(new.get('format'))})"
    walk.emit(
        "type-changed",
        pointer_join(at.pointer, "type"),
        before,
        after,
        side_impact(at.side, widened=widened, narrowed=narrowed),
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
        side_impact(at.side, widened=new_null, narrowed=old_null),
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
        side_impact(at.side, widened=widened, narrowed=narrowed),
        f"{at.label}: format changed from {fmt(before)} to {fmt(after)}",
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
            side_impact(at.side, widened=opened, narrowed=not opened),
            f"{at.label}: the enum became "
            + ("open" if opened else "closed")
            + f" (values {fmt(list(after.values))})",
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
                f"{at.label}: documented value {fmt(value)} added (the enum is open)",
            )
    for value in old_values:
        if value not in new_values:
            walk.emit(
                "documented-value-removed",
                pointer,
                value,
                None,
                (False, False),
                f"{at.label}: documented value {fmt(value)} removed (the enum is open)",
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
            side_impact(at.side, widened=widened, narrowed=not widened),
            f"{at.label}: enum "
            + ("removed (any value allowed)" if widened else f"introduced: {fmt(after)}"),
        )
        return
    for value in after:
        if value not in before:
            walk.emit(
                "enum-value-added",
                pointer,
                None,
                value,
                side_impact(at.side, widened=True, narrowed=False),
                f"{at.label}: enum value {fmt(value)} added",
            )
    for value in before:
        if value not in after:
            # The one exception to the principle: a value dropped from a response enum breaks
            # nobody (issue #3, as oasdiff rates it): clients just stop seeing it, and a server
            # that still sends it is caught by the contract kit, not by a changelog.
            impact = (
                (False, False)
                if at.side == "response"
                else side_impact(at.side, widened=False, narrowed=True)
            )
            walk.emit(
                "enum-value-removed",
                pointer,
                value,
                None,
                impact,
                f"{at.label}: enum value {fmt(value)} removed",
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
        side_impact(
            at.side,
            widened=tightened is not True,
            narrowed=tightened is not False,
        ),
        f"{at.label}: {keyword} changed from {fmt(before)} to {fmt(after)}",
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
    raw = as_mapping(schema.get("dependentRequired"))
    return {(str(k), str(d)) for k, deps in raw.items() for d in as_list(deps)}


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
        side_impact(at.side, widened=closed_before, narrowed=closed_after),
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
        f"{at.label}: default changed from {fmt(old.get('default'))} to {fmt(new.get('default'))}",
    )


def _required(schema: Mapping[str, JSON]) -> set[str]:
    raw = schema.get("required")
    return {str(n) for n in raw} if isinstance(raw, list) else set()


@schema_rule
def properties_changed(
    walk: Walk, old: Mapping[str, JSON], new: Mapping[str, JSON], at: Place
) -> None:
    old_props, new_props = as_mapping(old.get("properties")), as_mapping(new.get("properties"))
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
            side_impact(at.side, widened=not became_required, narrowed=became_required),
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
        before = as_list(old.get(keyword))
        after = as_list(new.get(keyword))
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
            side_impact(at.side, widened=widened, narrowed=not widened),
            f"{at.label}: {keyword} went from {len(before)} to {len(after)} members",
        )


def compare_schema(walk: Walk, old_node: JSON, new_node: JSON, at: Place) -> None:
    """Apply every schema rule to a pair, then recurse into the subschemas both have."""
    old, old_key = deref(walk.old_doc, old_node)
    new, new_key = deref(walk.new_doc, new_node)
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
    old_props, new_props = as_mapping(old.get("properties")), as_mapping(new.get("properties"))
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
