"""``docs extract``: every seed format parses into the expected inventory; bad pages fail."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_vendordocs import Inventory, PageError, extract_page, extract_text
from modelarts_kit_vendordocs.inventory import FieldEntry

from .support import (
    ALL_SEEDS,
    SEED_000,
    SEED_001,
    SEED_002,
    SEED_003,
    SEED_004,
    edit,
    seed_path,
    seed_text,
)

Get = Callable[[str], Inventory]


def entries(inv: Inventory, path: str, side: str | None = None) -> list[FieldEntry]:
    return [e for e in inv.fields if e.path == path and (side is None or e.side == side)]


def one(inv: Inventory, path: str, side: str | None = None) -> FieldEntry:
    found = entries(inv, path, side)
    assert len(found) == 1, f"{path} ({side}): {len(found)} entries"
    return found[0]


@pytest.mark.parametrize(
    ("seed", "page_format", "method", "path", "tables", "codes"),
    [
        (
            SEED_000,
            "webtext",
            "POST",
            "/v2/{project_id}/training-jobs/{training_job_id}/actions",
            61,
            [202],
        ),
        (
            SEED_001,
            "webtext",
            "POST",
            "/v2/{project_id}/training-jobs/{training_job_id}/actions",
            53,
            [202],
        ),
        (
            SEED_002,
            "rst",
            "POST",
            "/v2/{project_id}/training-jobs/{training_job_id}/actions",
            54,
            [202],
        ),
        (SEED_003, "webtext", "GET", "/v2/{project_id}/training-jobs/{training_job_id}", 60, [200]),
        # 89 printed tables plus the request's volumes table restored in the 201 body.
        (SEED_004, "pipe", "POST", "/v2/{project_id}/training-jobs", 90, [201, 400]),
    ],
)
def test_each_seed_parses_into_its_operation_and_tables(
    inventory: Get,
    seed: str,
    page_format: str,
    method: str,
    path: str,
    tables: int,
    codes: list[int],
) -> None:
    inv = inventory(seed)
    assert (inv.format, inv.method, inv.path) == (page_format, method, path)
    assert len(inv.tables) == tables
    assert [s.code for s in inv.status_codes] == codes
    assert inv.fields, "an inventory is never empty"


@pytest.mark.parametrize(
    ("seed", "path", "side", "status", "written_type", "mandatory", "line", "table"),
    [
        (SEED_000, "status.start_time", "response", 202, "Long", None, 464, "Table 5 Status"),
        (SEED_000, "project_id", "path", None, "String", "Yes", 226, "Table 1 Path Parameters"),
        (
            SEED_000,
            "action_type",
            "request",
            None,
            "String",
            "Yes",
            254,
            "Table 2 Request body parameters",
        ),
        (SEED_001, "status.start_time", "response", 202, "String", None, 210, "表5 Status"),
        (
            SEED_001,
            "status.task_statuses[].exit_code",
            "response",
            202,
            "Integer",
            None,
            236,
            "表6 task_statuses",
        ),
        # 001's path table has a Mandatory column but no mandatory cells.
        (SEED_001, "project_id", "path", None, "String", None, 28, "表1 路径参数"),
        (
            SEED_002,
            "metadata.create_time",
            "response",
            202,
            "Long",
            None,
            91,
            "Table 4 JobMetadata",
        ),
        (
            SEED_002,
            "action_type",
            "request",
            None,
            "String",
            "No",
            36,
            "Table 2 Request body parameters",
        ),
        (
            SEED_003,
            "status.task_statuses[].exit_code",
            "response",
            200,
            "Integer",
            None,
            275,
            "Table 5 TaskStatuses",
        ),
        (
            SEED_003,
            "tasks[].algorithm.engine.v1_compatible",
            "response",
            200,
            "Boolean",
            None,
            1253,
            "Table 36 AlgorithmEngine",
        ),
        (
            SEED_004,
            "metadata.name",
            "request",
            None,
            "String",
            "Yes",
            53,
            "untitled table at line 44",
        ),
        (
            SEED_004,
            "status.start_time",
            "response",
            201,
            "Long",
            None,
            880,
            "untitled table at line 861",
        ),
        (
            SEED_004,
            "error_code",
            "response",
            400,
            "String",
            None,
            1583,
            "untitled table at line 1576",
        ),
    ],
)
def test_spot_checked_fields_carry_type_mandatory_and_line(
    inventory: Get,
    seed: str,
    path: str,
    side: str,
    status: int | None,
    written_type: str,
    mandatory: str | None,
    line: int,
    table: str,
) -> None:
    entry = one(inventory(seed), path, side)
    assert entry.status == status
    assert entry.field.type == written_type
    assert entry.field.mandatory == mandatory
    assert entry.field.line == line
    assert entry.table.label == table
    assert entry.field.name in seed_text(seed).splitlines()[line - 1]


def test_a_table_printed_once_is_attached_to_every_reference(inventory: Get) -> None:
    inv = inventory(SEED_000)
    remote = next(t for t in inv.tables if t.label == "Table 35 Remote")
    users = {(inv.tables[t].label, inv.tables[t].fields[f].name) for t, f in remote.used_by}
    assert users == {("Table 23 Output", "remote"), ("Table 34 AlgorithmOutput", "remote")}
    # The same printed row appears under both paths, with its own line number.
    for path in (
        "algorithm.outputs[].remote.obs.obs_url",
        "tasks[].algorithm.outputs.remote.obs.obs_url",
    ):
        assert one(inv, path).field.line == 1412
    billing = next(t for t in inv.tables if t.label == "Table 44 BillingInfo")
    assert len(billing.used_by) == 2


def test_tables_sharing_a_name_nest_under_the_nearest_following_reference(inventory: Get) -> None:
    inv = inventory(SEED_001)  # four tables named obs, three named remote
    assert one(inv, "algorithm.inputs[].remote.obs.obs_url").table.label == "表20 obs"
    assert one(inv, "algorithm.outputs[].remote.obs.obs_url").table.label == "表24 obs"
    assert one(inv, "tasks[].algorithm.inputs.remote.obs.obs_url").table.label == "表30 obs"
    assert one(inv, "tasks[].algorithm.outputs.remote.obs.obs_url").table.label == "表33 obs"


def test_rst_refs_do_not_override_order(inventory: Get) -> None:
    # 002's task algorithm points its engine at the job engine's anchor; the table that
    # follows (with v1_compatible) is the one it means.
    inv = inventory(SEED_002)
    assert one(inv, "tasks[].algorithm.engine.v1_compatible").table.label == "Table 34 engine"
    assert not entries(inv, "algorithm.engine.v1_compatible")


def test_missing_tables_are_reported_not_dropped(inventory: Get) -> None:
    inv = inventory(SEED_000)
    assert [(u.table, u.field, u.target, u.line) for u in inv.unresolved] == [
        ("Table 12 policies", "auto_search", "auto_search", 816)
    ]
    assert [t.label for t in inv.unattached] == [
        "Table 14 reward_attrs",
        "Table 15 search_params",
        "Table 16 algo_configs",
    ]
    document = inv.to_json()
    assert document["unresolved_references"][0]["target"] == "auto_search"
    assert len(document["unattached_tables"]) == 3


def test_untitled_tables_get_names_and_parents_from_reference_order(inventory: Get) -> None:
    inv = inventory(SEED_004)
    # Deferred: the job algorithm's inputs table is printed under the task's job_config.
    shared = one(inv, "tasks[].algorithm.job_config.inputs[].remote.dataset.id", "request")
    assert one(inv, "algorithm.inputs[].remote.dataset.id", "request").table is shared.table
    assert shared.table.name == "dataset"
    # Three engine tables, each under its own reference.
    assert one(inv, "algorithm.engine.engine_id", "request").field.line == 332
    assert one(inv, "tasks[].algorithm.job_config.engine.engine_id", "request").field.line == 615
    assert one(inv, "tasks[].algorithm.engine.engine_id", "request").field.line == 636
    # Response: memory/disk printed once, after the second flavor_info.
    assert one(inv, "tasks[].task_resource.flavor_info.memory.size", "response").field.line == 1536
    assert (
        one(inv, "spec.resource.flavor_detail.flavor_info.memory.size", "response").field.line
        == 1536
    )
    assert one(inv, "spec.log_export_path.host_path", "response").field.line == 1572
    # The response drops the volumes table but prints nfs: the level is restored.
    assert one(inv, "spec.volumes[].nfs.nfs_server_path", "response").field.line == 1556
    assert not entries(inv, "spec.volumes[].nfs_server_path")
    # The request's spec table points at log_export_path and auto_stop, which are not printed.
    assert {(u.field, u.target) for u in inv.unresolved} == {
        ("log_export_path", "log_export_path"),
        ("auto_stop", "auto_stop"),
    }


@pytest.mark.parametrize(
    ("seed", "path", "values"),
    [
        (
            SEED_003,
            "status.phase",
            [
                "Creating",
                "Pending",
                "Running",
                "Failed",
                "Completed",
                "Terminating",
                "Terminated",
                "Abnormal",
            ],
        ),
        (
            SEED_001,
            "status.phase",
            [
                "Creating",
                "Pending",
                "Running",
                "Failed",
                "Completed",
                "Terminating",
                "Terminated",
                "Abnormal",
            ],
        ),
        # 002 prints edge_job as a region-tagged item inside the mrs_job bullet (issue 33).
        (SEED_002, "kind", ["job", "hetero_job", "autosearch_job", "mrs_job", "edge_job"]),
        (SEED_001, "kind", ["job", "hetero_job", "autosearch_job", "mrs_job", "edge_job"]),
        (SEED_001, "spec.resource.policy", ["regular"]),
        (
            SEED_004,
            "status.phase",
            [
                "Creating",
                "Pending",
                "Running",
                "Failed",
                "Completed",
                "Terminating",
                "Terminated",
                "Abnormal",
            ],
        ),
        # Bullets naming the table's own fields are combinations, not values.
        (SEED_000, "algorithm.id", []),
        # Bullets that are sentences are rules, not values.
        (SEED_000, "algorithm.local_code_dir", []),
    ],
)
def test_enum_values_come_from_the_description(
    inventory: Get, seed: str, path: str, values: list[str]
) -> None:
    assert entries(inventory(seed), path)[-1].field.enum == values


# --- pages that make no sense -----------------------------------------------------------


def _bad(tmp_path: Path, name: str, content: bytes | str) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "content", "line", "words"),
    [
        ("binary.txt", b"URI\n\x00\x01\x02 garbage", 2, "binary"),
        ("empty.txt", "", 1, "empty page"),
        ("blank.txt", "  \n\n\t\n", 1, "empty page"),
        ("latin1.txt", "URI\nPOST /v2/x\ncaf\xe9".encode("latin-1"), 3, "not UTF-8"),
    ],
)
def test_unreadable_pages_fail_naming_file_and_line(
    tmp_path: Path, name: str, content: bytes | str, line: int, words: str
) -> None:
    path = _bad(tmp_path, name, content)
    with pytest.raises(PageError) as caught:
        extract_page(path)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"{path}:{line}: ")
    assert words in str(caught.value)


def test_a_page_without_an_operation_line_fails() -> None:
    text = edit(seed_text(SEED_003), "GET /v2/{project_id}/training-jobs/{training_job_id}\n", "")
    with pytest.raises(PageError, match=r"^page\.txt:\d+: no operation line"):
        extract_text("page.txt", text)


@pytest.mark.parametrize(
    ("seed", "cut_after", "line", "words"),
    [
        # web text: a caption and header, then the page ends
        (
            SEED_003,
            "Table 5 TaskStatuses\n\nParameter\n\nType\n\nDescription\n",
            261,
            "not followed by any row",
        ),
        # web text: a parameter name, then the page ends
        (
            SEED_003,
            "Table 5 TaskStatuses\n\nParameter\n\nType\n\nDescription\n\ntask\n",
            269,
            "no type cell",
        ),
        # reStructuredText: a grid row cut short, and a grid row without its closing border
        (SEED_002, "   | id           | String             |", 83, "does not line up"),
        (
            SEED_002,
            "created." + " " * 80 + "|\n",
            83,
            "not closed by a border",
        ),
        # pipe tables: a row with fewer cells than the header
        (SEED_004, "kind |\nYes |\nString |\n", 23, "3 of 4 cells"),
    ],
)
def test_a_truncated_table_fails_naming_its_line(
    seed: str, cut_after: str, line: int, words: str
) -> None:
    text = seed_text(seed)
    cut = text.index(cut_after) + len(cut_after)
    with pytest.raises(PageError) as caught:
        extract_text("cut.txt", text[:cut])
    assert caught.value.line == line, str(caught.value)
    assert words in str(caught.value)


# --- the command ------------------------------------------------------------------------


def test_cli_extract_prints_one_json_document_for_all_pages() -> None:
    result = CliRunner().invoke(cli, ["docs", "extract", *(str(seed_path(s)) for s in ALL_SEEDS)])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert [p["operation"]["method"] for p in document["pages"]] == [
        "POST",
        "POST",
        "POST",
        "GET",
        "POST",
    ]
    phase = next(f for f in document["pages"][3]["fields"] if f["path"] == "status.phase")
    assert phase["line"] == 175
    assert phase["schema"] == {"type": "string"}
    assert phase["enum"][0] == "Creating"


def test_cli_extract_writes_out_file(tmp_path: Path) -> None:
    out = tmp_path / "inventory.json"
    result = CliRunner().invoke(
        cli, ["docs", "extract", str(seed_path(SEED_002)), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text(encoding="utf-8"))["pages"][0]["format"] == "rst"
    assert not (tmp_path / "inventory.json.partial").exists()


def test_cli_extract_exits_2_on_a_bad_page_and_writes_nothing(tmp_path: Path) -> None:
    bad = _bad(tmp_path, "empty.txt", "")
    out = tmp_path / "inventory.json"
    result = CliRunner().invoke(
        cli, ["docs", "extract", str(seed_path(SEED_000)), str(bad), "--out", str(out)]
    )
    assert result.exit_code == 2
    assert f"{bad}:1: empty page" in result.output
    assert not out.exists()


def test_cli_extract_exits_2_on_a_missing_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["docs", "extract", str(tmp_path / "nope.txt")])
    assert result.exit_code == 2
    assert "nope.txt" in result.output


def test_a_description_reading_none_stays_in_its_table() -> None:
    text = edit(
        seed_text(SEED_003),
        "Error message of a training job task.\n",
        "Error message of a training job task.\n\nNone\n",
    )
    inv = extract_text("003.txt", text)
    assert one(inv, "status.task_statuses[].message").field.description.endswith("\nNone")
    assert one(inv, "status.running_records[].start_at").field.type == "Integer"


def test_page_titles_skip_navigation_and_dates(inventory: Get) -> None:
    assert inventory(SEED_000).title == "Terminating a Training Job"
    assert inventory(SEED_001).title == "终止训练作业"
    assert inventory(SEED_002).title == "Terminating a Training Job"


def test_a_page_read_again_is_built_once_and_each_reader_gets_its_own_inventory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The inventories of the pages a process reads again (every `docs update` reads every
    recorded page) are built once; each reader gets its own copy, named by its own source."""
    from modelarts_kit_vendordocs import extract
    from modelarts_kit_vendordocs.inventory import build_inventory
    from modelarts_kit_vendordocs.model import RawPage
    from modelarts_kit_wire.recent import Recent

    monkeypatch.setattr(extract, "_BUILT", Recent(extract.CACHED_PAGES))
    built: list[str] = []

    def counting(page: RawPage) -> Inventory:
        built.append(page.source)
        return build_inventory(page)

    monkeypatch.setattr(extract, "build_inventory", counting)
    text = seed_text(SEED_003)
    first = extract_text("a/first.txt", text)
    expected = copy.deepcopy(first)  # as built, before the edit below
    assert expected.fields
    assert expected.tables[0].fields
    first.fields.clear()  # a reader that edits what it got
    first.tables[0].fields.clear()
    second = extract_text("b/second.txt", text)
    third = extract_text("c/third.txt", text, "webtext")  # another format asked: built again
    assert built == ["a/first.txt", "c/third.txt"]
    assert (second.source, third.source) == ("b/second.txt", "c/third.txt")
    assert second == replace(expected, source="b/second.txt")
    with pytest.raises(PageError, match="empty page"):
        extract_text("d/empty.txt", " \n")
