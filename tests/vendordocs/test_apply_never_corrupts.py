"""Issue 24, rows 1-6 and 16: ``docs diff --propose/--apply`` never corrupts the spec or ledger.

Each test edits a seed page the way a hostile (or careless) revision would and applies the
proposal to a copy of the curated spec and ledger. ``--apply`` is one transaction: every file
is written, or none, with one ``error:`` line and exit 2.
"""

from __future__ import annotations

import errno
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st
from modelarts_kit.main import cli
from modelarts_kit_spec import LEDGER_PATH, SPEC_PATH, load_spec
from modelarts_kit_spec.load import read_yaml, resolve_pointer
from modelarts_kit_vendordocs.drift import DriftFinding, DriftReport, OperationDrift
from modelarts_kit_vendordocs.propose import propose

from .support import (
    SEED_003,
    SEED_004,
    SMALL_SPEC,
    edit,
    repository_copy,
    seed_path,
    seed_text,
)

PHASE = "/components/schemas/Status/properties/phase"
HOSTILE_VALUES = ("null", "yes", "2025-01-01", "0x1F", "1_000")


def copy_spec(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(SPEC_PATH, folder / "openapi.yaml")
    shutil.copy(LEDGER_PATH, folder / "ledger.yaml")
    return folder / "openapi.yaml"


def page_with_phases(tmp_path: Path, values: tuple[str, ...]) -> Path:
    """The show page (003) listing more ``status.phase`` values."""
    bullets = "".join(f"\n  • {value}: a value\n" for value in values)
    text = edit(
        seed_text(SEED_003), "  • Abnormal: abnormal\n", "  • Abnormal: abnormal\n" + bullets
    )
    page = tmp_path / "new-003.txt"
    page.write_text(text, encoding="utf-8")
    return page


def page_with_request_fields(tmp_path: Path, names: tuple[str, ...]) -> Path:
    """The create page (004) with new mandatory fields of the algorithm."""
    rows = "".join(f"{name} |\nYes |\nString |\nA new field. |\n" for name in names)
    anchor = "local_code_dir |\nNo |\nString |"
    text = seed_text(SEED_004).replace(anchor, rows + anchor, 1)
    page = tmp_path / "new-004.txt"
    page.write_text(text, encoding="utf-8")
    return page


def page_with_addition_and_type_change(tmp_path: Path) -> Path:
    """The show page with one new field (additive) and a type change (a ledger stub)."""
    text = edit(seed_text(SEED_003), "start_time\n\nLong\n", "start_time\n\nBoolean\n")
    text = text.replace(
        "local_code_dir\n\nString\n",
        "retry_count\n\nInteger\n\nNumber of retries.\n\nlocal_code_dir\n\nString\n",
        1,
    )
    page = tmp_path / "new-003.txt"
    page.write_text(text, encoding="utf-8")
    return page


def apply(page: Path, spec: Path, patch: Path, *extra: str) -> Result:
    args = ["docs", "diff", str(page), "--spec", str(spec), "--propose", str(patch), *extra]
    return CliRunner().invoke(cli, args)


def one_error_line(result: Result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error: "), result.output
    assert "Traceback" not in result.output
    return lines[0]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# --- row 1: enum values that YAML would read as something else --------------------------------


def test_row1_hostile_enum_values_land_as_the_same_strings(tmp_path: Path) -> None:
    spec = copy_spec(tmp_path / "spec")
    page = page_with_phases(tmp_path, HOSTILE_VALUES)
    result = apply(page, spec, tmp_path / "change.patch", "--apply")
    assert result.exit_code == 1, result.output
    enum = resolve_pointer(read_yaml(spec), PHASE)["enum"]
    assert enum[-len(HOSTILE_VALUES) :] == list(HOSTILE_VALUES)
    assert all(isinstance(v, str) for v in enum)


# --- row 2: a field name that starts a YAML comment -------------------------------------------


def test_row2_a_required_name_with_a_hash_keeps_the_spec_valid_yaml(tmp_path: Path) -> None:
    spec = copy_spec(tmp_path / "spec")
    page = page_with_request_fields(tmp_path, ("#c",))
    result = apply(page, spec, tmp_path / "change.patch", "--apply")
    assert result.exit_code == 1, result.output
    algorithm = load_spec(spec).document["components"]["schemas"]["JobAlgorithm"]
    assert "#c" in algorithm["properties"]
    assert "#c" in algorithm["required"]


# --- row 3: --propose never overwrites the spec, the ledger or a recorded page -----------------


@pytest.mark.parametrize("target", ["openapi.yaml", "ledger.yaml", "page", "recorded page"])
@pytest.mark.parametrize("with_apply", [False, True])
def test_row3_propose_refuses_the_files_it_describes(
    tmp_path: Path, target: str, with_apply: bool
) -> None:
    spec = repository_copy(tmp_path / "repo")
    page = page_with_addition_and_type_change(tmp_path)
    recorded = tmp_path / "repo" / "spec" / "sources" / "seeds" / SEED_003
    patch = {
        "openapi.yaml": spec,
        "ledger.yaml": spec.parent / "ledger.yaml",
        "page": page,
        "recorded page": recorded,
    }[target]
    before = snapshot(spec.parent)
    page_before, recorded_before = page.read_bytes(), recorded.read_bytes()
    line = one_error_line(apply(page, spec, patch, *(["--apply"] if with_apply else [])))
    assert f"--propose {patch}" in line
    assert snapshot(spec.parent) == before
    assert page.read_bytes() == page_before
    assert recorded.read_bytes() == recorded_before


def test_row3_a_symlink_to_the_spec_is_refused_too(tmp_path: Path) -> None:
    spec = copy_spec(tmp_path / "spec")
    link = tmp_path / "change.patch"
    link.symlink_to(spec)
    before = spec.read_bytes()
    one_error_line(apply(page_with_phases(tmp_path, ("Paused",)), spec, link))
    assert spec.read_bytes() == before


# --- row 4: a file that cannot be written changes nothing --------------------------------------


def test_row4_a_read_only_ledger_leaves_the_spec_unchanged(tmp_path: Path) -> None:
    spec = copy_spec(tmp_path / "spec")
    ledger = spec.parent / "ledger.yaml"
    ledger.chmod(0o444)
    before = snapshot(spec.parent)
    patch = tmp_path / "change.patch"
    try:
        line = one_error_line(
            apply(page_with_addition_and_type_change(tmp_path), spec, patch, "--apply")
        )
    finally:
        ledger.chmod(0o644)
    assert "ledger.yaml" in line
    assert "read-only" in line
    assert snapshot(spec.parent) == before
    assert not patch.exists()


def test_row4_a_swap_that_fails_half_way_puts_back_what_it_swapped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = copy_spec(tmp_path / "spec")
    before = snapshot(spec.parent)
    replace = os.replace

    def failing_replace(source: str | Path, target: str | Path) -> None:
        # The new ledger fails to go in; putting back a previous version still works.
        if Path(target).name == "ledger.yaml" and ".previous." not in Path(source).name:
            raise OSError(errno.EIO, "Input/output error")
        replace(source, target)

    monkeypatch.setattr(os, "replace", failing_replace)
    patch = tmp_path / "change.patch"
    line = one_error_line(
        apply(page_with_addition_and_type_change(tmp_path), spec, patch, "--apply")
    )
    assert "Input/output error" in line
    assert "nothing was changed" in line
    assert snapshot(spec.parent) == before
    assert not patch.exists()


# --- row 5: a full disk leaves nothing half-written behind ------------------------------------


def _limit_file_size(limit: int) -> None:
    # A write past the limit fails with EFBIG, as on a full disk (instead of SIGXFSZ).
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_row5_a_full_disk_leaves_no_partial_file_and_no_traceback(tmp_path: Path) -> None:
    spec = copy_spec(tmp_path / "spec")
    before = snapshot(spec.parent)
    page = page_with_addition_and_type_change(tmp_path)
    patch = tmp_path / "change.patch"
    # Room for the patch (a few KB), not for the spec or the ledger (~200 KB each): the first
    # of them written fails half-way, as on a full disk.
    limit = min(SPEC_PATH.stat().st_size, LEDGER_PATH.stat().st_size) // 2
    assert limit > 16384
    command = [sys.executable, "-m", "modelarts_kit", "docs", "diff", str(page)]
    command += ["--spec", str(spec), "--propose", str(patch), "--apply"]
    result = subprocess.run(
        command,
        capture_output=True,
        text=True,
        preexec_fn=lambda: _limit_file_size(limit),
        check=False,
        timeout=120,
    )
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: "), result.stderr
    assert "ledger.yaml" in lines[0] or "openapi.yaml" in lines[0]
    assert snapshot(spec.parent) == before  # nothing changed, nothing left beside
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["spec", page.name])


# --- row 6: the summary counts what the patch does --------------------------------------------


def test_row6_the_summary_counts_the_blocks_the_patch_inserts(tmp_path: Path) -> None:
    spec = copy_spec(tmp_path / "spec")
    names = ("a #b", "c #d", "e")
    patch = tmp_path / "change.patch"
    # A new revision of 004: only what it changes is drift (the ledger's evidence of 004 holds).
    replaces = ("--replaces", str(seed_path(SEED_004)))
    result = apply(page_with_request_fields(tmp_path, names), spec, patch, *replaces)
    assert result.exit_code == 1, result.output
    summary = next(line for line in result.output.splitlines() if "additive change(s)" in line)
    added = int(summary.split(" additive change(s)")[0])
    stubs = int(summary.split("; ")[1].split(" ledger stub(s)")[0])
    inserted = [
        line
        for line in patch.read_text(encoding="utf-8").splitlines()
        if line.startswith("+") and line.strip("+ ").rstrip(":").strip("'") in names
    ]
    assert added == len(inserted)
    assert added + stubs == len(names)


# --- row 16: a spec or ledger given as a symbolic link is edited where it points ---------------


def test_row16_symlinked_spec_and_ledger_stay_links(tmp_path: Path) -> None:
    real = copy_spec(tmp_path / "real")
    links = tmp_path / "links"
    links.mkdir()
    (links / "openapi.yaml").symlink_to(real)
    (links / "ledger.yaml").symlink_to(real.parent / "ledger.yaml")
    before_spec = real.read_text(encoding="utf-8")
    before_ledger = (real.parent / "ledger.yaml").read_text(encoding="utf-8")
    page = page_with_addition_and_type_change(tmp_path)
    result = apply(page, links / "openapi.yaml", tmp_path / "change.patch", "--apply")
    assert result.exit_code == 1, result.output
    assert (links / "openapi.yaml").is_symlink()
    assert (links / "ledger.yaml").is_symlink()
    assert real.read_text(encoding="utf-8") != before_spec
    assert "retry_count" in real.read_text(encoding="utf-8")
    assert "decision: TODO" in (real.parent / "ledger.yaml").read_text(encoding="utf-8")
    assert (real.parent / "ledger.yaml").read_text(encoding="utf-8") != before_ledger
    assert sorted(p.name for p in links.iterdir()) == ["ledger.yaml", "openapi.yaml"]


# --- the round trip: whatever a page says lands in the spec as the same string -----------------

TROUBLEMAKERS = (
    "null",
    "Null",
    "NULL",
    "~",
    "yes",
    "no",
    "on",
    "off",
    "y",
    "n",
    "true",
    "False",
    "2025-01-01",
    "2001-12-14t21:59:43.10-05:00",
    "12:30:00",
    "0o17",
    "017",
    "0x1F",
    "1_000",
    "1e3",
    ".inf",
    "-.nan",
    "#",
    "#c",
    "a #b",
    ": ",
    "a: b",
    "a:",
    "*a",
    "&a",
    "!tag",
    "!!str",
    "'",
    '"',
    "''",
    "it's",
    '"q"',
    "a\nb",
    "a\r\nb",
    "\t",
    " lead",
    "trail ",
    "- a",
    "? a",
    "[a]",
    "{a: b}",
    "a, b",
    "%YAML",
    "@x",
    "`x",
    "|",
    ">",
    "ünï",
    "名称",
    "\u2028",
    "\x85",
    "",
)
_FORBIDDEN_IN_NAMES = ".[]"  # a page's field path is dotted, with [] after an array


def _values() -> st.SearchStrategy[str]:
    return (st.sampled_from(TROUBLEMAKERS) | st.text(min_size=1, max_size=8)).filter(
        lambda value: not any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    )


def _names() -> st.SearchStrategy[str]:
    # A page's field names come trimmed (the page parser strips cells).
    return _values().filter(
        lambda name: (
            bool(name) and name == name.strip() and not set(name) & set(_FORBIDDEN_IN_NAMES)
        )
    )


_CREATE_BODY = (
    "/paths/~1v2~1{project_id}~1training-jobs/post/requestBody/content/application~1json/schema"
)
_PHASES = [
    "Creating",
    "Pending",
    "Running",
    "Failed",
    "Completed",
    "Terminating",
    "Terminated",
    "Abnormal",
]


def _finding(**values: Any) -> DriftFinding:
    base: dict[str, Any] = {
        "operation": "CreateTrainingJob",
        "side": "request",
        "status": None,
        "docs": "",
        "spec": "",
        "page": "page.txt",
        "line": 1,
        "pointer": None,
    }
    return DriftFinding(**(base | values))


@given(
    values=st.lists(
        _values().filter(lambda v: v not in _PHASES), min_size=1, max_size=4, unique=True
    ),
    name=_names().filter(lambda n: n not in ("kind", "metadata")),
    children=st.lists(_names(), min_size=1, max_size=3, unique=True),
)
def test_hostile_values_and_names_round_trip_into_the_spec(
    values: list[str], name: str, children: list[str]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        spec_path = Path(folder) / "openapi.yaml"
        spec_path.write_text(SMALL_SPEC, encoding="utf-8")
        _round_trip(spec_path, values, name, children)


def _round_trip(spec_path: Path, values: list[str], name: str, children: list[str]) -> None:
    enum_finding = _finding(
        operation="ShowTrainingJobDetails",
        side="response",
        status=200,
        kind="enum",
        field="status.phase",
        direction="docs",
        pointer="/components/schemas/Status/properties/phase",
        schema="/components/schemas/Status",
        enum=(*_PHASES, *values),
    )
    field_finding = _finding(
        kind="presence",
        field=name,
        direction="docs",
        schema=_CREATE_BODY,
        written="Object",
        description="A new object.",
        required=True,
        subtree=tuple((child, "String", f"{child} (described)", True) for child in children),
    )
    report = DriftReport(
        "small",
        [
            OperationDrift(
                "CreateTrainingJob", "post", "/", ["page.txt"], [enum_finding, field_finding]
            )
        ],
        [],
        [],
    )
    proposal = propose(report, spec_path=spec_path)
    assert len(proposal.applied) == 2
    assert proposal.stubs == []
    spec_path.write_text(proposal.spec.text, encoding="utf-8")
    document = load_spec(spec_path).document
    phase = resolve_pointer(document, "/components/schemas/Status/properties/phase")
    assert phase["enum"] == [*_PHASES, *values]
    body = resolve_pointer(document, _CREATE_BODY)
    assert list(body["properties"])[-1] == name
    assert body["required"] == ["kind", "metadata", name]
    added = body["properties"][name]
    assert list(added["properties"]) == children
    assert added["required"] == children
    assert [added["properties"][c]["description"] for c in children] == [
        " ".join(f"{c} (described)".split()) for c in children
    ]
