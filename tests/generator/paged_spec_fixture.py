"""A hand-written spec for the generator's paging and follow tests: the curated spec with a
list, an events and a logs-preview operation added in their simplest documented shape (the
vendor's names and ranges), so the generated helpers are tested whatever the curated spec
holds. Written through the YAML emitter."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml
from modelarts_kit_spec import SPEC_PATH
from modelarts_kit_spec.reader import read_yaml

PROJECT = {"$ref": "#/components/parameters/project_id"}
JOB_ID = {"$ref": "#/components/parameters/training_job_id"}
OK_ANSWER = "ok"


def _answer(schema: dict[str, Any]) -> dict[str, Any]:
    return {"200": {"description": OK_ANSWER, "content": {"application/json": {"schema": schema}}}}


def _query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": schema}  # fmt: skip


def _paging(where: str, items: str, counts: str, maximum: int) -> dict[str, Any]:
    """An ``x-modelarts-paging`` block: what the offset counts is the spec's word, not a
    description's."""
    evidence = [{"page": "family/fixture.rst", "locator": "Table 2", "quote": "offset"}]
    return {
        "in": where,
        "items": items,
        "offset": {"field": "offset", "counts": counts, "minimum": 0, "evidence": evidence},
        "limit": {"field": "limit", "minimum": 1, "maximum": maximum, "evidence": evidence},
        "total": {"field": "total", "counts": "matching", "evidence": evidence},
    }


def family_document(*, list_offset_counts_pages: bool = True) -> dict[str, Any]:
    document: dict[str, Any] = copy.deepcopy(read_yaml(SPEC_PATH))
    schemas = document["components"]["schemas"]
    schemas["FixtureEvent"] = {
        "type": "object",
        "properties": {name: {"type": "string"} for name in ("time", "level", "message", "source")},
    }
    # The same words either way: what the offset counts is x-modelarts-paging's, never the
    # description's (the page's own words would say pages).
    offset_text = "Number of pages for querying jobs."
    paths = document["paths"]
    paths["/v2/{project_id}/training-job-searches"] = {
        "parameters": [PROJECT],
        "post": {
            "operationId": "ListTrainingJobs",
            "x-modelarts-role": "list",
            "x-modelarts-paging": _paging(
                "body", "items", "pages" if list_offset_counts_pages else "items", 50
            ),
            "requestBody": {
                "required": False,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "properties": {
                                "offset": {"type": "integer", "minimum": 0,
                                           "description": offset_text},
                                "limit": {"type": "integer", "minimum": 1, "maximum": 50},
                                "order": {"type": "string"},
                            },
                        }
                    }
                },
            },
            "responses": _answer(
                {
                    "type": "object",
                    "properties": {
                        "total": {"type": "integer"},
                        "count": {"type": "integer"},
                        "items": {"type": "array",
                                  "items": {"$ref": "#/components/schemas/JobResponse"}},
                    },
                }
            ),
        },
    }  # fmt: skip
    paths["/v2/{project_id}/training-jobs/{training_job_id}/events"] = {
        "parameters": [PROJECT, JOB_ID],
        "get": {
            "operationId": "ListTrainingJobEvents",
            "x-modelarts-role": "events",
            "x-modelarts-paging": _paging("query", "events", "items", 100),
            "parameters": [
                _query("offset", {"type": "integer", "minimum": 0}, "Offset of a data entry."),
                _query("limit", {"type": "integer", "minimum": 1, "maximum": 100}, "Page size."),
                _query("order", {"type": "string", "enum": ["asc", "desc"]}, "Order."),
            ],
            "responses": _answer(
                {
                    "type": "object",
                    "properties": {
                        "total": {"type": "string"},
                        "events": {"type": "array",
                                   "items": {"$ref": "#/components/schemas/FixtureEvent"}},
                    },
                }
            ),
        },
    }  # fmt: skip
    paths["/v2/{project_id}/training-jobs/{training_job_id}/tasks/{task_id}/logs/preview"] = {
        "parameters": [PROJECT, JOB_ID],
        "get": {
            "operationId": "ShowTrainingJobLogsPreview",
            "x-modelarts-role": "logs-preview",
            "parameters": [
                {"name": "task_id", "in": "path", "required": True, "description": "Task name.",
                 "schema": {"type": "string"}},
            ],
            "responses": _answer(
                {
                    "type": "object",
                    "properties": {
                        "content": {"type": "string"},
                        "current_size": {"type": "integer"},
                        "full_size": {"type": "integer"},
                    },
                }
            ),
        },
    }  # fmt: skip
    job_item = paths["/v2/{project_id}/training-jobs/{training_job_id}"]
    job_item["delete"] = {
        "operationId": "DeleteTrainingJob",
        "x-modelarts-role": "delete",
        "requestBody": {  # optional: some clients send {}
            "required": False,
            "content": {"application/json": {"schema": {"type": "object"}}},
        },
        "responses": {"202": {"description": "No Content"}},
    }
    job_item["put"] = {
        "operationId": "ChangeTrainingJobDescription",
        "x-modelarts-role": "describe",
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {
                "type": "object",
                "properties": {"description": {"type": "string", "maxLength": 256}},
            }}},
        },
        "responses": {"200": {"description": "No Content"}},
    }  # fmt: skip
    paths["/v2/{project_id}/training-job-flavors"] = {
        "parameters": [PROJECT],
        "get": {
            "operationId": "ShowTrainingJobFlavors",
            "x-modelarts-role": "flavors",
            "parameters": [
                _query("flavor_type", {"type": "string", "enum": ["CPU", "GPU", "Ascend"]},
                       "Flavor type."),
            ],
            "responses": _answer(
                {"type": "object", "properties": {"total_count": {"type": "integer"}}}
            ),
        },
    }  # fmt: skip
    return document


def write_family_spec(directory: Path, **options: bool) -> Path:
    path = directory / "family.yaml"
    path.write_text(
        yaml.safe_dump(family_document(**options), sort_keys=False, allow_unicode=True),
        encoding="utf-8",
    )
    return path
