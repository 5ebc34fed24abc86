"""Flavors and engines: the catalogue from the spec's examples, flavor_type filtering, and
create checked against it with ``ServerSettings.catalogue`` / ``serve --catalogue``."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from modelarts_kit.commands import serve as serve_command
from modelarts_kit.main import cli
from modelarts_kit_server import ManualClock, ServerSettings, create_app
from modelarts_kit_server.catalogue import load_catalogue, response_examples
from modelarts_kit_server.store import StoreError
from modelarts_kit_spec import Spec, load_spec
from modelarts_kit_spec.meaning import Role

from tests.yaml_files import dump_yaml

from .operation_calls import Family, family_client, operation_of
from .server_support import job_body


def example_entries(spec: Spec, role: Role) -> list[dict[str, Any]]:
    """The objects listed in the operation's examples (independently of the server's reader)."""
    entries: list[dict[str, Any]] = []
    for example in response_examples(spec, operation_of(spec, role)):
        for value in example.values():
            if isinstance(value, list):
                entries.extend(item for item in value if isinstance(item, dict))
    return entries


@pytest.fixture
def family(clock: ManualClock) -> Iterator[Family]:
    app = create_app(ServerSettings(clock=clock, catalogue=True))
    family = family_client(app)
    yield family
    family.client.close()
    app.close()


def test_flavors_are_the_examples_and_filter_by_type(family: Family) -> None:
    flavors = example_entries(family.spec, Role.FLAVORS)
    assert flavors
    answer = family.by_role(Role.FLAVORS).json()
    listed = next(value for value in answer.values() if isinstance(value, list))
    assert [f["flavor_id"] for f in listed] == [f["flavor_id"] for f in flavors]
    assert len(flavors) in answer.values()
    flavor_type = flavors[0]["flavor_type"]
    typed = family.by_role(Role.FLAVORS, params={"flavor_type": flavor_type}).json()
    typed_list = next(value for value in typed.values() if isinstance(value, list))
    assert typed_list
    assert all(f["flavor_type"] == flavor_type for f in typed_list)


def test_engines_are_the_examples(family: Family) -> None:
    engines = example_entries(family.spec, Role.ENGINES)
    assert engines
    answer = family.by_role(Role.ENGINES).json()
    listed = next(value for value in answer.values() if isinstance(value, list))
    assert [e["engine_id"] for e in listed] == [e["engine_id"] for e in engines]


def catalogue_job(spec: Spec, name: str, **engine: str) -> dict[str, Any]:
    catalogue = load_catalogue(spec)
    chosen = catalogue.engines[0]
    return job_body(
        name,
        algorithm={
            "code_dir": "obs://bucket/code/",
            "boot_file": "obs://bucket/code/train.py",
            "engine": engine or {"engine_id": chosen["engine_id"]},
        },
        spec={"resource": {"flavor_id": catalogue.flavors[0]["flavor_id"], "node_count": 1}},
    )


def test_create_accepts_what_the_catalogue_has(family: Family) -> None:
    catalogue = load_catalogue(family.spec)
    by_id = catalogue_job(family.spec, "by-id")
    assert family.create(by_id).status_code == 201
    engine = catalogue.engines[-1]
    by_name = catalogue_job(
        family.spec,
        "by-name",
        engine_name=engine["engine_name"],
        engine_version=engine["engine_version"],
    )
    assert family.create(by_name).status_code == 201


@pytest.mark.parametrize(
    ("where", "change"),
    [
        ("/spec/resource/flavor_id", {"spec": {"resource": {"flavor_id": "no.such.flavor"}}}),
        ("/algorithm/engine", {"algorithm": {"engine": {"engine_id": "no-such-engine"}}}),
        (
            "/algorithm/engine",
            {"algorithm": {"engine": {"engine_name": "Caffe", "engine_version": "9.9"}}},
        ),
    ],
)
def test_create_refuses_a_flavor_or_engine_not_in_the_catalogue(
    family: Family, where: str, change: dict[str, Any]
) -> None:
    body = catalogue_job(family.spec, "refused")
    for key, value in change.items():
        for inner, part in value.items():
            body[key][inner] = {**body[key][inner], **part} if key == "spec" else part
    response = family.create(body)
    assert response.status_code == 400, response.text
    code = response.json()["error_code"]
    create = family.spec.meaning.roles.create.operation_id
    assert family.spec.meaning.errors.accepts(create, 400, code)
    assert where in response.json()["error_msg"]
    assert family.search({}).json()["count"] == 0


def test_without_the_setting_create_does_not_check(clock: ManualClock) -> None:
    app = create_app(ServerSettings(clock=clock))
    family = family_client(app)
    try:
        body = catalogue_job(family.spec, "unchecked")
        body["spec"]["resource"]["flavor_id"] = "no.such.flavor"
        assert family.create(body).status_code == 201
    finally:
        family.client.close()
        app.close()


def test_serve_catalogue_sets_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[ServerSettings] = []

    def no_app(settings: ServerSettings) -> None:
        seen.append(settings)
        raise StoreError("not in this test")

    monkeypatch.setattr(serve_command, "create_app", no_app)
    for arguments, expected in ((["--catalogue"], True), ([], False)):
        result = CliRunner().invoke(cli, ["serve", "--port", "0", *arguments])
        assert result.exit_code == 2
        assert seen[-1].catalogue is expected


def test_the_catalogue_reads_the_spec_examples() -> None:
    spec = load_spec()
    catalogue = load_catalogue(spec)
    flavor_ids = [f["flavor_id"] for f in example_entries(spec, Role.FLAVORS)]
    assert [f["flavor_id"] for f in catalogue.flavors] == list(dict.fromkeys(flavor_ids))
    assert catalogue.has_flavor(flavor_ids[0])
    assert not catalogue.has_flavor("no.such.flavor")


@pytest.mark.parametrize("role", [Role.FLAVORS, Role.ENGINES])
def test_an_invalid_project_id_is_answered_with_a_documented_status(
    clock: ManualClock, role: Role
) -> None:
    """The engines operation documents no 400: a project id breaking its pattern is then a
    path that does not exist (path-not-found), never an undocumented status. The pattern is
    the ledger's decision (project-id-mandatory): the strict end enforces it."""
    app = create_app(ServerSettings(clock=clock, catalogue=True, strictness="strict"))
    family = family_client(app)
    try:
        _check_invalid_project_id(family, role)
    finally:
        family.client.close()
        app.close()


