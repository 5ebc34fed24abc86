"""End to end on the real SDK: the installed 3.1.219, and a copy of it with one model edited."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_sdk.sources import MODEL_PACKAGE
from modelarts_kit_spec import load_spec

from .support import build_wheel, copy_installed


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout


def test_every_finding_of_3_1_219_is_decided_in_the_ledger() -> None:
    # the spec's operations: the three of the seeds and the family's (issue 26)
    operation_ids = {op.operation_id for op in load_spec().operations}
    assert {"CreateTrainingJob", "ShowTrainingJobDetails", "StopTrainingJob"} <= operation_ids
    code, out = run("sdk", "diff", "--format", "json")
    report = json.loads(out)
    assert report["sdk"] == "huaweicloudsdkmodelarts 3.1.219"
    assert (code, report["unreconciled"]) == (0, 0)
    every = [f for g in report["schemas"] for f in g["reconciled"]]
    assert len(every) == report["reconciled"] > 0
    for finding in every:
        assert all(entry.startswith("sdk-") for entry in finding["ledger"])
    for finding in every:
        assert finding["pointer"].startswith(finding["schema"])
        for occurrence in finding["occurrences"]:
            assert occurrence["model"]
            assert occurrence["attribute"]
            assert occurrence["sdk"]
            assert occurrence["operation"] in operation_ids


def test_an_edit_to_one_model_of_a_copy_of_the_sdk_is_reported(tmp_path: Path) -> None:
    root = copy_installed(tmp_path)
    status = root / MODEL_PACKAGE / "status.py"
    text = status.read_text(encoding="utf-8")
    assert "'start_time': 'int'," in text
    status.write_text(text.replace("'start_time': 'int',", "'start_time': 'str',"), "utf-8")
    wheel = build_wheel(root, "3.1.219+edited", tmp_path / "wheels")
    _, before = run("sdk", "diff", "--format", "json")
    code, after = run("sdk", "diff", "--wheel", str(wheel), "--format", "json")
    assert code == 1
    old, new = json.loads(before), json.loads(after)
    assert new["unreconciled"] == old["unreconciled"] + 1
    (finding,) = [f for g in new["schemas"] for f in g["findings"] if f["field"] == "start_time"]
    assert finding["kind"] == "type"
    assert finding["integer_vs_string"] is True
    assert finding["pointer"] == "/components/schemas/Status/properties/start_time"
    assert {(o["model"], o["attribute"], o["sdk"], o["spec"]) for o in finding["occurrences"]} == {
        ("Status", "start_time", "str", "integer")
    }
    assert {o["operation"] for o in finding["occurrences"]} == {
        "CreateTrainingJob",
        "ShowTrainingJobDetails",
        "StopTrainingJob",
        "ListTrainingJobs",  # its items are the show job, Status included
    }
