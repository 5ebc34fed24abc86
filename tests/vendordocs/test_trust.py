"""Issue 13: a ``docs diff`` exit 0 that can be trusted, ``docs compare``, ``--propose``.

Every test edits the seed pages (web text 000/001/003, reStructuredText 002, pipe tables 004)
the way a vendor revision would, and checks against the curated spec and ledger (read only) or
a temporary copy of them.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_spec import LEDGER_PATH, SPEC_PATH
from modelarts_kit_vendordocs import compare, extract_text, load_decisions
from modelarts_kit_vendordocs.drift import DriftFinding, DriftReport, group_findings
from modelarts_kit_vendordocs.enums import extract_enum
from modelarts_kit_vendordocs.render import render_text
from modelarts_kit_vendordocs.types import parse_type

from tests.yaml_files import dump_yaml, load_yaml

from .support import SEED_000, SEED_001, SEED_002, SEED_003, SEED_004, edit, seed_path, seed_text

Edit = Callable[[str], str]


def edit_first(text: str, old: str, new: str) -> str:
    """Replace the first occurrence (the job's table comes before the tasks' copy)."""
    assert old in text, old
    return text.replace(old, new, 1)


def rst_edit(text: str, old: str, new: str) -> str:
    """Replace ``old`` in one grid-table line, keeping the cell's width (the grid stays valid)."""
    index = text.index(old)
    line_end = text.index("\n", index)
    line_start = text.rindex("\n", 0, index) + 1
    line = text[line_start:line_end]
    at = index - line_start
    bar = line.index("|", at + len(old))
    cell = line[at:bar].replace(old, new, 1).rstrip()
    width = bar - at
    assert len(cell) < width, "the new text does not fit in the cell"
    return text[:line_start] + line[:at] + cell.ljust(width) + line[bar:] + text[line_end:]


def diff_against_curated(*pages: tuple[str, str]) -> DriftReport:
    inventories = [extract_text(name, text) for name, text in pages]
    return compare(inventories, None, load_decisions(None, None))


def open_findings(report: DriftReport) -> list[DriftFinding]:
    return [f for op in report.operations for f in op.findings]


def settled(report: DriftReport) -> dict[str, str]:
    return {f.field: entry for op in report.operations for f, entry in op.reconciled}


# --- 1. an entry settles only the values it recorded ------------------------------------------

START_TIME_TO_BOOLEAN: dict[str, Edit] = {
    SEED_000: lambda t: edit(t, "start_time\n\nLong\n", "start_time\n\nBoolean\n"),
    SEED_002: lambda t: rst_edit(
        t, "| start_time         | String ", "| start_time         | Boolean"
    ),
    SEED_004: lambda t: edit(t, "start_time |\nLong |", "start_time |\nBoolean |"),
}


@pytest.mark.parametrize("seed", sorted(START_TIME_TO_BOOLEAN))
def test_a_type_the_entry_did_not_record_reopens_it(seed: str) -> None:
    text = START_TIME_TO_BOOLEAN[seed](seed_text(seed))
    report = diff_against_curated((seed, text))
    (finding,) = [f for f in open_findings(report) if f.field == "status.start_time"]
    assert finding.kind == "type"
    assert finding.docs == "Boolean"
    assert finding.reopened == "status-start-time-type"
    assert {"String", "Long"} <= set(finding.recorded)
    assert "status.start_time" not in settled(report)


NEW_ENUM_VALUE: dict[str, tuple[Edit, str, str]] = {
    # web text: a new status.phase bullet on the terminate page (the entry is about wording)
    SEED_000: (
        lambda t: edit(t, "  • Abnormal", "  • Abnormal\n\n  • Stopped"),
        "status.phase",
        "stop-allowed-phases-wording",
    ),
    # reStructuredText: a new kind bullet (value-led, bold, in a grid cell)
    SEED_002: (
        lambda t: rst_edit(
            t, "-  **job**: Training job", "-  **job**: Training job -  **tpu_job**: TPU"
        ),
        "kind",
        "kind-options",
    ),
    # pipe: "Options: CPU, GPU, Ascend, or TPU" where the page listed none
    SEED_004: (
        lambda t: edit(
            t,
            "Maximum number of nodes in a resource flavor. |\nflavor_type |\nString |\n"
            "Resource flavor type. Options:\n|",
            "Maximum number of nodes in a resource flavor. |\nflavor_type |\nString |\n"
            "Resource flavor type. Options: CPU, GPU, Ascend, or TPU |",
        ),
        "tasks[].task_resource.flavor_type",
        "flavor-type-options-flavor-response",
    ),
}


