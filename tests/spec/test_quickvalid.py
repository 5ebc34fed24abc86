"""The quick Rust verdict (``Spec.surely_valid``, ``Spec.quick_verdict``) never says what Python
``jsonschema`` would not: differential over the spec's own examples, each mutated leaf by leaf
(both envelopes and the full spec; the reference server's int32/int64 checker too), and one
test per guard showing the disagreement it keeps out."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import ValidationError
from modelarts_kit_server.validation import (
    OPENAPI_FORMATS,
    best_violation,
    describe_violation,
    openapi_validator,
)
from modelarts_kit_spec import Spec, load_spec
from modelarts_kit_spec.quickvalid import (
    Disagree,
    _plain,
    _read_alike,
    _same_strings,
    rust_schema,
)

SPEC = load_spec()
SPECS = {
    "full": SPEC,
    "must-accept": SPEC.envelope("must-accept"),
    "must-reject": SPEC.envelope("must-reject"),
}
# Values each leaf is replaced by: every type, both int32 ends, an integral float, the strings
# the regular expressions read differently (a final newline, Arabic-Indic digits), a lone
# surrogate (no Unicode text to the Rust crate).
PALETTE: tuple[Any, ...] = (
    None,
    True,
    0,
    -1,
    2**31 - 1,
    2**31,
    2**63,
    1.0,
    2.5,
    "",
    "a",
    "job-1",
    "ModelArts.0001",
    "ModelArts.0001\n",
    "ModelArts.\u0661\u0662\u0663\u0664",
    "\ud800",
    "x" * 300,
    [],
    {},
)


def _media_examples(spec: Spec, node: Any) -> Iterator[Any]:
    media = (spec.deref(node).get("content") or {}).get("application/json") or {}
    for example in (media.get("examples") or {}).values():
        example = spec.deref(example)
        if "value" in example:
            yield example["value"]
    if "example" in media:
        yield media["example"]


def _cases(spec: Spec) -> Iterator[tuple[Any, Any]]:
    """(schema, example) of each request and answer the spec gives an example of, once."""
    seen: set[str] = set()
    for schema, example in _all_cases(spec):
        key = json.dumps([schema, example], sort_keys=True)
        if key not in seen:
            seen.add(key)
            yield schema, example


def _all_cases(spec: Spec) -> Iterator[tuple[Any, Any]]:
    for operation in spec.operations:
        node = SPEC.at(operation.pointer)
        if operation.request_schema is not None and "requestBody" in node:
            for example in _media_examples(SPEC, node["requestBody"]):
                yield operation.request_schema, example
        for status, answer in (node.get("responses") or {}).items():
            response = operation.response_for(int(status)) if status.isdigit() else None
            if response is None or response.schema is None:
                continue
            for example in _media_examples(SPEC, answer):
                yield response.schema, example


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:2]):
            yield from _paths(item, (*prefix, index))


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copied = copy.deepcopy(value)
    node = copied
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = new
    return copied


def _mutants(example: Any) -> Iterator[Any]:
    """The example, then each place of it replaced by two values of the palette (in turn,
    so that every value meets every kind of place), removed, and an unknown field added."""
    yield example
    for index, path in enumerate(_paths(example)):
        for turn in range(2):
            yield _replaced(example, path, PALETTE[(2 * index + turn) % len(PALETTE)])
        if path:
            copied = copy.deepcopy(example)
            node = copied
            for part in path[:-1]:
                node = node[part]
            del node[path[-1]]
            yield copied
    if isinstance(example, dict):
        yield {**example, "unknown_field": 1}


def _schemas(spec: Spec) -> Iterator[Any]:
    for operation in spec.operations:
        if operation.request_schema is not None:
            yield operation.request_schema
        for response in operation.responses:
            if response.schema is not None:
                yield response.schema


def test_the_quick_verdicts_are_pythons() -> None:
    checked = {"surely": 0, "valid": 0, "invalid": 0, "left to python": 0}
    for spec in SPECS.values():
        for schema, example in _cases(spec):
            python = spec.walking_validator(schema)
            server = python.evolve(format_checker=OPENAPI_FORMATS)
            for instance in _mutants(example):
                if spec.surely_valid(schema, instance):
                    assert python.is_valid(instance), (schema, instance)
                    assert server.is_valid(instance), (schema, instance)
                    checked["surely"] += 1
                quick = spec.quick_verdict(schema, instance)
                if quick is None:
                    checked["left to python"] += 1
                    continue
                assert quick == python.is_valid(instance), (schema, instance)
                checked["valid" if quick else "invalid"] += 1
    # Not vacuous: both verdicts met many times, and most cases answered quickly.
    assert checked["surely"] > 300, checked
    assert checked["valid"] > 300, checked
    assert checked["invalid"] > 2000, checked
    assert checked["left to python"] < checked["valid"] + checked["invalid"], checked


def _told(error: ValidationError) -> tuple[Any, ...]:
    """All an error says: message, keyword, where in the body and the schema, its branches."""
    return (
        error.message,
        error.validator,
        json.dumps(error.validator_value, sort_keys=True, default=str),
        list(error.absolute_path),
        list(error.absolute_schema_path),
        [_told(branch) for branch in error.context],
    )


def test_the_pruned_walk_gives_pythons_errors() -> None:
    # Spec.validator skips the members and items the quick verdict proves valid: each error
    # (and the server's best violation, hence its message) is the full walk's, in its order
    # (so is every verdict: is_valid is "no first error").
    compared = {"errors": 0, "pruned": 0}
    for name, spec in SPECS.items():
        for schema, example in _cases(spec):
            walking = spec.walking_validator(schema)
            pairs = [(walking, spec.validator(schema))]
            if name != "full":  # the server validates with an envelope and its int checker
                evolved = walking.evolve(format_checker=OPENAPI_FORMATS)
                pairs.append((evolved, openapi_validator(spec, schema)))
            for instance in _mutants(example):
                for full, pruned in pairs:
                    expected = list(full.iter_errors(instance))
                    found = list(pruned.iter_errors(instance))
                    assert [_told(e) for e in found] == [_told(e) for e in expected], instance
                    if expected:
                        best = describe_violation(best_violation(expected))
                        assert describe_violation(best_violation(found)) == best
                    compared["errors"] += len(expected)
                if expected:
                    compared["pruned"] += _pruned_some(*pairs[0], instance)
    # Not vacuous: many errors compared, many of them where a part of the body was skipped.
    assert compared["errors"] > 3000, compared
    assert compared["pruned"] > 1000, compared


def _pruned_some(full: Any, pruned: Any, instance: Any) -> bool:
    """Whether the pruned walk skipped a member or item of ``instance`` (fewer descents)."""
    return _descents(pruned, instance) < _descents(full, instance)


def _descents(validator: Any, instance: Any) -> int:
    counted = [0]
    cls = type(validator)
    original = cls.descend

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        counted[0] += 1
        return original(self, *args, **kwargs)

    cls.descend = counting
    try:
        list(validator.iter_errors(instance))
    finally:
        cls.descend = original
    return counted[0]


def test_every_schema_of_the_spec_has_a_quick_validator() -> None:
    # The speed of a contract run rests on it: a schema the guard refuses is Python alone.
    for spec in SPECS.values():
        for schema in _schemas(spec):
            for ranges in (True, False):
                rust_schema(spec.document, schema, integer_ranges=ranges)


def _create(spec: Spec) -> Any:
    return spec.operation("CreateTrainingJob").request_schema


def _create_body() -> Any:
    body = SPEC.at(SPEC.operation("CreateTrainingJob").pointer + "/requestBody")
    media = SPEC.deref(body)["content"]["application/json"]
    return copy.deepcopy(next(iter(media["examples"].values()))["value"])


def _raw_rust(spec: Spec, schema: Any, instance: Any) -> bool:
    import jsonschema_rs

    prepared = rust_schema(spec.document, schema, integer_ranges=False)
    return bool(jsonschema_rs.Draft202012Validator(prepared).is_valid(instance))


def test_an_integral_float_is_left_to_python() -> None:
    # Must-accept reads 1.0 as no integer; the Rust crate reads it as one.
    spec = SPECS["must-accept"]
    body = _create_body()
    body["spec"]["resource"]["node_count"] = 1.0
    body.pop("unknown_field", None)
    schema = _create(spec)
    assert not spec.validator(schema).is_valid(body)
    assert spec.quick_verdict(schema, body) is None
    assert not spec.surely_valid(schema, body)


def test_int32_ranges_hold_for_the_servers_checker() -> None:
    document = {"components": {"schemas": {"Count": {"type": "integer", "format": "int32"}}}}
    spec = Spec(path=SPEC.path, document=document, operations=())
    schema = {"$ref": "#/components/schemas/Count"}
    assert spec.validator(schema).is_valid(2**31)  # the spec's checker has no int32
    assert not openapi_validator(spec, schema).is_valid(2**31)  # the server's has
    assert _raw_rust(spec, schema, 2**31)  # nor has the Rust crate, unbounded
    assert not spec.surely_valid(schema, 2**31)
    assert spec.surely_valid(schema, 2**31 - 1)
    assert spec.quick_verdict(schema, 2**31) is True


@pytest.mark.parametrize("text", ["ModelArts.0001\n", "ModelArts.\u0661\u0662\u0663\u0664"])
def test_strings_a_pattern_reads_differently_are_left_to_python(text: str) -> None:
    # Python's "$" matches before a final newline and its \d any decimal digit; Rust's not.
    schema = {"type": "string", "pattern": r"^ModelArts\.\d{4}$"}
    assert SPEC.validator(schema).is_valid(text)
    assert not _raw_rust(SPEC, schema, text)
    assert SPEC.quick_verdict(schema, text) is None


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "format": "date-time"},
        {"type": "string", "pattern": r"^\S+$"},
        {"type": "string", "pattern": "^[^0-9]+$"},
        {"$id": "urn:x", "type": "string"},
        {"unevaluatedProperties": False},
        {"multipleOf": 0.5},
        {"$ref": "#/components/schemas/NoSuchSchema"},
    ],
)
def test_what_the_libraries_may_disagree_on_is_left_to_python(schema: dict[str, Any]) -> None:
    with pytest.raises(Disagree):
        rust_schema(SPEC.document, schema, integer_ranges=False)
    assert SPEC.quick_verdict(schema, "a") is None
    assert not SPEC.surely_valid(schema, "a")


def test_a_recursive_ref_is_left_to_python() -> None:
    document = {
        "components": {
            "schemas": {"Node": {"properties": {"next": {"$ref": "#/components/schemas/Node"}}}}
        }
    }
    with pytest.raises(Disagree):
        rust_schema(document, {"$ref": "#/components/schemas/Node"}, integer_ranges=False)


def test_a_ref_beside_siblings_applies_both() -> None:
    document = {"components": {"schemas": {"Name": {"type": "string", "maxLength": 3}}}}
    prepared = rust_schema(
        document, {"$ref": "#/components/schemas/Name", "minLength": 2}, integer_ranges=False
    )
    assert prepared == {"minLength": 2, "allOf": [{"type": "string", "maxLength": 3}]}


@pytest.mark.parametrize("value", ["\ud800", {"a\udcff": 1}, ["ok", "\udfff"]])
def test_a_lone_surrogate_is_left_to_python(value: Any) -> None:
    schema = {"not": {"const": "\ufffd"}}
    assert SPEC.quick_verdict(schema, value) is None
    assert not SPEC.surely_valid(schema, value)


def test_a_reference_is_looked_up_once_per_base_uri() -> None:
    # The pruned walk looks each $ref up once per base URI: the same "#/$defs/n" under
    # another $id is another schema, and the errors stay Python's own walk's.
    from jsonschema import Draft202012Validator
    from modelarts_kit_spec.quickvalid import QuickValidity
    from referencing._core import Resolver

    document = {
        "$id": "urn:test:root",
        "$defs": {"n": {"type": "integer"}},
        "properties": {
            "a": {"$ref": "#/$defs/n"},
            "b": {
                "$id": "urn:test:other",
                "$defs": {"n": {"type": "string"}},
                "properties": {"c": {"$ref": "#/$defs/n"}},
            },
        },
    }
    pruned = QuickValidity(document).pruning(Draft202012Validator)(document)
    full = Draft202012Validator(document)
    lookups = [0]
    original = Resolver.lookup

    def counted(self: Any, ref: str) -> Any:
        lookups[0] += 1
        return original(self, ref)

    for instance in ({"a": "x", "b": {"c": 1}}, {"a": 1, "b": {"c": "y"}}, {"a": 2.5}):
        expected = [_told(e) for e in full.iter_errors(instance)]
        assert [_told(e) for e in pruned.iter_errors(instance)] == expected, instance
    Resolver.lookup = counted  # type: ignore[method-assign]
    try:
        found = [_told(e) for e in pruned.iter_errors({"a": "x", "b": {"c": 1}})]
    finally:
        Resolver.lookup = original  # type: ignore[method-assign]
    assert len(found) == 2
    assert lookups[0] == 0  # both references were looked up before


_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**60), max_value=2**60),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["a", "a\n", "\n", "\u0661", "x\u0661", "caf\u00e9", "\ud800", "9"]),
    st.text(max_size=4),
)
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["k", "\u00e9", "\ud800", "\n"]), inner, max_size=3)
    ),
    max_leaves=12,
)


@given(value=_VALUES)
def test_one_walk_reads_values_as_the_two_checks_do(value: Any) -> None:
    # A verdict both ways needs plain data whose strings the patterns read alike: one walk
    # answers what the two walks answered, on every kind of value and string.
    assert _read_alike(value) == (_plain(value) and _same_strings(value))


def test_one_walk_refuses_what_either_check_refuses() -> None:
    deep: Any = "a"
    for _ in range(70):
        deep = [deep]
    refused = [{"a": "x\n"}, ["\u0661"], {"a": 2**60}, {"a": 1.0}, {"\ud800": 1}, deep, ("a",)]
    assert [_read_alike(v) for v in refused] == [False] * len(refused)
    assert _read_alike({"a": ["b", {"c": 2.5, "d": None, "e": "caf\u00e9"}]})


def test_a_document_reading_the_dynamic_scope_keeps_every_lookup() -> None:
    # A looked-up reference carries the dynamic scope of its first lookup, which only
    # $dynamicRef reads: a document using it keeps jsonschema's own $ref, lookup by lookup.
    from jsonschema import Draft202012Validator
    from modelarts_kit_spec.quickvalid import QuickValidity

    own_ref = Draft202012Validator.VALIDATORS["$ref"]
    plain = {"$defs": {"n": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/n"}}}
    dynamic = {
        "$id": "urn:test:list",
        "$dynamicAnchor": "item",
        "$defs": {"n": {"$dynamicAnchor": "item", "type": "integer"}},
        "properties": {"a": {"$ref": "#/$defs/n"}, "b": {"$dynamicRef": "#item"}},
    }
    assert QuickValidity(plain).pruning(Draft202012Validator).VALIDATORS["$ref"] is not own_ref
    pruned = QuickValidity(dynamic).pruning(Draft202012Validator)
    assert pruned.VALIDATORS["$ref"] is own_ref
    instance = {"a": "x", "b": "y"}
    expected = [_told(e) for e in Draft202012Validator(dynamic).iter_errors(instance)]
    assert [_told(e) for e in pruned(dynamic).iter_errors(instance)] == expected
