"""One JSON serializer for the kit's typed records (#37 item 6): a class lists its keys once,
``JsonRecord.to_json`` writes them in that order, as JSON holds them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from modelarts_kit_contracts.core.findings import Finding, Observation
from modelarts_kit_sdk.compare import FieldChange
from modelarts_kit_vendordocs.pagediff import PageChange
from modelarts_kit_wire.records import JsonField, JsonRecord, json_value


@dataclass(frozen=True)
class _Inner(JsonRecord):
    name: str
    json_fields: ClassVar[tuple[JsonField, ...]] = (("n", "name"),)


@dataclass(frozen=True)
class _Outer(JsonRecord):
    zeta: int
    alpha: tuple[str, ...]
    kinds: frozenset[str]
    inner: tuple[_Inner, ...]
    hidden: str = "not listed"
    json_fields: ClassVar[tuple[JsonField, ...]] = ("zeta", "alpha", "kinds", "inner")


def test_keys_in_the_listed_order_values_as_json_holds_them() -> None:
    record = _Outer(3, ("b", "a"), frozenset({"y", "x"}), (_Inner("i"),))
    written = record.to_json()
    assert list(written) == ["zeta", "alpha", "kinds", "inner"]
    assert written == {"zeta": 3, "alpha": ["b", "a"], "kinds": ["x", "y"], "inner": [{"n": "i"}]}


def test_a_field_the_class_does_not_list_stays_out() -> None:
    assert "hidden" not in _Outer(1, (), frozenset(), ()).to_json()


def test_json_value_of_a_mapping_and_a_scalar() -> None:
    assert json_value({"k": (_Inner("v"),)}) == {"k": [{"n": "v"}]}
    assert json_value(None) is None


def test_the_finding_types_keep_their_report_keys() -> None:
    finding = Finding("t", expected="e", got="g", check="c", pointer="/p")
    assert list(finding.to_json()) == [
        "check",
        "operation",
        "title",
        "message",
        "pointer",
        "rule",
        "severity",
        "reproduce",
        "evidence",
    ]
    assert finding.to_json()["message"] == "expected e\ngot g"
    assert list(Observation("ignores").to_json()) == [
        "choice",
        "check",
        "operation",
        "pointer",
        "evidence",
    ]
    change = FieldChange("Op", "request", "a.b", "M.a: str", None, 2)
    assert change.to_json() == {
        "side": "request",
        "path": "a.b",
        "old": "M.a: str",
        "new": None,
        "nested": 2,
    }
    assert list(PageChange("k", "w", "o", "n").to_json()) == [
        "kind",
        "where",
        "old",
        "new",
        "old_line",
        "new_line",
    ]
