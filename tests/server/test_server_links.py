"""Create's answer links to every operation on the job (issue 35): each link, followed the way
schemathesis's stateful phase or any link-reading tool follows it (runtime expressions on the
create request and answer), reaches its operation on the reference server and is answered
with the operation's success status."""

from __future__ import annotations

from typing import Any

import httpx
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN
from modelarts_kit_spec import Spec
from modelarts_kit_spec.load import resolve_pointer

from .server_support import CREATE, check_documented, job_body

DELETE = "DeleteTrainingJob"


def _evaluate(expression: str, request_path: dict[str, str], answer: Any) -> str:
    """The two runtime expressions the spec's links use."""
    if expression.startswith("$request.path."):
        return request_path[expression.removeprefix("$request.path.")]
    source, _, pointer = expression.partition("#")
    assert source == "$response.body", expression
    return str(resolve_pointer(answer, pointer))


def _body_for(spec: Spec, operation_id: str, link: dict[str, Any]) -> Any:
    """The link's own body, else the first request example of the operation (a tool would
    generate one from the schema), else none."""
    if "requestBody" in link:
        return link["requestBody"]
    node = spec.at(spec.operation(operation_id).pointer).get("requestBody")
    if node is None:
        return None
    examples = spec.deref(node)["content"]["application/json"].get("examples", {})
    return next(iter(examples.values()))["value"] if examples else None


def test_every_link_of_create_reaches_its_operation(client: httpx.Client, spec: Spec) -> None:
    create = spec.operation(CREATE)
    request_path = {"project_id": DEV_PROJECT_ID}
    created = client.post(
        create.path.format(**request_path),
        json=job_body("linked-job"),
        headers={"X-Auth-Token": DEV_TOKEN},
    )
    assert created.status_code == 201, created.text
    links: dict[str, Any] = spec.at(create.success.pointer)["links"]
    # Delete last: after it the job is gone for every other link.
    ordered = sorted(links.values(), key=lambda link: link["operationId"] == DELETE)
    followed = []
    for link in ordered:
        target = spec.operation(link["operationId"])
        values = {
            name: _evaluate(expression, request_path, created.json())
            for name, expression in link["parameters"].items()
        }
        response = client.request(
            target.method.upper(),
            target.path.format(**values),
            json=_body_for(spec, target.operation_id, link),
            headers={"X-Auth-Token": DEV_TOKEN},
        )
        assert response.status_code == int(target.success.status), (link, response.text)
        if response.content:  # delete and describe answer no content
            check_documented(spec, target, response)
        followed.append(target.operation_id)
    assert len(followed) == 8
