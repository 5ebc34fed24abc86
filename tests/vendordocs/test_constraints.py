"""Prose numbers that carry a constraint (lengths, ranges, counts) are read and compared: a
revision changing "0 to 256 characters" to "0 to 512" is a finding of its own, never only a
reworded description, and ``docs update`` sets the new limit where the reading is unambiguous,
or opens a decision where it is not (issue 33)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_spec.load import read_yaml
from modelarts_kit_vendordocs.constraints import prose_constraints, sole_statement
from modelarts_kit_vendordocs.drift import diff_pages
from modelarts_kit_vendordocs.pagediff import compare_paths
from modelarts_kit_vendordocs.types import parse_type

from .support import REPO, repository_copy

FAMILY = REPO / "spec" / "sources" / "family"
DESCRIBE = FAMILY / "modifying_the_description_of_a_training_job_2024-11.rst"


@pytest.mark.parametrize(
    ("text", "written", "want"),
    [
        (
            "The value must contain 0 to 256 characters.",
            "String",
            {"minLength": 0, "maxLength": 256},
        ),
        (
            "Name, which consists of **1** to **64** characters.",
            "String",
            {"minLength": 1, "maxLength": 64},
        ),
        ("A maximum of 128 characters are allowed.", "String", {"maxLength": 128}),
        ("The value ranges from **1** to **50**.", "Integer", {"minimum": 1, "maximum": 50}),
        ("The minimum value is **0**. For example, 1.", "Integer", {"minimum": 0}),
        ("Value range: 1-100.", "Integer", {"maximum": 100, "minimum": 1}),
        ("Nodes, 1 to 10 items.", "Array of strings", {"minItems": 1, "maxItems": 10}),
        # a size with a unit, a number with no limit, a length on a number: no constraint
        ("The maximum size is 5 MB.", "Integer", {}),
        (
            "For example, if this parameter is set to 1, the query starts from the second one.",
            "Integer",
            {},
        ),
        ("The value must contain 0 to 256 characters.", "Integer", {}),
    ],
)
def test_prose_constraints_are_read(text: str, written: str, want: dict[str, int]) -> None:
    found = {c.keyword: c.value for c in prose_constraints(text, parse_type(written))}
    assert found == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Training job description, which consists of 0 to 512 characters.", 512),
        ("Name, which consists of **1** to **64** characters. Only digits, letters.", 64),
        ("At most 512 characters. The value contains 0 to 512 characters.", 512),
        # two limits, or another number in the stating sentence: a person decides
        ("The value contains 0 to 512 characters (256 in the console).", None),
        ("The value contains 0 to 512 characters. At most 256 characters.", None),
        ("The default value is 10.", None),
    ],
)
def test_only_a_sole_statement_is_unambiguous(text: str, want: int | None) -> None:
    stated = sole_statement(text, parse_type("String"), "maxLength")
    assert (stated.value if stated else None) == want


def _revision(tmp_path: Path, old: str, new: str) -> Path:
    page = tmp_path / "modifying_the_description_of_a_training_job_2026-01.rst"
    text = DESCRIBE.read_text(encoding="utf-8")
    assert old in text
    page.write_text(text.replace(old, new), encoding="utf-8")
    return page


def test_a_length_limit_changed_from_256_to_512_is_a_constraint_finding(tmp_path: Path) -> None:
    page = _revision(tmp_path, "0 to 256 characters", "0 to 512 characters")
    report = diff_pages([page])  # alone: the page it replaces is found in the index
    (finding,) = [f for op in report.operations for f in op.findings]
    assert (finding.kind, finding.field, finding.value) == (
        "constraint",
        "description",
        "maxLength=512",
    )
    assert "'0 to 512 characters'" in finding.docs
    assert finding.spec == "maxLength 256"
    changes = compare_paths(DESCRIBE, page).changes
    assert [(c.kind, c.old, c.new) for c in changes if c.kind == "constraint-changed"] == [
        (
            "constraint-changed",
            "maxLength 256 ('0 to 256 characters')",
            "maxLength 512 ('0 to 512 characters')",
        )
    ]


def test_the_same_limit_reworded_is_no_finding(tmp_path: Path) -> None:
    # (the same length: a grid table cell keeps its width)
    page = _revision(
        tmp_path, "which consists of 0 to 256 characters", "which may contain 0 to 256 characters"
    )
    assert [f for op in diff_pages([page]).operations for f in op.findings] == []


def _schema_model_quotes(spec: Path, pointer: str, keyword: str) -> list[str]:
    from modelarts_kit_spec import load_spec

    rule = load_spec(spec).schema_model.rule_at(pointer, keyword)
    assert rule is not None, (pointer, keyword)
    return [f"{q.page} | {q.quote}" for q in rule.quotes]


def test_docs_update_sets_an_unambiguous_limit_with_the_new_quote_as_evidence(
    tmp_path: Path,
) -> None:
    spec = repository_copy(tmp_path / "repo")
    page = _revision(tmp_path, "0 to 256 characters", "0 to 512 characters")
    before = read_yaml(spec)
    result = CliRunner().invoke(cli, ["docs", "update", str(page), "--spec", str(spec)])
    assert result.exit_code == 0, result.output
    assert "set `maxLength` of `description`" in result.output
    ledger = read_yaml(spec.parent / "ledger.yaml")["entries"]
    assert [e["id"] for e in ledger if e["decision"] == "TODO"] == []
    document = read_yaml(spec)
    (pointer,) = [
        f"/components/schemas/{name}/properties/description"
        for name, schema in document["components"]["schemas"].items()
        if schema.get("properties", {}).get("description", {}).get("maxLength") == 512
    ]
    node = before["components"]["schemas"][pointer.split("/")[3]]["properties"]["description"]
    assert node["maxLength"] == 256  # the same node, changed by the update
    quotes = _schema_model_quotes(spec, pointer, "maxLength")
    assert quotes
    assert all("512 characters" in q for q in quotes), quotes
    assert any(page.name in q for q in quotes), quotes
    # applied, nothing more to ask: a second run writes nothing
    again = CliRunner().invoke(cli, ["docs", "update", str(page), "--spec", str(spec)])
    assert again.exit_code == 0, again.output
    assert "nothing to write" in again.output


def test_docs_update_opens_one_decision_where_the_limit_reads_two_ways(tmp_path: Path) -> None:
    spec = repository_copy(tmp_path / "repo")
    # Two limits in one sentence (padded: a grid table cell keeps its width).
    written = "0 to 256 characters. The default value is **NULL**."
    page = _revision(tmp_path, written, "0 to 512 characters (256 shown).".ljust(len(written)))
    before = spec.read_text(encoding="utf-8")
    result = CliRunner().invoke(cli, ["docs", "update", str(page), "--spec", str(spec)])
    assert result.exit_code == 1, result.output
    stubs = [
        e for e in read_yaml(spec.parent / "ledger.yaml")["entries"] if e["decision"] == "TODO"
    ]
    (stub,) = stubs
    assert (stub["kind"], stub["field"]) == ("constraint", "description")
    assert [s["says"] for s in stub["sources"]] == ["maxLength 512 ('0 to 512 characters')"]
    assert "maxLength: 512" not in spec.read_text(encoding="utf-8")
    assert before.count("maxLength: 256") == spec.read_text(encoding="utf-8").count(
        "maxLength: 256"
    )
