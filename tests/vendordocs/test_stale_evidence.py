"""Stale evidence ("page X lacks Y", where the page that replaced X documents Y) is reported by
``docs diff`` too, not only fixed by ``docs update`` (issue 33 item 8)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from modelarts_kit.main import cli

from .support import REPO, SEED_002, repository_copy

# The terminate RST page's real 2024-06 revision documents algorithm.local_code_dir, which the
# ledger records 002 (the page it replaces) without.
REVISION = REPO / "benchmarks" / "revisions" / "core" / "terminate_v2024-06_99da672.rst"
ENTRY = "algorithm-local-code-dir-presence"


def _diff(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["docs", "diff", *args])
    return result.exit_code, result.output


def test_docs_diff_of_a_revision_alone_reports_the_stale_entry() -> None:
    code, output = _diff(str(REVISION))
    assert code == 0, output  # evidence to refresh, not drift
    assert "stale evidence: " in output
    line = next(line for line in output.splitlines() if line.strip().startswith(f"{ENTRY}:"))
    assert f"records that {SEED_002} lacks algorithm.local_code_dir" in line
    assert REVISION.name in line


def test_docs_diff_json_lists_the_stale_entry_with_what_the_new_page_says() -> None:
    code, output = _diff(str(REVISION), "--format", "json")
    assert code == 0, output
    stale = {s["entry"]: s for s in json.loads(output)["stale_evidence"]}
    assert stale[ENTRY] == {
        "entry": ENTRY,
        "field": "algorithm.local_code_dir",
        "replaced": SEED_002,
        "page": REVISION.name,
        "table": "Table 7 JobAlgorithmResponse",
        "says": "algorithm.local_code_dir String",
    }


def test_docs_diff_with_replaces_reports_it_and_the_old_page_alone_does_not() -> None:
    old = REPO / "spec" / "sources" / "seeds" / SEED_002
    code, output = _diff(str(REVISION), "--replaces", str(old))
    assert code == 0, output
    assert f"  {ENTRY}: records that {SEED_002}" in output
    code, output = _diff(str(old))  # the recorded page: nothing replaces it in this run
    assert "stale evidence" not in output


def test_after_docs_update_docs_diff_reports_no_stale_evidence(tmp_path: Path) -> None:
    spec = repository_copy(tmp_path / "repo")
    result = CliRunner().invoke(cli, ["docs", "update", str(REVISION), "--spec", str(spec)])
    assert result.exit_code == 0, result.output
    recorded = spec.parents[1] / "sources" / "seeds" / REVISION.name
    code, output = _diff(str(recorded), "--spec", str(spec))
    assert code == 0, output
    assert "stale evidence" not in output
