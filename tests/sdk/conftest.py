"""Fixtures for the SDK tests: a small spec in the kit's shape."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml


def small_spec_document() -> dict[str, Any]:
    """One operation, CreateThing: a request body and a 201 response, with the shapes the
    unit tests need (nested object, array of objects, map of objects, a shared schema)."""
    return {
        "openapi": "3.1.0",
        "info": {"title": "small", "version": "1.0.0"},
        "paths": {
            "/v1/{project_id}/things": {
                "parameters": [
                    {
                        "name": "project_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                "post": {
                    "operationId": "CreateThing",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}
                        },
                    },
                    "responses": {
                        "201": {
                            "description": "created",
                            "content": {
                                "application/json": {
                                    "schema": {"$ref": "#/components/schemas/ThingResponse"}
                                }
                            },
                        }
                    },
                },
            }
        },
        "components": {
            "schemas": {
                "Thing": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "size": {"type": "integer"},
                        "inner": {"$ref": "#/components/schemas/Inner"},
                        "parts": {"type": "array", "items": {"$ref": "#/components/schemas/Part"}},
                        "named": {
                            "type": "object",
                            "additionalProperties": {"$ref": "#/components/schemas/Part"},
                        },
                    },
                },
                "ThingResponse": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "parts": {"type": "array", "items": {"$ref": "#/components/schemas/Part"}},
                        "phase": {"anyOf": [{"enum": ["Running", "Failed"]}, {"type": "string"}]},
                    },
                },
                "Inner": {"type": "object", "properties": {"depth": {"type": "integer"}}},
                "Part": {"type": "object", "properties": {"label": {"type": "string"}}},
            }
        },
    }


@pytest.fixture
def small_spec(tmp_path: Path) -> Path:
    folder = tmp_path / "spec"
    folder.mkdir()
    path = folder / "openapi.yaml"
    path.write_text(yaml.safe_dump(small_spec_document(), sort_keys=False), encoding="utf-8")
    return path
