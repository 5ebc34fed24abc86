"""``x-modelarts-sensitive``: which values of the curated spec are secret, read in one place."""

from __future__ import annotations

import pytest
from modelarts_kit_spec import Spec, SpecError, load_spec
from modelarts_kit_spec.sensitive import (
    is_sensitive,
    marker_problems,
    sensitive_fields,
)
from modelarts_kit_spec.walker import SchemaWalker


@pytest.fixture(scope="module")
def spec() -> Spec:
    return load_spec()


def _fields(spec: Spec, operation_id: str, side: str) -> set[tuple[str, tuple[str, ...] | None]]:
    op = next(op for op in spec.operations if op.operation_id == operation_id)
    if side == "request":
        schema = op.request_schema
    else:
        schema = next(r.schema for r in op.responses if r.status.startswith("2"))
    return {(f.dotted(), f.when) for f in sensitive_fields(spec.walker, schema)}


def test_the_create_request_secrets(spec: Spec) -> None:
    assert _fields(spec, "CreateTrainingJob", "request") == {
        ("algorithm.environments", None),
        ("algorithm.parameters[].value", ("constraint", "sensitive")),
        ("tasks[].algorithm.job_config.parameters[].value", ("constraint", "sensitive")),
    }


def test_the_answer_secrets(spec: Spec) -> None:
    fields = _fields(spec, "ShowTrainingJobDetails", "response")
    assert {
        ("algorithm.environments", None),
        ("tasks[].algorithm.environments", None),
        ("endpoints.jupyter_lab.token", None),
        ("endpoints.tensorboard.token", None),
        ("endpoints.mindstudio_insight.token", None),
        ("algorithm.parameters[].value", ("constraint", "sensitive")),
    } <= fields
    assert fields == _fields(spec, "CreateTrainingJob", "response")


def test_the_curated_markers_are_well_formed(spec: Spec) -> None:
    assert list(marker_problems(spec.document)) == []


def test_is_sensitive_follows_the_flag(spec: Spec) -> None:
    create = next(o for o in spec.operations if o.operation_id == "CreateTrainingJob")
    fields = sensitive_fields(spec.walker, create.request_schema)
    body = {"algorithm": {"parameters": [
        {"name": "a", "value": "x", "constraint": {"sensitive": True}},
        {"name": "b", "value": "y", "constraint": {"sensitive": False}},
        {"name": "c", "value": "z"},
        {"name": "d", "value": "w", "constraint": {"sensitive": "yes"}},
    ], "environments": {"K": "v"}}}  # fmt: skip
    path = ("algorithm", "parameters")
    assert is_sensitive(fields, body, (*path, 0, "value"))
    assert not is_sensitive(fields, body, (*path, 1, "value"))
    assert not is_sensitive(fields, body, (*path, 2, "value"))
    assert is_sensitive(fields, body, (*path, 3, "value"))  # a flag that is not false: masked
    assert is_sensitive(fields, body, ("algorithm", "environments", "K"))
    assert is_sensitive(fields, body, ("algorithm", "environments"))
    assert not is_sensitive(fields, body, ("algorithm", "parameters", 0, "name"))
    # containers where a secret may be below are masked whole; scalars there hold nothing
    assert is_sensitive(fields, body, ("algorithm",))
    assert is_sensitive(fields, body, ())
    assert is_sensitive(fields, {"algorithm": ["x"]}, ("algorithm",))
    assert not is_sensitive(fields, {"algorithm": "x"}, ("algorithm",))
    assert not is_sensitive(fields, {"metadata": {"name": "n"}}, ("metadata",))


def _document(marker: object, holder_extra: dict[str, object] | None = None) -> dict[str, object]:
    return {
        "openapi": "3.1.0",
        "components": {
            "schemas": {
                "P": {
                    "type": "object",
                    "properties": {
                        "value": {"type": "string", "x-modelarts-sensitive": marker},
                        "flag": {"type": "boolean"},
                        "text": {"type": "string"},
                        **(holder_extra or {}),
                    },
                }
            }
        },
    }


@pytest.mark.parametrize(
    ("marker", "problem"),
    [
        (True, None),
        ({"when": "/flag"}, None),
        (False, "must be true or {when"),
        ("yes", "must be true or {when"),
        ({"when": "flag"}, "must be true or {when"),
        ({"when": "/flag", "also": 1}, "must be true or {when"),
        ({"when": "/text"}, "must name a boolean property"),
        ({"when": "/nowhere"}, "must name a boolean property"),
    ],
)
def test_malformed_markers_are_named(marker: object, problem: str | None) -> None:
    found = list(marker_problems(_document(marker)))
    if problem is None:
        assert found == []
    else:
        assert [p for p, _ in found] == [
            "/components/schemas/P/properties/value/x-modelarts-sensitive"
        ]
        assert problem in found[0][1]
    if problem is not None and problem.startswith("must be true"):
        document = _document(marker)
        with pytest.raises(SpecError, match="malformed x-modelarts-sensitive"):
            sensitive_fields(SchemaWalker(document), {"$ref": "#/components/schemas/P"})


def test_when_needs_a_property() -> None:
    document = {
        "openapi": "3.1.0",
        "components": {
            "schemas": {
                "L": {"type": "array", "items": {"type": "string", "x-modelarts-sensitive": {
                    "when": "/flag"}}},
            }
        },
    }  # fmt: skip
    found = list(marker_problems(document))
    assert found
    assert "on a property" in found[0][1]


def test_recursive_schemas_end() -> None:
    document = {
        "openapi": "3.1.0",
        "components": {
            "schemas": {
                "Node": {
                    "type": "object",
                    "properties": {
                        "secret": {"type": "string", "x-modelarts-sensitive": True},
                        "children": {
                            "type": "array",
                            "items": {"$ref": "#/components/schemas/Node"},
                        },
                    },
                }
            }
        },
    }
    fields = sensitive_fields(SchemaWalker(document), {"$ref": "#/components/schemas/Node"})
    assert [f.dotted() for f in fields] == ["secret"]
