"""Specs of other editions, written from today's: fewer or more operations than it has.

- :func:`first_edition_spec`: only the three operations every spec has (create, show,
  terminate), as older users' specs are: the client check, the mock and the proxy must work
  on it.
- :func:`paged_spec`: the first edition with two paged operations shaped as the vendor's pages
  shape them, whatever today's spec has: a search with ``limit`` (1-50) and ``offset`` in its
  JSON body (role ``list``) and an events query with ``limit`` (1-100, default 50) and
  ``offset`` in the query string (role ``events``). Their entries are small objects, so answers
  draw fast.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from modelarts_kit_spec import SPEC_PATH, Spec, load_spec
from modelarts_kit_spec.role import CORE_ROLES

from tests.yaml_files import dump_yaml, load_yaml

SEARCH_PATH = "/v2/{project_id}/paged-test-searches"
EVENTS_PATH = "/v2/{project_id}/training-jobs/{training_job_id}/paged-test-events"
SEARCH_ID = "PagedTestSearch"
EVENTS_ID = "PagedTestEvents"
METHODS = ("get", "put", "post", "delete", "patch", "head", "options")

_ENTRY = {
    "type": "object",
    "properties": {"name": {"type": "string", "maxLength": 8}, "level": {"type": "string"}},
    "required": ["name"],
}


def _document() -> dict[str, Any]:
    loaded: dict[str, Any] = load_yaml(SPEC_PATH.read_text(encoding="utf-8"))
    return loaded


def _write(tmp_path: Path, document: dict[str, Any], name: str) -> Spec:
    path = tmp_path / name
    path.write_text(dump_yaml(document, sort_keys=False), encoding="utf-8")
    return load_spec(path)


def first_edition_spec(tmp_path: Path) -> Spec:
    """Today's spec without every operation whose role is not one of the three core roles."""
    return _write(tmp_path, _first_edition(), "first-edition.yaml")


def _first_edition() -> dict[str, Any]:
    document = _document()
    core = {str(role) for role in CORE_ROLES}
    for path, item in list(document["paths"].items()):
        for method in METHODS:
            operation = item.get(method)
            if isinstance(operation, dict) and operation.get("x-modelarts-role") not in core:
                del item[method]
        if not any(method in item for method in METHODS):
            del document["paths"][path]
    return document


def _error_responses(document: dict[str, Any]) -> dict[str, Any]:
    """The show operation's documented errors (its 400 included), for the paged operations."""
    for item in document["paths"].values():
        for method in METHODS:
            operation = item.get(method)
            if isinstance(operation, dict) and operation.get("x-modelarts-role") == "show":
                return {
                    status: copy.deepcopy(response)
                    for status, response in operation["responses"].items()
                    if status != "200"
                }
    raise AssertionError("today's spec has no show operation")


def _page(limit: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "total": {"type": "integer", "minimum": 0},
            "limit": limit,
            "offset": {"type": "integer", "minimum": 0},
            "items": {"type": "array", "items": _ENTRY},
        },
    }


def _paging(location: str, limit: dict[str, Any]) -> dict[str, Any]:
    """The operation's ``x-modelarts-paging``: the one place that says it pages."""
    evidence = [{"page": "family/test.rst", "locator": "Table 2", "quote": "limit"}]
    bounds = {k: limit[k] for k in ("minimum", "maximum", "default") if k in limit}
    return {
        "in": location,
        "items": "items",
        "offset": {"field": "offset", "counts": "items", "minimum": 0, "evidence": evidence},
        "limit": {"field": "limit", **bounds, "evidence": evidence},
        "total": {"field": "total", "counts": "matching", "evidence": evidence},
    }


def paged_spec(tmp_path: Path) -> Spec:
    document = _first_edition()
    errors = _error_responses(document)
    project = {"$ref": "#/components/parameters/project_id"}
    job = {"$ref": "#/components/parameters/training_job_id"}
    search_limit = {"type": "integer", "minimum": 1, "maximum": 50}
    events_limit = {"type": "integer", "minimum": 1, "maximum": 100, "default": 50}
    offset = {"type": "integer", "minimum": 0}
    document["paths"][SEARCH_PATH] = {
        "parameters": [project],
        "post": {
            "operationId": SEARCH_ID,
            "x-modelarts-role": "list",
            "x-modelarts-paging": _paging("body", search_limit),
            "summary": "Search (a test operation).",
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "properties": {"limit": search_limit, "offset": offset},
                        }
                    }
                },
            },
            "responses": {
                "200": {
                    "description": "One page.",
                    "content": {"application/json": {"schema": _page(search_limit)}},
                },
                **errors,
            },
        },
    }
    document["paths"][EVENTS_PATH] = {
        "parameters": [project, job],
        "get": {
            "operationId": EVENTS_ID,
            "x-modelarts-role": "events",
            "x-modelarts-paging": _paging("query", events_limit),
            "summary": "Events (a test operation).",
            "parameters": [
                {"name": "limit", "in": "query", "required": False, "schema": events_limit},
                {"name": "offset", "in": "query", "required": False, "schema": offset},
            ],
            "responses": {
                "200": {
                    "description": "One page.",
                    "content": {"application/json": {"schema": _page(events_limit)}},
                },
                **errors,
            },
        },
    }
    return _write(tmp_path, document, "paged.yaml")
