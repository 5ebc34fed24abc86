"""Versions by who breaks (issue 33): additive -> minor, breaking a client or more than an
addition for servers -> major, descriptions only -> patch."""

from __future__ import annotations

import copy
from typing import Any

from modelarts_kit_spec.diff import audience, diff_documents, release_level

BASE: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "t", "version": "1.0.0"},
    "paths": {
        "/jobs": {
            "post": {
                "operationId": "CreateJob",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "description": {"type": "string", "maxLength": 256},
                                    "kind": {"type": "string", "enum": ["job"]},
                                },
                            }
                        }
                    },
                },
                "responses": {"201": {"description": "created"}},
            }
        }
    },
}


def _level(edit: Any) -> tuple[str, str]:
    new = copy.deepcopy(BASE)
    edit(new["paths"]["/jobs"]["post"]["requestBody"]["content"]["application/json"]["schema"])
    changes = diff_documents(BASE, new)
    return release_level(changes), audience(changes)


def test_an_optional_request_field_is_minor() -> None:
    level, who = _level(lambda s: s["properties"].update(log_level={"type": "string"}))
    assert level == "minor"
    assert who.startswith("servers, to implement what is new")


def test_a_new_request_value_is_minor() -> None:
    assert _level(lambda s: s["properties"]["kind"]["enum"].append("hetero_job"))[0] == "minor"


def test_a_required_request_field_breaks_clients_major() -> None:
    def edit(schema: Any) -> None:
        schema["properties"]["name"] = {"type": "string"}
        schema["required"] = ["name"]

    assert _level(edit) == ("major", "clients and servers")


def test_a_loosened_request_limit_is_major_for_servers() -> None:
    # 256 -> 512: old servers reject what new clients may send.
    level, who = _level(lambda s: s["properties"]["description"].update(maxLength=512))
    assert (level, who) == ("major", "servers")


def test_a_description_only_change_is_patch() -> None:
    level, who = _level(lambda s: s["properties"]["description"].update(description="Words."))
    assert (level, who) == ("patch", "nobody")


def test_evidence_that_changed_alone_is_patch() -> None:
    from modelarts_kit_spec.diff.model import Change

    quotes = Change("evidence-changed", "(document)", "", "/x", None, None, False, False, "words")
    assert release_level([quotes]) == "patch"
    assert audience([quotes]) == "nobody"