@pytest.mark.parametrize("seed", sorted(NEW_ENUM_VALUE))
def test_a_new_value_for_an_enum_the_entry_settled_reopens_it(seed: str) -> None:
    change, field, entry = NEW_ENUM_VALUE[seed]
    report = diff_against_curated((seed, change(seed_text(seed))))
    findings = [f for f in open_findings(report) if f.field == field and f.kind == "enum"]
    assert findings, f"{field}: the new value was absorbed by the ledger"
    assert all(f.reopened == entry for f in findings)
    assert any(v in ("Stopped", "tpu_job", "TPU") for f in findings for v in f.enum)


def test_the_seeds_still_settle_every_finding_with_recorded_values() -> None:
    pages = [(s, seed_text(s)) for s in (SEED_000, SEED_001, SEED_002, SEED_003, SEED_004)]
    report = diff_against_curated(*pages)
    assert open_findings(report) == []
    assert sum(len(op.reconciled) for op in report.operations) > 150


# --- 2. the newest version of a page decides ---------------------------------------------------

DROP_DURATION: dict[str, Edit] = {
    SEED_000: lambda t: edit(
        t, "duration\n\nLong\n\nRunning duration of a training job, in milliseconds\n\n", ""
    ),
    SEED_002: lambda t: re.sub(r"   \| duration .*\n   \+-+\+-+\+-+\+\n", "", t, count=1),
    SEED_004: lambda t: edit(
        t, "duration |\nLong |\nRunning duration of a training job, in milliseconds |\n", ""
    ),
}
OTHERS = {SEED_000: (SEED_001, SEED_002), SEED_002: (SEED_000, SEED_001), SEED_004: ()}


@pytest.mark.parametrize("seed", sorted(DROP_DURATION))
def test_replaces_reports_a_row_the_new_page_dropped_though_an_older_page_lists_it(
    seed: str, tmp_path: Path
) -> None:
    new = tmp_path / f"new-{seed}"
    new.write_text(DROP_DURATION[seed](seed_text(seed)), encoding="utf-8")
    assert "duration" not in {
        f.path.rpartition(".")[2] for f in extract_text(str(new), new.read_text()).fields
    }
    others = [str(seed_path(s)) for s in OTHERS[seed]]
    if seed == SEED_004:  # the create page's older revision, kept beside it
        older = tmp_path / "004-older.txt"
        shutil.copy(seed_path(seed), older)
        others = [str(older)]
    runner = CliRunner()
    # Without --replaces an older page masks the drop (and the old page itself is in the glob).
    # (The new page, not given as a revision, has no evidence of its own in the ledger: what
    # it says is reported as new statements, but nothing about duration.)
    masked = runner.invoke(cli, ["docs", "diff", str(new), *others, str(seed_path(seed))])
    assert "`duration`" not in masked.output, masked.output
    result = runner.invoke(
        cli,
        [
            "docs",
            "diff",
            str(new),
            "--replaces",
            str(seed_path(seed)),
            *others,
            str(seed_path(seed)),
        ],
    )
    assert result.exit_code == 1, result.output
    assert "remove or mark deprecated `duration` in `/components/schemas/Status`" in result.output
    assert f"dropped by the new page ({seed}:" in result.output


def test_replaces_refuses_a_page_of_another_operation() -> None:
    result = CliRunner().invoke(
        cli, ["docs", "diff", str(seed_path(SEED_000)), "--replaces", str(seed_path(SEED_003))]
    )
    assert result.exit_code == 2
    assert "a page replaces a page of the same operation" in result.output


# --- 3. request and response are compared independently ---------------------------------------


