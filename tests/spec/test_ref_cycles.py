"""The one ``$ref`` resolver: cycles anywhere are refused with one line (exit 2) by ``spec
validate`` and ``generate``; siblings of a ``$ref`` apply, the same way for every reader.

The commands run in a subprocess with a timeout, so a regression (an endless loop) fails
instead of hanging the suite.
"""

from __future__ import annotations

import copy
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from modelarts_kit_spec import load_spec, parse_spec
from modelarts_kit_spec.refs import RefCycleError, ref_cycles, resolve_ref

from tests.yaml_files import dump_yaml

JSON = Any
TIMEOUT = 120


def _two_parameters(document: JSON) -> list[str]:
    parameters = document["components"]["parameters"]
    parameters["project_id"] = {"$ref": "#/components/parameters/training_job_id"}
    parameters["training_job_id"] = {"$ref": "#/components/parameters/project_id"}
    return ["/components/parameters/project_id", "/components/parameters/training_job_id"]


def _schema_to_itself(document: JSON) -> list[str]:
    document["components"]["schemas"]["JobActionType"] = {
        "$ref": "#/components/schemas/JobActionType"
    }
    return ["/components/schemas/JobActionType"]


def _responses(document: JSON) -> list[str]:
    responses = document["components"].setdefault("responses", {})
    responses["LoopA"] = {"$ref": "#/components/responses/LoopB"}
    responses["LoopB"] = {"$ref": "#/components/responses/LoopA"}
    create = document["paths"]["/v2/{project_id}/training-jobs"]["post"]
    create["responses"]["418"] = {"$ref": "#/components/responses/LoopA"}
    return ["/components/responses/LoopA", "/components/responses/LoopB"]


def _headers(document: JSON) -> list[str]:
    headers = document["components"].setdefault("headers", {})
    headers["Loop"] = {"$ref": "#/components/headers/Loop"}
    return ["/components/headers/Loop"]


def _request_bodies(document: JSON) -> list[str]:
    bodies = document["components"].setdefault("requestBodies", {})
    bodies["LoopA"] = {"$ref": "#/components/requestBodies/LoopB"}
    bodies["LoopB"] = {"$ref": "#/components/requestBodies/LoopA"}
    stop = document["paths"]["/v2/{project_id}/training-jobs/{training_job_id}/actions"]["post"]
    stop["requestBody"] = {"$ref": "#/components/requestBodies/LoopA"}
    return ["/components/requestBodies/LoopA", "/components/requestBodies/LoopB"]


CYCLES: dict[str, Callable[[JSON], list[str]]] = {
    "two-parameters": _two_parameters,
    "schema-to-itself": _schema_to_itself,
    "responses": _responses,
    "headers": _headers,
    "request-bodies": _request_bodies,
}


def _cyclic_spec(tmp_path: Path, make: Callable[[JSON], list[str]]) -> tuple[Path, list[str]]:
    document = copy.deepcopy(load_spec().document)
    pointers = make(document)
    path = tmp_path / "cyclic.yaml"
    path.write_text(dump_yaml(document, sort_keys=False), encoding="utf-8")
    return path, pointers


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "modelarts_kit", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=cwd,
        check=False,
    )


def _assert_one_line_naming(result: subprocess.CompletedProcess[str], pointers: list[str]) -> None:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error:")
    assert "$ref cycle" in lines[0]
    for pointer in pointers:
        assert pointer in lines[0]


@pytest.mark.parametrize("name", sorted(CYCLES))
def test_spec_validate_refuses_a_ref_cycle(tmp_path: Path, name: str) -> None:
    path, pointers = _cyclic_spec(tmp_path, CYCLES[name])
    _assert_one_line_naming(_run("spec", "validate", "--spec", str(path), cwd=tmp_path), pointers)


@pytest.mark.parametrize("name", ["two-parameters", "schema-to-itself"])
def test_generate_refuses_a_ref_cycle(tmp_path: Path, name: str) -> None:
    path, pointers = _cyclic_spec(tmp_path, CYCLES[name])
    result = _run(
        "generate", "--spec", str(path), "--out", str(tmp_path / "out"), "--no-cache", cwd=tmp_path
    )
    _assert_one_line_naming(result, pointers)


def test_every_cycle_is_found_once() -> None:
    document = copy.deepcopy(load_spec().document)
    _two_parameters(document)
    _headers(document)
    assert ref_cycles(document) == [
        ("/components/headers/Loop",),
        ("/components/parameters/project_id", "/components/parameters/training_job_id"),
    ]
    assert ref_cycles(load_spec().document) == []


def test_recursion_inside_properties_is_not_a_cycle() -> None:
    document = copy.deepcopy(load_spec().document)
    metadata = document["components"]["schemas"]["JobMetadata"]
    metadata["properties"]["parent"] = {"$ref": "#/components/schemas/JobMetadata"}
    assert ref_cycles(document) == []
    parse_spec(document, Path("recursive.yaml"))


def test_resolve_ref_refuses_a_cycle_it_meets() -> None:
    document = {"a": {"$ref": "#/b"}, "b": {"$ref": "#/a"}}
    with pytest.raises(RefCycleError) as caught:
        resolve_ref(document, {"$ref": "#/a"})
    assert caught.value.cycle == ("/a", "/b")


def test_siblings_of_a_ref_apply_for_every_reader() -> None:
    """OpenAPI 3.1: the keywords beside a ``$ref`` apply with the target's; where both state
    one, the sibling wins. The loader, ``Spec.deref``, ``Spec.inline`` and the walker agree."""
    document = copy.deepcopy(load_spec().document)
    schemas = document["components"]["schemas"]
    schemas["Described"] = {
        "$ref": "#/components/schemas/JobActionType",
        "description": "sibling wins",
        "maxProperties": 1,
    }
    spec = parse_spec(document, Path("siblings.yaml"))
    node = {"$ref": "#/components/schemas/Described"}
    by_deref = spec.deref(node)
    by_inline = spec.inline(node)
    by_walker = spec.walker.view(node).schema
    for resolved in (by_deref, by_inline, by_walker):
        assert resolved["description"] == "sibling wins"
        assert resolved["maxProperties"] == 1
        assert resolved["required"] == ["action_type"]
