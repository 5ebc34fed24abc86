"""The HTML reference's content, checked on a small fixture spec without a browser."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
import yaml
from modelarts_kit_publish import publish_spec

JSON = Any

SPEC: JSON = {
    "openapi": "3.1.0",
    "info": {"title": "Fixture <API>", "version": "2.0.0", "description": "Line one\nline two."},
    "security": [{"token": []}],
    "paths": {
        "/v2/{project_id}/jobs": {
            "parameters": [
                {
                    "name": "project_id",
                    "in": "path",
                    "required": True,
                    "description": "Project.",
                    "schema": {"type": "string", "pattern": "^[a-z0-9]+$"},
                }
            ],
            "post": {
                "operationId": "CreateJob",
                "summary": "Create a job.",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "description": "Inline request.",
                                "required": ["metadata"],
                                "properties": {
                                    "metadata": {
                                        "type": "object",
                                        "description": "Metadata <b>bold</b>.",
                                        "properties": {
                                            "name": {
                                                "type": "string",
                                                "description": "Name.",
                                                "maxLength": 64,
                                            }
                                        },
                                    },
                                    "params": {
                                        "type": "array",
                                        "description": "Parameters.",
                                        "items": {
                                            "type": "object",
                                            "properties": {
                                                "value": {"type": "string", "description": "V."}
                                            },
                                        },
                                    },
                                },
                            },
                            "example": {"metadata": {"name": "a"}},
                        }
                    },
                },
                "responses": {
                    "201": {
                        "description": "Created.",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Job"}}
                        },
                        "links": {
                            "Show": {
                                "operationId": "ShowJob",
                                "parameters": {"job_id": "$response.body#/id"},
                            }
                        },
                    },
                    "400": {
                        "description": "Unknown job (ModelArts.2775) or bad parameter.",
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/Error"},
                                "examples": {
                                    "bad": {
                                        "value": {
                                            "error_code": "ModelArts.2788",
                                            "error_msg": "Invalid parameter.",
                                        }
                                    }
                                },
                            }
                        },
                    },
                    "429": {
                        "description": "Too many requests (ModelArts.2799).",
                        "headers": {
                            "Retry-After": {
                                "required": True,
                                "description": "Seconds.",
                                "schema": {"type": "integer"},
                            }
                        },
                    },
                },
            },
        },
        "/v2/{project_id}/jobs/{job_id}": {
            "get": {
                "operationId": "ShowJob",
                "parameters": [
                    {"name": "project_id", "in": "path", "required": True, "schema": {}},
                    {"name": "job_id", "in": "path", "required": True, "schema": {}},
                ],
                "responses": {
                    "200": {
                        "description": "The job.",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Job"}}
                        },
                    }
                },
            }
        },
    },
    "components": {
        "securitySchemes": {"token": {"type": "apiKey", "in": "header", "name": "X-Auth-Token"}},
        "schemas": {
            "Job": {
                "type": "object",
                "description": "A job.",
                "properties": {
                    "id": {"type": "string", "description": "Id."},
                    "status": {"$ref": "#/components/schemas/Status"},
                    "tags": {"type": "array", "items": {"$ref": "#/components/schemas/Status"}},
                },
            },
            "Status": {
                "type": "object",
                "description": "Status.",
                "properties": {
                    "start_time": {"type": "integer", "format": "int64", "description": "ms."}
                },
            },
            "Error": {
                "type": "object",
                "description": "Error.",
                "properties": {"error_code": {"type": "string", "description": "Code."}},
            },
        },
    },
}

LEDGER: JSON = {
    "entries": [
        {
            "id": "status-start-time-type",
            "pointer": "/components/schemas/Status/properties/start_time",
            "field": "status.start_time",
            "side": "response",
            "operations": ["ShowJob"],
            "kind": "type",
            "sources": [{"seed": "001.txt", "table": "Table 5 Status", "says": "String"}],
            "decision": "integer int64",
            "expect": {"type": "integer"},
            "reason": "Examples show numbers.",
        },
        {
            "id": "create-name",
            "pointer": "/paths/~1v2~1{project_id}~1jobs/post/requestBody",
            "field": "metadata.name",
            "side": "request",
            "operations": ["CreateJob"],
            "kind": "constraint",
            "sources": [{"seed": "004.txt", "table": "Table 3", "says": "max 64"}],
            "decision": "maxLength 64",
            "expect": {"required": True},
            "reason": "Prose.",
        },
    ]
}


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.append(str(values["id"]))
        href = values.get("href")
        if tag == "a" and href and href.startswith("#"):
            self.hrefs.append(href[1:])


@pytest.fixture(scope="module")
def html(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("reference")
    (root / "openapi.yaml").write_text(yaml.safe_dump(SPEC, sort_keys=False), encoding="utf-8")
    (root / "ledger.yaml").write_text(yaml.safe_dump(LEDGER, sort_keys=False), encoding="utf-8")
    publish_spec(root / "out", spec_path=root / "openapi.yaml")
    return (root / "out" / "index.html").read_text(encoding="utf-8")


def test_every_internal_link_has_exactly_one_target(html: str) -> None:
    parser = Links()
    parser.feed(html)
    assert len(parser.ids) == len(set(parser.ids))
    assert parser.hrefs
    assert sorted(set(parser.hrefs) - set(parser.ids)) == []


def test_operations_parameters_inline_fields_and_links(html: str) -> None:
    assert 'id="op-CreateJob"' in html
    assert 'id="op-ShowJob"' in html
    assert "<code>metadata.name</code>" in html  # inline object expanded
    assert "<code>params[].value</code>" in html  # inline array items expanded
    assert 'array of <a href="#schema-Status">Status</a>' in html
    assert "string (int64)" not in html
    assert "integer (int64)" in html
    assert "pattern: ^[a-z0-9]+$" in html
    assert '<code>Show</code> → <a href="#op-ShowJob">ShowJob</a>' in html
    assert "<code>Retry-After</code>" in html


def test_error_codes_come_from_descriptions_and_examples(html: str) -> None:
    assert "<tr><td><code>ModelArts.2775</code></td><td>400</td>" in html
    assert "<tr><td><code>ModelArts.2799</code></td><td>429</td>" in html
    row = html.split("<code>ModelArts.2788</code>", 2)[-1].split("</tr>")[0]
    assert "Invalid parameter." in row


def test_ledger_links_to_the_field_row_or_operation(html: str) -> None:
    assert '<a href="#schema-Status-start_time"><code>' in html
    assert 'id="schema-Status-start_time"' in html
    assert '<a href="#op-CreateJob"><code>/paths/~1v2~1{project_id}~1jobs/post/requestBody' in html
    assert "001.txt · Table 5 Status · String" in html


def test_text_is_escaped_and_prose_lines_are_joined(html: str) -> None:
    assert "Fixture &lt;API&gt;" in html
    assert "Metadata &lt;b&gt;bold&lt;/b&gt;." in html
    assert "Line one line two." in html