def _check_invalid_project_id(family: Family, role: Role) -> None:
    operation = operation_of(family.spec, role)
    response = family.by_role(role, project_id="%C3%97")  # check_answer: documented status
    assert response.status_code in (400, 404)
    meaning = "invalid-parameter" if response.status_code == 400 else "path-not-found"
    if meaning == "invalid-parameter":
        assert family.error_code(role, meaning) == response.json()["error_code"]
    else:
        assert "invalid-parameter" not in family.spec.meaning.errors.meanings(
            operation.operation_id
        )
        gateway = family.spec.meaning.errors.gateway_error(meaning)
        assert response.json()["error_code"] == gateway.code
    assert "project_id" in response.json()["error_msg"]


@pytest.mark.parametrize("role", [Role.FLAVORS, Role.ENGINES])
def test_the_lenient_end_does_not_enforce_the_project_id_pattern(
    family: Family, role: Role
) -> None:
    """No page states the pattern: the lenient end answers (the development token reaches
    every project), with a documented status."""
    response = family.by_role(role, project_id="%C3%97")
    assert response.status_code == 200, response.text


def test_a_finer_meaning_in_the_spec_changes_the_answer(tmp_path: Path, clock: ManualClock) -> None:
    """A spec that lists flavor-not-found for create gets that code for an unknown flavor."""
    document = copy.deepcopy(load_spec().document)
    create = load_spec().meaning.roles.create
    responses = document["paths"][create.path][create.method]["responses"]
    codes = responses["400"]["x-modelarts-error-codes"]
    finer = codes["reference-not-found"][-1]  # any code of the spec's catalogue for 400
    codes["flavor-not-found"] = [finer]
    path = tmp_path / "openapi.yaml"
    path.write_text(dump_yaml(document, sort_keys=False), encoding="utf-8")
    app = create_app(ServerSettings(clock=clock, catalogue=True, spec_path=path))
    family = family_client(app, spec=load_spec(path))
    try:
        body = catalogue_job(family.spec, "finer")
        body["spec"]["resource"]["flavor_id"] = "no.such.flavor"
        response = family.create(body)
        assert response.status_code == 400
        assert response.json()["error_code"] == finer
    finally:
        family.client.close()
        app.close()
