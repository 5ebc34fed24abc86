"""The vendor type table and the path normalisation, checked on generated inputs too."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from modelarts_kit_vendordocs.drift import normalise_field
from modelarts_kit_vendordocs.types import parse_type

NAMES = st.from_regex(r"[A-Z][A-Za-z0-9_]{0,20}", fullmatch=True).filter(
    lambda name: name.lower() not in {"string", "integer", "long", "object", "boolean", "number"}
)


@pytest.mark.parametrize(
    ("written", "schema", "ref"),
    [
        ("String", {"type": "string"}, None),
        ("Integer", {"type": "integer", "format": "int32"}, None),
        ("Long", {"type": "integer", "format": "int64"}, None),
        ("Float", {"type": "number"}, None),
        ("Double", {"type": "number"}, None),
        ("Number", {"type": "number"}, None),
        ("Boolean", {"type": "boolean"}, None),
        ("字符串", {"type": "string"}, None),
        ("长整型", {"type": "integer", "format": "int64"}, None),
        ("布尔型", {"type": "boolean"}, None),
        (
            "Map<String,String>",
            {"type": "object", "additionalProperties": {"type": "string"}},
            None,
        ),
        ("Array of strings", {"type": "array", "items": {"type": "string"}}, None),
        (
            "Array<Array<Integer>>",
            {
                "type": "array",
                "items": {"type": "array", "items": {"type": "integer", "format": "int32"}},
            },
            None,
        ),
        (
            "Array of Map<String,String> objects",
            {
                "type": "array",
                "items": {"type": "object", "additionalProperties": {"type": "string"}},
            },
            None,
        ),
        ("JobMetadata object", {"type": "object"}, "JobMetadata"),
        (
            "Array of TaskStatuses objects",
            {"type": "array", "items": {"type": "object"}},
            "TaskStatuses",
        ),
        ("Status 对象", {"type": "object"}, "Status"),
        ("Task对象数组", {"type": "array", "items": {"type": "object"}}, "Task"),
        ("something else entirely", {}, None),
    ],
)
def test_type_table(written: str, schema: dict[str, object], ref: str | None) -> None:
    parsed = parse_type(written)
    assert parsed.schema() == schema
    assert parsed.table_ref == ref


@given(name=NAMES, depth=st.integers(min_value=0, max_value=3))
def test_object_references_survive_any_array_depth(name: str, depth: int) -> None:
    written = f"{name} object"
    for _ in range(depth):
        written = f"Array<{written}>"
    parsed = parse_type(written)
    assert parsed.table_ref == name
    assert parsed.array_depth == depth


@given(
    parts=st.lists(st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True), min_size=1, max_size=5),
    markers=st.lists(st.sampled_from(["", "[]", "[*]", "[0]", "[12]"]), min_size=5, max_size=5),
)
def test_normalise_field_drops_every_kind_of_array_marker(
    parts: list[str], markers: list[str]
) -> None:
    marked = ".".join(part + marker for part, marker in zip(parts, markers, strict=False))
    assert normalise_field(marked) == ".".join(parts)