def test_a_response_change_under_a_request_subtree_the_spec_lacks_is_reported(
    tmp_path: Path,
) -> None:
    document = load_yaml(SPEC_PATH.read_text(encoding="utf-8"))
    # A spec whose create request has no `algorithm` (the response keeps its own).
    request = document["paths"]["/v2/{project_id}/training-jobs"]["post"]["requestBody"]
    schema_ref = request["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    del document["components"]["schemas"][schema_ref]["properties"]["algorithm"]
    spec = tmp_path / "openapi.yaml"
    spec.write_text(dump_yaml(document, sort_keys=False), encoding="utf-8")
    text = seed_text(SEED_004)
    # The response's algorithm.local_code_dir changes type; the request's does not.
    response_at = text.index("Response Parameters")
    head, tail = text[:response_at], text[response_at:]
    tail = edit_first(tail, "local_code_dir |\nString |", "local_code_dir |\nInteger |")
    report = compare([extract_text(SEED_004, head + tail)], spec, [])
    findings = open_findings(report)
    assert any(
        f.kind == "presence" and f.side == "request" and f.field == "algorithm" for f in findings
    )
    (changed,) = [f for f in findings if f.field == "algorithm.local_code_dir"]
    assert (changed.kind, changed.side, changed.status) == ("type", "response", 201)


# --- 4. every way the seeds write values -------------------------------------------------------

STRING = parse_type("String")


@pytest.mark.parametrize(
    ("description", "values"),
    [
        # bullets with and without blank lines between them
        ("Search direction.\n- max: larger is better.\n- min: smaller is better.", ["max", "min"]),
        ("Search direction.\n\n- max: larger.\n\n- min: smaller.", ["max", "min"]),
        ("Role. Options:\n- learner: GPUs or CPUs. - worker: CPUs.", ["learner", "worker"]),
        # value-led paragraphs (bold in the page)
        (
            "Job type. Options:\njob: Training job\nvisualization_job: Visualization job",
            ["job", "visualization_job"],
        ),
        ("job: Training job\nhetero_job: Heterogeneous job", ["job", "hetero_job"]),
        # inline lists
        ("Resource flavor type. Options: CPU, GPU, Ascend", ["CPU", "GPU", "Ascend"]),
        ("Flavor type. Value range: CPU or GPU.", ["CPU", "GPU"]),
        ("Mode. The value can be regular, indicating the standard mode.", ["regular"]),
        ("Policy. The value can be regular, economic, or turbo.", ["regular", "economic", "turbo"]),
        # Chinese glosses
        (
            "任务角色。枚举值:\n• learner(支持GPU\\CPU规格);\n• worker(支持CPU规格)。",
            ["learner", "worker"],
        ),
        (
            "作业类型。可选值\uff1ajob\uff08训练作业\uff09、hetero_job\uff08异构作业\uff09",
            ["job", "hetero_job"],
        ),
        # not values
        ("The directory must be under /home.\n- The directory must exist.", []),
        ("Note: the value is ignored.\nExample: 3", []),
        ("The value can be an integer from 1 to 10.", []),
    ],
)
def test_enum_writing_styles(description: str, values: list[str]) -> None:
    assert extract_enum(description, STRING) == values


def test_rst_bullets_without_blank_lines_are_separate_values() -> None:
    text = seed_text(SEED_002)
    joined = re.sub(
        r"(\| -  \*\*max\*\*: A larger metric value indicates better performance\.  \|\n)"
        r"   \|[ ]+\|[ ]+\|[ ]+\|\n",
        r"\1",
        text,
        count=1,
    )
    assert joined != text
    page = extract_text(SEED_002, joined)
    (mode,) = [
        e for e in page.fields if e.path.endswith("metrics[].mode") or e.path.endswith(".mode")
    ][:1]
    assert mode.field.enum == ["max", "min"]


def test_a_new_documented_value_of_an_open_response_enum_is_a_finding() -> None:
    text = edit(
        seed_text(SEED_003),
        "  • hyperinstance",
        "  • hyperinstance\n\n  • rack",
    )
    report = diff_against_curated((SEED_003, text))
    (finding,) = [f for f in open_findings(report) if f.field.endswith("affinity_type")]
    assert "rack" in finding.enum
    assert finding.reopened == "affinity-type-open"


# --- 5. docs compare ----------------------------------------------------------------------------

COMPARE_EDITS: dict[str, tuple[Edit, set[tuple[str, str]]]] = {
    SEED_000: (
        lambda t: edit(
            edit(
                edit(t, "start_time\n\nLong\n", "start_time\n\nBoolean\n"),
                "  • Abnormal",
                "  • Abnormal\n\n  • Stopped",
            ),
            "duration\n\nLong\n\nRunning duration of a training job, in milliseconds\n\n",
            "",
        ),
        {
            ("type-changed", "response 202 status.start_time"),
            ("enum-value-added", "response 202 status.phase"),
            ("description-changed", "response 202 status.phase"),
            ("row-removed", "response 202 status.duration"),
        },
    ),
    SEED_002: (
        lambda t: rst_edit(t, "| start_time         | String ", "| start_time         | Boolean"),
        {("type-changed", "response 202 status.start_time")},
    ),
    SEED_004: (
        lambda t: edit(
            edit(t, "start_time |\nLong |", "start_time |\nBoolean |"),
            "Maximum number of nodes in a resource flavor. |\nflavor_type |\nString |\n"
            "Resource flavor type. Options:\n|",
            "Maximum number of nodes in a resource flavor. |\nflavor_type |\nString |\n"
            "Resource flavor type. Options: CPU, GPU, Ascend, or TPU |",
        ),
        {
            ("type-changed", "response 201 status.start_time"),
            ("description-changed", "response 201 tasks.task_resource.flavor_type"),
            ("enum-value-added", "response 201 tasks.task_resource.flavor_type"),
        },
    ),
}


@pytest.mark.parametrize("seed", sorted(COMPARE_EDITS))
def test_docs_compare_lists_exactly_the_edits(seed: str, tmp_path: Path) -> None:
    change, expected = COMPARE_EDITS[seed]
    new = tmp_path / seed
    new.write_text(change(seed_text(seed)), encoding="utf-8")
    runner = CliRunner()
    same = runner.invoke(cli, ["docs", "compare", str(seed_path(seed)), str(seed_path(seed))])
    assert same.exit_code == 0, same.output
    assert "the pages are the same" in same.output
    result = runner.invoke(
        cli, ["docs", "compare", str(seed_path(seed)), str(new), "--format", "json"]
    )
    assert result.exit_code == 1, result.output
    changes = {(c["kind"], c["where"]) for c in json.loads(result.output)["changes"]}
    assert changes == expected


def test_docs_compare_sees_status_codes_tables_and_examples(tmp_path: Path) -> None:
    text = seed_text(SEED_003)
    text = edit(text, '"duration" : 0,', '"duration" : 5,')
    text = edit(text, "Table 4 Status", "Table 4 JobStatus")
    text = edit(text, "status\n\nStatus object\n", "status\n\nJobStatus object\n")
    new = tmp_path / "003.txt"
    new.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["docs", "compare", str(seed_path(SEED_003)), str(new), "--format", "json"]
    )
    assert result.exit_code == 1, result.output
    changes = {(c["kind"], c["where"]) for c in json.loads(result.output)["changes"]}
    assert ("table-renamed", "response 200 status") in changes
    assert ("type-changed", "response 200 status") in changes
    assert any(kind == "example-changed" for kind, _ in changes)


