"""Delete and change-description over HTTP: what show and list see afterwards, the errors, the
bodies real clients send, project isolation and durability under ``--db``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from modelarts_kit_server import ManualClock, ServerSettings, create_app
from modelarts_kit_spec.meaning import Role

from .operation_calls import Family, family_client, operation_of
from .server_support import check_error


@pytest.fixture
def family(clock: ManualClock) -> Iterator[Family]:
    app = create_app(ServerSettings(clock=clock))
    family = family_client(app)
    yield family
    family.client.close()
    app.close()


def not_found(family: Family, role: Role) -> str:
    return family.error_code(role, "not-found")


def test_a_deleted_job_is_gone_from_show_and_list(family: Family) -> None:
    kept = family.created_id("kept")
    job_id = family.created_id("doomed")
    response = family.by_role(Role.DELETE, job_id=job_id, json_body={})
    assert response.status_code == int(operation_of(family.spec, Role.DELETE).success.status)
    check_error(family.show(job_id), 400, not_found(family, Role.SHOW))
    assert family.listed_ids() == [kept]


def test_deleting_twice_gives_the_documented_error(family: Family) -> None:
    job_id = family.created_id("twice")
    assert family.by_role(Role.DELETE, job_id=job_id).is_success
    again = family.by_role(Role.DELETE, job_id=job_id)
    assert again.status_code == 400
    assert again.json()["error_code"] == not_found(family, Role.DELETE)
    assert job_id in again.json()["error_msg"]


@pytest.mark.parametrize("content", [b"", b"{}"])
def test_a_delete_with_an_empty_object_or_no_body_is_accepted(
    family: Family, content: bytes
) -> None:
    job_id = family.created_id("bodies")
    headers = {"Content-Type": "application/json"} if content else {}
    response = family.by_role(Role.DELETE, job_id=job_id, content=content, headers=headers)
    assert response.is_success, response.text


def test_another_projects_job_cannot_be_deleted_or_described(clock: ManualClock) -> None:
    app = create_app(ServerSettings(clock=clock))
    mine = family_client(app, project_id="aaaa1111")
    theirs = family_client(app, project_id="bbbb2222")
    try:
        job_id = mine.created_id("mine")
        refused = theirs.by_role(Role.DELETE, job_id=job_id)
        check_error(refused, 400, not_found(theirs, Role.DELETE))
        described = theirs.by_role(Role.DESCRIBE, job_id=job_id, json_body={"description": "x"})
        check_error(described, 400, not_found(theirs, Role.DESCRIBE))
        assert mine.show(job_id).status_code == 200
        assert "description" not in mine.show(job_id).json()["metadata"]
    finally:
        mine.client.close()
        theirs.client.close()
        app.close()


def test_a_changed_description_shows_in_show_and_list(family: Family) -> None:
    job_id = family.created_id("described")
    response = family.by_role(Role.DESCRIBE, job_id=job_id, json_body={"description": "hahaha"})
    assert response.is_success, response.text
    assert family.show(job_id).json()["metadata"]["description"] == "hahaha"
    (item,) = family.search({}).json()["items"]
    assert item["metadata"]["description"] == "hahaha"


def test_describing_an_unknown_job_is_the_unknown_job_error(family: Family) -> None:
    response = family.by_role(Role.DESCRIBE, job_id="nope", json_body={"description": "x"})
    check_error(response, 400, not_found(family, Role.DESCRIBE))


def test_a_description_over_the_documented_length_is_refused(family: Family) -> None:
    job_id = family.created_id("long")
    response = family.by_role(Role.DESCRIBE, job_id=job_id, json_body={"description": "x" * 257})
    check_error(response, 400, family.error_code(Role.DESCRIBE, "invalid-parameter"))
    assert "/description" in response.json()["error_msg"]


def test_deleted_and_described_survive_a_restart(tmp_path: Path, clock: ManualClock) -> None:
    settings = ServerSettings(clock=clock, db_path=tmp_path / "jobs.sqlite")
    app = create_app(settings)
    family = family_client(app)
    try:
        deleted = family.created_id("deleted")
        described = family.created_id("described")
        assert family.by_role(Role.DELETE, job_id=deleted).is_success
        family.by_role(Role.DESCRIBE, job_id=described, json_body={"description": "kept"})
    finally:
        family.client.close()
        app.close()
    app = create_app(settings)
    family = family_client(app)
    try:
        assert family.show(deleted).status_code == 400
        assert family.show(described).json()["metadata"]["description"] == "kept"
        assert family.listed_ids() == [described]
        again = family.by_role(Role.DELETE, job_id=deleted)
        assert again.json()["error_code"] == not_found(family, Role.DELETE)
    finally:
        family.client.close()
        app.close()
