"""A small spec with the optional operations, for the scenario drivers' unit tests.

The curated spec's document with list, delete, describe, events and one task operation
added in the fewest words: the scenarios are tested on their own logic against shapes these
tests control, whatever the curated spec's tables grow into.
"""

from __future__ import annotations

import copy
from typing import Any

from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_spec import load_spec
from modelarts_kit_spec.load import parse_spec

JOB = {"$ref": "#/components/schemas/JobResponse"}
NOT_FOUND = {
    "description": "Unknown job or task.",
    "x-modelarts-error-codes": {
        "not-found": ["ModelArts.2775"],
        "task-not-found": ["ModelArts.2788"],
    },
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}},
}
TASK = {"name": "task_id", "in": "path", "required": True, "schema": {"type": "string"}}


def _json(schema: Any) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _ok(schema: Any = None) -> dict[str, Any]:
    return {"description": "ok", **(_json(schema) if schema is not None else {})}


def _operation(operation_id: str, role: str, **parts: Any) -> dict[str, Any]:
    return {
        "operationId": operation_id,
        "x-modelarts-role": role,
        "security": [{"token": []}],
        **parts,
    }


def _paged(items: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"total": {"type": "integer"}, "items": {"type": "array", "items": items}},
    }


def _optional(operation: Any) -> bool:
    role = operation.get("x-modelarts-role") if isinstance(operation, dict) else None
    return role not in (None, "create", "show", "terminate")


LIST_PAGE = "family/querying_a_training_job_list_2024-11.rst"
EVENTS_PAGE = "family/obtaining_the_events_of_a_training_job_2025-08.rst"


def _x_paging(location: str, items: str, counts: str, maximum: int, page: str) -> dict[str, Any]:
    """How an operation pages (``x-modelarts-paging``), citing the page the curated spec does."""
    quote = [{"page": page, "locator": "Table 2, row offset", "quote": "offset"}]
    return {
        "in": location,
        "items": items,
        "offset": {"field": "offset", "counts": counts, "evidence": quote},
        "limit": {"field": "limit", "minimum": 1, "maximum": maximum, "evidence": quote},
    }


def family_document(
    without: tuple[str, ...] = (), *, list_offset_counts: str = "items"
) -> dict[str, Any]:
    document: dict[str, Any] = copy.deepcopy(dict(load_spec().document))
    paths = document["paths"]
    # The curated spec's own optional operations give way to these.
    for path in list(paths):
        for method in [m for m, o in paths[path].items() if _optional(o)]:
            del paths[path][method]
        if not any(isinstance(o, dict) and "operationId" in o for o in paths[path].values()):
            del paths[path]
    job_path = "/v2/{project_id}/training-jobs/{training_job_id}"
    project = {"$ref": "#/components/parameters/project_id"}
    paging = {
        "type": "object",
        "properties": {
            "offset": {"type": "integer", "minimum": 0},
            "limit": {"type": "integer", "minimum": 1, "maximum": 50},
        },
    }
    event = {"type": "object", "properties": {"time": {"type": "string"}, "message": {}}}
    operations: dict[str, tuple[str, str, dict[str, Any]]] = {
        "list": (
            "/v2/{project_id}/training-job-searches",
            "post",
            _operation(
                "ListTrainingJobs",
                "list",
                **{
                    "x-modelarts-paging": _x_paging(
                        "body", "items", list_offset_counts, 50, LIST_PAGE
                    )
                },
                requestBody=_json(paging),
                responses={"200": _ok(_paged(JOB))},
            ),
        ),
        "delete": (
            job_path,
            "delete",
            _operation("DeleteTrainingJob", "delete", responses={"202": _ok(), "400": NOT_FOUND}),
        ),
        "describe": (
            job_path,
            "put",
            _operation(
                "ChangeTrainingJobDescription",
                "describe",
                requestBody=_json(
                    {
                        "type": "object",
                        "properties": {"description": {"type": "string", "maxLength": 256}},
                    }
                ),
                responses={"200": _ok(), "400": NOT_FOUND},
            ),
        ),
        "events": (
            job_path + "/events",
            "get",
            _operation(
                "ListTrainingJobEvents",
                "events",
                **{"x-modelarts-paging": _x_paging("query", "events", "items", 100, EVENTS_PAGE)},
                parameters=[
                    {"name": "offset", "in": "query", "schema": {"type": "integer"}},
                    {
                        "name": "limit",
                        "in": "query",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 100},
                    },
                ],
                responses={
                    "200": _ok(
                        {
                            "type": "object",
                            "properties": {"events": {"type": "array", "items": event}},
                        }
                    )
                },
            ),
        ),
        "logs-preview": (
            job_path + "/tasks/{task_id}/logs/preview",
            "get",
            _operation(
                "ShowTrainingJobLogsPreview",
                "logs-preview",
                parameters=[TASK],
                responses={"200": _ok({"type": "object"}), "400": NOT_FOUND},
            ),
        ),
    }
    for role, (path, method, operation) in operations.items():
        if role in without:
            continue
        item = paths.setdefault(path, {"parameters": [project]})
        if path.endswith(("/events", "/preview")):
            item["parameters"] = [
                project,
                {"$ref": "#/components/parameters/training_job_id"},
            ]
        item[method] = operation
    return document


def family_api(without: tuple[str, ...] = (), *, list_offset_counts: str = "items") -> ApiMap:
    # At the curated spec's path: its recorded pages are the evidence of the operations.
    document = family_document(without, list_offset_counts=list_offset_counts)
    spec = parse_spec(document, load_spec().path)
    return ApiMap.from_spec(spec)