def test_docs_compare_exits_2_on_a_page_it_cannot_read(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    result = CliRunner().invoke(cli, ["docs", "compare", str(seed_path(SEED_000)), str(empty)])
    assert result.exit_code == 2
    assert "empty page" in result.output


# --- 6. --propose, --apply, and the TODO stubs --------------------------------------------------


def spec_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "spec"
    folder.mkdir()
    shutil.copy(SPEC_PATH, folder / "openapi.yaml")
    shutil.copy(LEDGER_PATH, folder / "ledger.yaml")
    return folder / "openapi.yaml"


ADDITIVE: dict[str, Edit] = {
    # web text: a new response field with nested fields
    SEED_003: lambda t: edit_first(
        t,
        "local_code_dir\n\nString\n",
        "retry_count\n\nInteger\n\nNumber of retries of the algorithm.\n\n"
        "local_code_dir\n\nString\n",
    ),
    # pipe: a new mandatory request field
    SEED_004: lambda t: edit_first(
        t,
        "local_code_dir |\nNo |\nString |",
        "retry_limit |\nYes |\nInteger |\nMost retries of the algorithm. |\n"
        "local_code_dir |\nNo |\nString |",
    ),
    # reStructuredText: a new value of a closed enum (search mode)
    SEED_002: lambda t: rst_edit(
        t,
        "-  **min**: A smaller metric value indicates better performance.",
        "-  **min**: smaller is better. -  **avg**: the average.",
    ),
}


@pytest.mark.parametrize("seed", sorted(ADDITIVE))
def test_propose_then_apply_settles_an_additive_edit(seed: str, tmp_path: Path) -> None:
    spec = spec_copy(tmp_path)
    before = spec.read_text(encoding="utf-8")
    new = tmp_path / seed
    new.write_text(ADDITIVE[seed](seed_text(seed)), encoding="utf-8")
    runner = CliRunner()
    args = ["docs", "diff", str(new), "--spec", str(spec)]
    assert runner.invoke(cli, args).exit_code == 1
    patch = tmp_path / "change.patch"
    proposed = runner.invoke(cli, [*args, "--propose", str(patch)])
    assert proposed.exit_code == 1
    assert spec.read_text(encoding="utf-8") == before  # nothing changes without --apply
    diff_text = patch.read_text(encoding="utf-8")
    assert diff_text.startswith("--- a/")
    assert "ledger.yaml" not in diff_text
    added = [
        line
        for line in diff_text.splitlines()
        if line.startswith("+") and not line.startswith("+++")
    ]
    assert added
    assert all(not line.startswith("-") for line in added)
    applied = runner.invoke(cli, [*args, "--propose", str(patch), "--apply"])
    assert applied.exit_code == 1, applied.output
    assert runner.invoke(cli, args).exit_code == 0
    validate = runner.invoke(cli, ["spec", "validate", "--spec", str(spec)])
    if seed == SEED_004:
        # A new mandatory request field is added as required; the spec's request examples
        # now lack it, which spec validate says (the maintainer completes the examples).
        assert "required: [" in diff_text or "- retry_limit" in diff_text
        problems = [line for line in validate.output.splitlines() if "[example-valid]" in line]
        assert problems
        assert all("retry_limit" in p for p in problems)  # names the field, in any words
    else:
        assert validate.exit_code == 0, validate.output
    # Minimal: lines are added, or a flow list grows in place; comments and formatting
    # elsewhere are untouched.
    after = spec.read_text(encoding="utf-8").splitlines()
    changed = [line for line in before.splitlines() if line not in after]
    assert all(re.match(r"\s*(enum|required): \[", line) for line in changed), changed


def test_propose_writes_a_todo_stub_for_a_type_change_and_validate_refuses_it(
    tmp_path: Path,
) -> None:
    spec = spec_copy(tmp_path)
    text = ADDITIVE[SEED_003](START_TIME_TO_BOOLEAN[SEED_000](seed_text(SEED_003)))
    new = tmp_path / SEED_003
    new.write_text(text, encoding="utf-8")
    runner = CliRunner()
    patch = tmp_path / "change.patch"
    args = ["docs", "diff", str(new), "--spec", str(spec)]
    result = runner.invoke(cli, [*args, "--propose", str(patch), "--apply"])
    assert result.exit_code == 1
    ledger = (spec.parent / "ledger.yaml").read_text(encoding="utf-8")
    assert "  - id: todo-type-status-start-time\n" in ledger
    assert "    decision: TODO\n" in ledger
    assert "says: Boolean" in ledger
    # The additive half is applied; the type change stays open until a human decides.
    report = runner.invoke(cli, [*args, "--format", "json"])
    assert report.exit_code == 1
    open_ = json.loads(report.output)["operations"][0]["findings"]
    assert [(f["kind"], f["field"]) for f in open_] == [("type", "status.start_time")]
    validate = runner.invoke(cli, ["spec", "validate", "--spec", str(spec)])
    assert validate.exit_code == 1
    assert "[ledger-todo]" in validate.output
    # Deciding the stub (the spec keeps integer; the page is wrong) settles exactly that value.
    decided = ledger.replace("    decision: TODO\n", "    decision: keep integer\n").replace(
        "    expect: {}\n", "    expect: {type: integer}\n"
    )
    (spec.parent / "ledger.yaml").write_text(decided, encoding="utf-8")
    assert runner.invoke(cli, args).exit_code == 0
    assert runner.invoke(cli, ["spec", "validate", "--spec", str(spec)]).exit_code == 0


def test_apply_needs_propose() -> None:
    result = CliRunner().invoke(cli, ["docs", "diff", str(seed_path(SEED_003)), "--apply"])
    assert result.exit_code == 2
    assert "--apply needs --propose" in result.output


# --- 7. output a maintainer can act on ------------------------------------------------------


def test_one_decision_per_shared_schema_listing_every_path() -> None:
    # Table 46 Cpu is printed once and reached from the job's flavor and every task's flavor.
    text = edit(seed_text(SEED_000), "core_num\n\nInteger\n", "core_num\n\nString\n")
    report = diff_against_curated((SEED_000, text))
    findings = open_findings(report)
    assert {f.field for f in findings} == {
        "spec.resource.flavor_detail.flavor_info.cpu.core_num",
        "tasks[].task_resource.flavor_info.cpu.core_num",
    }
    (group,) = group_findings(findings)
    assert group.schema == "/components/schemas/Cpu"
    assert group.action == (
        "change type of `core_num` in `/components/schemas/Cpu` from integer/int32 to string "
        "or record a ledger decision"
    )
    assert len(group.paths) == 2
    output = render_text(report)
    assert output.count("change type of `core_num`") == 1
    assert "reconciled by the ledger: " in output
    assert "--show-reconciled" in output
    entry = report.operations[0].reconciled[0][1]
    assert f"[{entry}]" not in output
    assert f"[{entry}]" in render_text(report, show_reconciled=True)


def test_a_missing_object_names_its_fields_in_the_action(small_spec: Path) -> None:
    report = compare([extract_text(SEED_003, seed_text(SEED_003))], small_spec, [])
    actions = {g.action for g in group_findings(open_findings(report))}
    assert any(
        a.startswith("add property `algorithm` (object, ")
        and "fields: id, name, subscription_id" in a
        and a.endswith("to `/components/schemas/Job`")
        for a in actions
    ), actions


# --- 8. the README walkthrough, end to end ----------------------------------------------------

README = Path(__file__).resolve().parents[2] / "README.md"


def walkthrough_commands() -> list[list[str]]:
    """The modelarts-kit commands of README's "When the vendor updates a page" section."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## When the vendor updates a page") :]
    block = section[section.index("```sh\n") + 6 : section.index("```\n", section.index("```sh"))]
    joined = re.sub(r"\\\n\s*", "", block)
    commands = []
    for line in joined.splitlines():
        line = line.split("#", 1)[0].strip()
        for part in line.split("&&"):
            words = part.split()
            if words and words[0] == "modelarts-kit":
                commands.append(words[1:])
    return commands


def test_the_readme_walkthrough_runs_end_to_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The SDK steps fetch a vendor release from the package index: tests/sdk covers them.
    commands = [c for c in walkthrough_commands() if c[0] != "sdk"]
    groups = [c[0] if c[0] != "docs" else f"docs {c[1]}" for c in commands]
    assert groups[:5] == ["docs compare", "docs diff", "docs diff", "docs diff", "spec"]
    assert {"generate", "publish"} <= set(groups)
    # A repository-shaped sandbox: a copy of the spec, the seeds beside it, the new page.
    spec = spec_copy(tmp_path)
    seeds = tmp_path / "sources" / "seeds"
    shutil.copytree(seed_path(SEED_003).parent, seeds)
    work = tmp_path / "work"
    work.mkdir()
    new_page = ADDITIVE[SEED_003](seed_text(SEED_003))
    (work / "new-003.txt").write_text(new_page, encoding="utf-8")
    monkeypatch.chdir(work)
    runner = CliRunner()
    expected = {"docs compare": 1, "docs diff": 1, "spec": 0, "generate": 0, "publish": 0}
    results: list[tuple[str, int]] = []
    for words, group in zip(commands, groups, strict=True):
        if words[0] == "contract" or words[:2] == ["spec", "diff"]:
            continue  # contract runs against a server; spec diff needs the git history
        args = [w.replace("spec/sources/seeds", str(seeds)) for w in words]
        args = [
            str(p)
            for w in args
            for p in (sorted(Path("/").glob(w[1:])) if "*" in w or "[" in w else [w])
        ]
        if group.startswith("docs diff") or args[:2] == ["spec", "validate"]:
            args += ["--spec", str(spec)]
        if group == "generate":
            args += ["--spec", str(spec), "--out", str(tmp_path / "generated")]
        if group == "publish":
            args += ["--spec", str(spec)]
        result = runner.invoke(cli, args)
        results.append((" ".join(words[:2]), result.exit_code))
        want = expected[group]
        if "--apply" in args:
            want = 1  # this run still reports the drift it settles
        assert result.exit_code == want, (args, result.output)
    # After --apply the additive change is settled: docs diff exits 0 and the spec is valid.
    final = runner.invoke(
        cli,
        ["docs", "diff", "new-003.txt", "--replaces", str(seeds / SEED_003), "--spec", str(spec)],
    )
    assert final.exit_code == 0, final.output
    assert "retry_count" in spec.read_text(encoding="utf-8")
    assert (work / "dist" / "spec").is_dir()
    assert (tmp_path / "generated").is_dir()
