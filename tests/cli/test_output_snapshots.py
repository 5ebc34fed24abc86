"""Snapshots of the outputs people read: ``spec validate``, ``spec diff`` (Markdown and JSON),
``docs diff`` on the vendor pages, the generator's refusals and ``publish``'s CHANGELOG.

Inputs are committed fixtures (``fixtures/v1`` -> ``fixtures/v2``: a version pair with breaking
and non-breaking changes and two validation findings in v2), so a snapshot changes only when an
output changes. ``docs diff`` runs on the curated spec and the vendor pages in ``spec/sources``: its
snapshot also changes when the spec or its ledger does (update it in the same commit).
"""

from __future__ import annotations

import copy
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from syrupy.assertion import SnapshotAssertion

from tests.cli_support import REPO, SHARED, Kit

FIXTURES = Path(__file__).parent / "fixtures"
V1 = FIXTURES / "v1" / "openapi.yaml"
V2 = FIXTURES / "v2" / "openapi.yaml"
PETSTORE = REPO / "tests" / "generator" / "fixtures" / "petstore.yaml"
SEEDS = SHARED / "seeds"


@pytest.mark.parametrize(
    ("spec", "output_format", "exit_code"),
    [(V1, "text", 0), (V2, "text", 1), (V2, "json", 1)],
    ids=["v1-text", "v2-text", "v2-json"],
)
def test_spec_validate(
    kit: Kit, snapshot: SnapshotAssertion, spec: Path, output_format: str, exit_code: int
) -> None:
    result = kit("spec", "validate", "--spec", spec, "--format", output_format)
    assert result.exit_code == exit_code, result.transcript()
    assert result.transcript() == snapshot


@pytest.mark.parametrize("output_format", ["markdown", "json"])
def test_spec_diff(kit: Kit, snapshot: SnapshotAssertion, output_format: str) -> None:
    result = kit("spec", "diff", V1, V2, "--format", output_format)
    assert result.exit_code == 1, result.transcript()
    assert result.transcript() == snapshot


def test_docs_diff_on_the_vendor_pages(kit: Kit, snapshot: SnapshotAssertion) -> None:
    pages = sorted(SEEDS.glob("00[0-9]_*.txt"))
    assert pages, f"the vendor pages are missing: {SEEDS} is part of the repository"
    result = kit("docs", "diff", *pages)
    assert result.exit_code == 0, result.transcript()
    assert result.transcript() == snapshot


def test_docs_compare_two_versions_of_a_page(kit: Kit, snapshot: SnapshotAssertion) -> None:
    """The terminate page: the older reStructuredText revision against the newest web text."""
    old, new = SEEDS / "002_63ab89c891148f33.txt", SEEDS / "000_8e5e63a75c0c5722.txt"
    assert old.is_file(), f"the vendor pages are missing: {SEEDS} must sit beside the clone"
    for output_format in ("text", "json"):
        result = kit("docs", "compare", old, new, "--format", output_format)
        assert result.exit_code == 1, result.transcript()
        assert result.transcript() == snapshot(name=output_format)


def test_publish_changelog(kit: Kit, snapshot: SnapshotAssertion) -> None:
    out = kit.tmp / "published"
    first = kit("publish", "--out", out, "--spec", V1)
    assert first.exit_code == 0, first.transcript()
    second = kit("publish", "--out", out, "--spec", V2)
    assert second.exit_code == 0, second.transcript()
    assert second.transcript() == snapshot(name="terminal")
    assert kit.read("published/CHANGELOG.md") == snapshot(name="CHANGELOG.md")


def _petstore() -> Any:
    return yaml.safe_load(PETSTORE.read_text(encoding="utf-8"))


def _missing_ref(doc: Any) -> None:
    body = doc["paths"]["/pet"]["post"]["requestBody"]["content"]["application/json"]
    body["schema"] = {"$ref": "#/components/schemas/Missing"}


def _duplicate_method(doc: Any) -> None:
    doc["paths"]["/pet"]["put"]["operationId"] = "add-pet"


