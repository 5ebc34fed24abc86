"""Where releases come from (installed, wheel, cache, pip) and the CLI's exit codes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_sdk import SdkError, from_version, from_wheel, installed
from modelarts_kit_sdk.models import SdkModels, walk_fields

from .support import build_wheel, copy_installed, fake_wheel
from .test_diff import BASE, variant


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_the_installed_release_is_read_without_importing_it() -> None:
    import sys

    before = {name for name in sys.modules if name.startswith("huaweicloudsdk")}
    source = installed()
    models = SdkModels(source)
    counts = {
        op: sum(1 for _ in walk_fields(models, op))
        for op in ("CreateTrainingJob", "ShowTrainingJobDetails", "StopTrainingJob")
    }
    after = {name for name in sys.modules if name.startswith("huaweicloudsdk")}
    # issue 15's figures for 3.1.219: 303 wire fields from CreateTrainingJobRequest (body
    # included), 309 from the job response; StopTrainingJobRequest adds training_job_id and body.
    assert source.version == "3.1.219"
    assert counts == {
        "CreateTrainingJob": 302 + 309,
        "ShowTrainingJobDetails": 1 + 309,
        "StopTrainingJob": 2 + 309,
    }
    assert after == before  # nothing of the SDK was imported


def test_a_wheel_is_read_in_place(tmp_path: Path) -> None:
    source = from_wheel(fake_wheel(tmp_path, BASE, version="9.8.7"))
    assert source.version == "9.8.7"
    assert [a.wire for a in SdkModels(source).get("Thing").attributes] == list(BASE["Thing"])


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not a zip", "not a wheel (not a zip archive)"),
        (None, "no such file"),
    ],
)
def test_a_file_that_is_not_a_wheel_is_refused(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    path = tmp_path / "x.whl"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(SdkError, match=re.escape(message)):
        from_wheel(path)


def test_a_wheel_of_another_package_is_refused(tmp_path: Path) -> None:
    import zipfile

    path = tmp_path / "other-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("other/__init__.py", "")
    with pytest.raises(SdkError, match="not a huaweicloudsdkmodelarts wheel"):
        from_wheel(path)


def test_a_version_is_read_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    root = copy_installed(tmp_path)
    build_wheel(root, "3.1.219", cache)
    monkeypatch.setenv("MODELARTS_KIT_CACHE_DIR", str(cache))
    monkeypatch.setenv("PIP_NO_INDEX", "1")  # a cache miss would fail, never reach the network
    source = from_version("3.1.219")
    assert source.origin == f"wheel {cache / 'huaweicloudsdkmodelarts-3.1.219-py3-none-any.whl'}"
    assert SdkModels(source).get("Status").attribute("start_time") is not None


def test_a_version_pip_cannot_fetch_is_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MODELARTS_KIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PIP_NO_INDEX", "1")  # pip looks nowhere: no network in tests
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path))
    code, out, err = run("sdk", "diff", "--sdk-version", "3.1.1")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("error: huaweicloudsdkmodelarts 3.1.1: pip download failed: ")
    assert list((tmp_path / "cache").iterdir()) == []  # no half-downloaded leftovers


@pytest.mark.parametrize("version", [">=3.1", "3.1.219; rm -rf /", "latest", ""])
def test_a_version_that_is_not_a_release_number_is_refused(version: str) -> None:
    with pytest.raises(SdkError, match="not a release number"):
        from_version(version)


def test_usage_errors_exit_2_on_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.whl"
    bad.write_text("x")
    for args in (
        ("sdk", "diff", "--wheel", str(bad)),
        ("sdk", "diff", "--wheel", str(bad), "--sdk-version", "3.1.219"),
        ("sdk", "compare", str(bad), "installed"),
    ):
        code, out, err = run(*args)
        assert (code, out, err.count("\n")) == (2, "", 1), args
        assert err.startswith("error: ")


def test_drift_exits_1_and_the_json_names_both_sides(tmp_path: Path, small_spec: Path) -> None:
    wheel = fake_wheel(tmp_path, variant(Thing={**BASE["Thing"], "size": "str"}))
    code, out, _ = run(
        "sdk", "diff", "--wheel", str(wheel), "--spec", str(small_spec), "--format", "json"
    )
    assert code == 1
    report = json.loads(out)
    assert report["unreconciled"] == 1
    ((group,),) = [g for g in [report["schemas"]]]
    (finding,) = group["findings"]
    assert finding["integer_vs_string"] is True
    assert finding["occurrences"][0]["model"] == "Thing"
    assert finding["occurrences"][0]["pointer"] == "/components/schemas/Thing/properties/size"
    assert "ledger" in finding["action"]
    code, out, _ = run("sdk", "diff", "--wheel", str(wheel), "--spec", str(small_spec))
    assert code == 1
    assert "INTEGER vs STRING" in out
    assert out.rstrip().endswith("1 unreconciled finding(s); 0 reconciled by the ledger")


def test_no_drift_exits_0(tmp_path: Path, small_spec: Path) -> None:
    code, out, _ = run(
        "sdk", "diff", "--wheel", str(fake_wheel(tmp_path, BASE)), "--spec", str(small_spec)
    )
    assert code == 0
    assert out.rstrip().endswith("no unreconciled drift; 0 reconciled by the ledger")


def test_compare_lists_added_removed_and_changed(tmp_path: Path, small_spec: Path) -> None:
    old = fake_wheel(tmp_path, BASE, version="1.0.0")
    new_models = variant(
        Thing={"name": "int", "inner": "Inner", "parts": "list[Part]", "named": "dict(str, Part)",
               "extra": "Extra"},
        Extra={"a": "str", "b": "list[Part]"},
        Inner={"depth": "int"},  # unchanged
        PartResp=None,
        CreateThingResponse={"id": "str", "parts": "list[Part]", "phase": "str"},  # rename only
    )  # fmt: skip
    new = fake_wheel(tmp_path, new_models, version="1.1.0")
    code, out, _ = run(
        "sdk", "compare", str(old), str(new), "--spec", str(small_spec), "--format", "json"
    )
    assert code == 1
    (op,) = json.loads(out)["operations"]
    assert op["operation"] == "CreateThing"
    assert [(c["side"], c["path"], c["new"], c["nested"]) for c in op["added"]] == [
        ("request", "extra", "Thing.extra: Extra", 3)
    ]
    assert [(c["side"], c["path"], c["old"]) for c in op["removed"]] == [
        ("request", "size", "Thing.size: int")
    ]
    assert [(c["path"], c["old"], c["new"]) for c in op["changed"]] == [
        ("name", "Thing.name: str", "Thing.name: int")
    ]
    code, out, _ = run("sdk", "compare", str(old), str(old), "--spec", str(small_spec))
    assert code == 0
    assert out.rstrip().endswith("no changes in the operations' models")


def test_compare_says_which_operation_neither_release_has_a_model_for(
    tmp_path: Path, small_spec: Path
) -> None:
    from .test_diff import _with_an_operation_the_sdk_lacks

    _with_an_operation_the_sdk_lacks(small_spec)
    old = fake_wheel(tmp_path, BASE, version="1.0.0")
    new = fake_wheel(tmp_path, BASE, version="1.1.0")
    code, out, _ = run("sdk", "compare", str(old), str(new), "--spec", str(small_spec))
    assert code == 0
    assert "ShowThingLogUrl: no SDK model in either release; not compared" in out.splitlines()
    code, out, _ = run(
        "sdk", "compare", str(old), str(new), "--spec", str(small_spec), "--format", "json"
    )
    models = {
        o["operation"]: (o["old_models"], o["new_models"]) for o in json.loads(out)["operations"]
    }
    assert models == {"CreateThing": (True, True), "ShowThingLogUrl": (False, False)}