def _no_operation_id(doc: Any) -> None:
    del doc["paths"]["/pet"]["post"]["operationId"]


def _no_success_response(doc: Any) -> None:
    doc["paths"]["/pet"]["post"]["responses"] = {"400": {"description": "Bad."}}


def _swagger_2(doc: Any) -> None:
    doc["openapi"] = "2.0"


BROKEN_SPECS = {
    "unresolvable-ref": _missing_ref,
    "duplicate-method-name": _duplicate_method,
    "no-operation-id": _no_operation_id,
    "no-success-response": _no_success_response,
    "swagger-2": _swagger_2,
}


@pytest.mark.parametrize("case", sorted(BROKEN_SPECS))
def test_generator_refuses_a_broken_spec(kit: Kit, snapshot: SnapshotAssertion, case: str) -> None:
    document = copy.deepcopy(_petstore())
    BROKEN_SPECS[case](document)
    spec = kit.tmp / f"{case}.yaml"
    spec.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    result = kit("generate", "--spec", spec, "--out", kit.tmp / "out", "--no-cache")
    assert result.exit_code == 2, result.transcript()
    assert not (kit.tmp / "out").exists()
    assert result.transcript() == snapshot


@pytest.mark.parametrize(
    ("case", "content"),
    [("invalid-yaml", "openapi: 3.1.0\npaths: {\n  bad"), ("not-a-mapping", "- a\n- b\n")],
    ids=["invalid-yaml", "not-a-mapping"],
)
def test_generator_refuses_an_unreadable_spec(
    kit: Kit, snapshot: SnapshotAssertion, case: str, content: str
) -> None:
    spec = kit.tmp / f"{case}.yaml"
    spec.write_text(content, encoding="utf-8")
    result = kit("generate", "--spec", spec, "--out", kit.tmp / "out")
    assert result.exit_code == 2, result.transcript()
    assert result.transcript() == snapshot


def test_generator_refuses_a_missing_spec_and_bad_names(
    kit: Kit, snapshot: SnapshotAssertion
) -> None:
    missing = kit("generate", "--spec", kit.tmp / "nope.yaml", "--out", kit.tmp / "out")
    assert missing.exit_code == 2
    assert missing.transcript() == snapshot(name="missing-spec")
    bad_name = kit("generate", "--package", "not-an-identifier", "--out", kit.tmp / "out")
    assert bad_name.exit_code == 2
    assert bad_name.transcript() == snapshot(name="bad-package-name")
    shutil.rmtree(kit.tmp / "out", ignore_errors=True)


def test_sdk_diff_and_compare(kit: Kit, snapshot: SnapshotAssertion) -> None:
    """On hand-made SDK releases (tests/sdk/support.py) against the SDK tests' small spec."""
    from tests.sdk.conftest import small_spec_document
    from tests.sdk.support import fake_wheel
    from tests.sdk.test_diff import BASE, variant

    spec = kit.tmp / "spec" / "openapi.yaml"
    spec.parent.mkdir()
    spec.write_text(yaml.safe_dump(small_spec_document(), sort_keys=False), encoding="utf-8")
    old = fake_wheel(kit.tmp / "old", BASE, version="1.0.0")
    new = fake_wheel(
        kit.tmp / "new",
        variant(
            Thing={
                "name": "str",
                "size": "str",
                "parts": "list[Part]",
                "named": "dict(str, Part)",
                "colour": "str",
            },
            Inner=None,
            PartResp={"label": "str", "weight": "float"},
        ),
        version="1.1.0",
    )
    for output_format in ("text", "json"):
        drift = kit("sdk", "diff", "--wheel", new, "--spec", spec, "--format", output_format)
        assert drift.exit_code == 1, drift.transcript()
        assert drift.transcript() == snapshot(name=f"diff-{output_format}")
    changes = kit("sdk", "compare", old, new, "--spec", spec)
    assert changes.exit_code == 1, changes.transcript()
    assert changes.transcript() == snapshot(name="compare-text")
