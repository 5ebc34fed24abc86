"""The interpretation layer: documented values, the schema walker, route matching, and the
roles / lifecycle / error model / guidance read from the spec's extensions."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from modelarts_kit_spec import load_spec, parse_spec
from modelarts_kit_spec.load import Spec
from modelarts_kit_spec.meaning import MeaningError, meaning_problems, read_meaning
from modelarts_kit_spec.role import CORE_ROLES
from modelarts_kit_spec.routes import match_path, match_route
from modelarts_kit_spec.values import DocumentedValues, documented_values, open_enum_schema
from modelarts_kit_spec.walker import SchemaWalker, iter_schemas, json_types

JSON = Any
REPO = Path(__file__).resolve().parents[2]
ERROR_TABLE = REPO / "spec" / "sources" / "reference" / "error_codes.rst"


@pytest.fixture(scope="module")
def spec() -> Spec:
    return load_spec()


def mutated(spec: Spec, change: Any) -> Spec:
    document = copy.deepcopy(spec.document)
    change(document)
    return parse_spec(document, spec.path)


# -- documented values -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        ({"type": "string", "enum": ["a", "b"]}, DocumentedValues(("a", "b"), open=False)),
        ({"const": "a"}, DocumentedValues(("a",), open=False)),
        ({"enum": ["a", None]}, DocumentedValues(("a",), open=False, nullable=True)),
        (open_enum_schema(["x", "y"]), DocumentedValues(("x", "y"), open=True)),
        (
            open_enum_schema(["x"], nullable=True),
            DocumentedValues(("x",), open=True, nullable=True),
        ),
        ({"anyOf": [{"enum": ["a"]}, {"enum": ["b"]}]}, None),  # closed union: not one list
        ({"anyOf": [{"enum": ["a"]}, {"type": "integer"}]}, None),
        ({"anyOf": [{"enum": ["a"]}, {"type": "string", "pattern": "^x"}]}, None),
        ({"type": "string"}, None),
        ({"enum": [1, 2]}, None),  # not string values
        ({"$ref": "#/components/schemas/X"}, None),  # refs are the caller's to follow
    ],
)
def test_documented_values(node: JSON, expected: DocumentedValues | None) -> None:
    assert documented_values(node) == expected


@given(
    values=st.lists(st.text(min_size=1, max_size=8), min_size=1, max_size=5, unique=True),
    nullable=st.booleans(),
    candidate=st.one_of(st.none(), st.text(max_size=8), st.integers(), st.booleans()),
)
def test_accepts_agrees_with_a_standard_validator(
    values: list[str], nullable: bool, candidate: object
) -> None:
    for node in (open_enum_schema(values, nullable=nullable), {"enum": [*values, None]}):
        found = documented_values(node)
        assert found is not None
        valid = Draft202012Validator(node).is_valid(candidate)
        assert found.accepts(candidate) == valid
    # open: a value outside the list is still valid; the list is visible
    opened = documented_values(open_enum_schema(values))
    assert opened is not None
    assert opened.open
    assert opened.values == tuple(values)


def test_every_open_enum_of_the_spec_is_on_a_response_only_field(spec: Spec) -> None:
    open_nodes = {
        pointer
        for pointer, node in iter_schemas(spec.document)
        if (found := documented_values(node)) is not None and found.open
    }
    assert "/components/schemas/Status/properties/secondary_phase" in open_nodes
    assert "/components/schemas/JobResponse/properties/kind" in open_nodes
    request_pointers: set[str] = set()
    for operation in spec.operations:
        if operation.request_schema is not None:
            request_pointers |= _reachable_pointers(spec, operation.request_schema)
    # RemoteConstraint is in Input, which requests share: its values document the response.
    shared = {"/components/schemas/RemoteConstraint/properties/attributes"}
    assert (open_nodes & request_pointers) <= shared


def _reachable_pointers(spec: Spec, root: JSON) -> set[str]:
    found: set[str] = set()
    pending = [root]
    seen: set[str] = set()
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref not in seen:
                seen.add(ref)
                base = ref.removeprefix("#")
                found |= {p for p, _ in _subschemas(spec.at(ref), base)}
                pending.append(spec.at(ref))
            pending.extend(v for k, v in node.items() if k != "$ref")
        elif isinstance(node, list):
            pending.extend(node)
    return found


def _subschemas(node: JSON, base: str) -> list[tuple[str, JSON]]:
    from modelarts_kit_spec.walker import iter_subschemas

    return list(iter_subschemas(node, base))


# -- the walker --------------------------------------------------------------------------------

WALK_DOC: JSON = {
    "components": {
        "schemas": {
            "Base": {"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}},
            "Both": {
                "allOf": [
                    {"$ref": "#/components/schemas/Base"},
                    {"required": ["b"], "properties": {"b": {"$ref": "#/components/schemas/B"}}},
                ],
                "description": "merged",
            },
            "B": {"type": "array",
                  "items": {"type": "object", "properties": {"c": open_enum_schema(["x"])}}},
        }
    }
}  # fmt: skip


def test_walker_follows_refs_and_merges_all_of() -> None:
    walker = SchemaWalker(WALK_DOC)
    view = walker.view({"$ref": "#/components/schemas/Both"})
    assert view.ref_name == "Both"
    assert view.pointer == "/components/schemas/Both"
    assert set(view.properties) == {"a", "b"}
    assert view.required == {"a", "b"}
    assert view.types == {"object"}
    assert view.schema["description"] == "merged"
    c = walker.at_path({"$ref": "#/components/schemas/Both"}, "b[].c")
    assert c is not None
    assert c.documented == DocumentedValues(("x",), open=True)
    same = walker.at_pointer({"$ref": "#/components/schemas/Both"}, "/b/0/c")
    assert same is not None
    assert same.schema == c.schema
    assert walker.at_path({"$ref": "#/components/schemas/Both"}, "nope") is None


def test_walker_keeps_where_each_property_is_declared() -> None:
    """A property inherited through allOf lives in the part that declares it, not under the
    node that merged it (``/components/schemas/Both/properties/a`` does not exist)."""
    walker = SchemaWalker(WALK_DOC)
    view = walker.view({"$ref": "#/components/schemas/Both"})
    assert view.property_pointers == {
        "a": "/components/schemas/Base/properties/a",
        "b": "/components/schemas/Both/allOf/1/properties/b",
    }
    a = walker.property(view, "a")
    assert a is not None
    assert a.pointer == "/components/schemas/Base/properties/a"
    b = walker.property(view, "b")
    assert b is not None
    assert (b.pointer, b.ref_name) == ("/components/schemas/B", "B")
    assert view.keyword_pointer("description") == "/components/schemas/Both/description"


ALTERNATIVES_DOC: JSON = {
    "components": {
        "schemas": {
            "Text": {"type": "object", "properties": {"en": {"type": "string"}}},
            "Described": {
                "description": "text, or text per language",
                "oneOf": [{"$ref": "#/components/schemas/Text"},
                          {"type": "string", "format": "byte"}],
            },
        }
    }
}  # fmt: skip


def test_walker_views_alternatives_when_asked() -> None:
    walker = SchemaWalker(ALTERNATIVES_DOC)
    node = {"$ref": "#/components/schemas/Described"}
    plain = walker.view(node)
    assert plain.branches == ()
    assert plain.properties == {}
    both = walker.view(node, alternatives=True)
    assert set(both.properties) == {"en"}
    assert both.property_pointers == {"en": "/components/schemas/Text/properties/en"}
    assert both.types == {"object", "string"}  # through the $ref'd branch
    assert [b.pointer for b in both.branches] == [
        "/components/schemas/Text",
        "/components/schemas/Described/oneOf/1",
    ]
    assert both.find("format") == ("byte", "/components/schemas/Described/oneOf/1/format")
    assert both.find("items") is None
    assert json_types(walker.view(node).schema) >= {"array"}  # a $ref'd branch: any type


@pytest.mark.parametrize(
    ("node", "types"),
    [
        ({"type": ["string", "null"]}, {"string", "null"}),
        ({"enum": ["a", 1, None]}, {"string", "integer", "null"}),
        (open_enum_schema(["a"]), {"string"}),
        ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, {"integer", "null"}),
        ({"properties": {}}, {"object"}),
    ],
)
def test_json_types(node: JSON, types: set[str]) -> None:
    assert json_types(node) == types


def test_walker_reports_a_ref_cycle() -> None:
    doc = {"a": {"$ref": "#/b"}, "b": {"$ref": "#/a"}}
    with pytest.raises(Exception, match="cycle"):
        SchemaWalker(doc).view({"$ref": "#/a"})


# -- route matching ----------------------------------------------------------------------------

CREATE_PATH = "/v2/{project_id}/training-jobs"
SHOW_PATH = "/v2/{project_id}/training-jobs/{training_job_id}"
STOP_PATH = SHOW_PATH + "/actions"
SEGMENT = st.text(st.characters(exclude_characters="/?", codec="utf-8"), max_size=12)


@given(project=SEGMENT, job=SEGMENT)
def test_match_path_decodes_any_segment_value(project: str, job: str) -> None:
    path = f"/v2/{quote(project, safe='')}/training-jobs/{quote(job, safe='')}/actions"
    assert match_path(STOP_PATH, path) == {"project_id": project, "training_job_id": job}
    assert match_path(SHOW_PATH, path) is None  # one segment more


def test_route_rules(spec: Spec) -> None:
    create = spec.match("POST", "/v2//training-jobs")  # empty segment: the parameter's business
    assert create is not None
    assert create.operation is not None
    assert create.operation.path == CREATE_PATH
    assert create.path_params == {"project_id": ""}
    encoded = spec.match("GET", "/v2/p/training-jobs/a%2Fb")  # %2F never splits
    assert encoded is not None
    assert encoded.path_params["training_job_id"] == "a/b"
    wrong = spec.match("PATCH", "/v2/p/training-jobs/j")
    assert wrong is not None
    assert wrong.operation is None
    assert wrong.allowed_methods == ("GET", "PUT", "DELETE")
    assert spec.match("GET", "/v2/p/training-jobs/j/actions/x") is None
    assert spec.match("GET", "/v2/p/Training-Jobs/j") is None  # literals are case-sensitive
    assert spec.match("get", "/v2/p/training-jobs/j?x=1") is not None  # the query is not the path


def test_more_literal_segments_win(spec: Spec) -> None:
    literal = spec.operation("ShowTrainingJobDetails")
    templated = type(literal)(**{**literal.__dict__, "path": "/v2/{a}/{b}/{c}"})
    found = match_route([templated, literal], "GET", "/v2/p/training-jobs/j")
    assert found is not None
    assert found.operation is literal
    other = match_route([templated, literal], "GET", "/v2/p/other/j")
    assert other is not None
    assert other.operation is templated


# -- roles and lifecycle -----------------------------------------------------------------------


def test_roles(spec: Spec) -> None:
    roles = spec.meaning.roles
    assert (roles.create.operation_id, roles.show.operation_id, roles.terminate.operation_id) == (
        "CreateTrainingJob",
        "ShowTrainingJobDetails",
        "StopTrainingJob",
    )
    assert roles.job_id_field == "/metadata/id"
    assert roles.job_id_parameter == "training_job_id"
    assert roles.terminate_body == {"action_type": "terminate"}
    assert roles.role_of("StopTrainingJob") == "terminate"


def test_lifecycle(spec: Spec) -> None:
    life = spec.meaning.lifecycle
    phase_enum = spec.at("/components/schemas/Status/properties/phase")["enum"]
    assert life.phases == tuple(phase_enum)
    assert not life.phases_open
    assert life.normal_course == ("Creating", "Pending", "Running", "Completed")
    assert life.stop_course == ("Terminating", "Terminated")
    assert life.terminable == {"Creating", "Pending", "Running"}
    assert life.final == {"Completed", "Failed", "Terminated", "Abnormal"}
    assert life.endings("Running") == ("Completed", "Failed", "Abnormal")
    assert life.reachable("Terminating") == {"Terminating", "Terminated", "Abnormal"}
    assert "Lost" in life.secondary_phases
    for phase in life.phases:
        assert set(life.secondary_of[phase]) <= set(life.secondary_phases)


def _lifecycle(document: JSON) -> JSON:
    return document["x-modelarts-lifecycle"]


@pytest.mark.parametrize(
    ("change", "pointer", "words"),
    [
        (lambda d: _lifecycle(d).update(final=["Completed", "Gone"]), "/final", "'Gone'"),
        (lambda d: _lifecycle(d)["transitions"].update(Completed=["Running"]),
         "/transitions/Completed", "final phase"),
        (lambda d: _lifecycle(d)["transitions"]["Running"].append("Nowhere"),
         "/transitions/Running", "'Nowhere'"),
        (lambda d: _lifecycle(d).update(terminable=["Completed"]), "/terminable", "final phase"),
        (lambda d: _lifecycle(d)["secondary-phases"].update(Running=["Sprinting"]),
         "/secondary-phases/Running", "'Sprinting'"),
        (lambda d: _lifecycle(d).update(initial="Running"), "/transitions", "cannot be reached"),
        (lambda d: _lifecycle(d).update({"job-id": {"field": "/metadata/nope",
                                                    "parameter": "training_job_id"}}),
         "/job-id", "not a field"),
        (lambda d: _lifecycle(d).update({"terminate-body": {"action_type": "restart"}}),
         "/terminate-body", "not a valid terminate request"),
    ],
)  # fmt: skip
def test_lifecycle_problems(spec: Spec, change: Any, pointer: str, words: str) -> None:
    problems = meaning_problems(mutated(spec, change))
    assert any(
        p.pointer == "/x-modelarts-lifecycle" + pointer and words in p.message for p in problems
    ), problems
    with pytest.raises(MeaningError):
        read_meaning(mutated(spec, change))


def test_role_problems(spec: Spec) -> None:
    def twice(document: JSON) -> None:
        document["paths"][SHOW_PATH]["get"]["x-modelarts-role"] = "create"

    messages = [p.message for p in meaning_problems(mutated(spec, twice))]
    assert any("already CreateTrainingJob's" in m for m in messages)
    assert any("no operation has x-modelarts-role: show" in m for m in messages)


def test_optional_roles_are_read_where_the_spec_has_them(spec: Spec) -> None:
    """The three core roles are required; the others (list, delete, ...) only name operations."""
    assert spec.meaning.roles.get("create") is spec.meaning.roles.create

    assert spec.meaning.roles.get("list") is spec.operation("ListTrainingJobs")

    def listing(document: JSON) -> None:
        for item in document["paths"].values():  # back to a spec of the three core roles
            for op in item.values():
                if isinstance(op, dict) and op.get("x-modelarts-role") not in CORE_ROLES:
                    op.pop("x-modelarts-role", None)
        operation = copy.deepcopy(document["paths"][SHOW_PATH]["get"])
        operation.update({"operationId": "ListSomething", "x-modelarts-role": "list"})
        document["paths"]["/v2/{project_id}/somethings"] = {"get": operation}

    roles = mutated(spec, listing).meaning.roles
    listed = roles.get("list")
    assert listed is not None
    assert listed.operation_id == "ListSomething"
    assert roles.role_of("ListSomething") == "list"
    assert roles.get("delete") is None

    def unknown(document: JSON) -> None:
        document["paths"][SHOW_PATH]["get"]["x-modelarts-role"] = "rename"

    messages = [p.message for p in meaning_problems(mutated(spec, unknown))]
    assert any("role 'rename' is not one of" in m for m in messages)


# -- the error model ---------------------------------------------------------------------------


def test_error_model(spec: Spec) -> None:
    errors = spec.meaning.errors
    assert errors.codes_for("StopTrainingJob", "unsupported-action") == {
        "ModelArts.2812",
        "ModelArts.2788",
        "ModelArts.0104",
    }
    assert "ModelArts.0104" in errors.codes_for("CreateTrainingJob", "invalid-parameter")
    assert errors.accepts("CreateTrainingJob", 400, "ModelArts.0104", "invalid-parameter")
    assert not errors.accepts("CreateTrainingJob", 400, "ModelArts.2812", "invalid-parameter")
    assert not errors.accepts("CreateTrainingJob", 404, "ModelArts.0104")
    assert errors.statuses_for("ShowTrainingJobDetails", "project-mismatch") == {403, 404}
    assert errors.preferred("StopTrainingJob", "not-terminable").code == "ModelArts.2796"
    assert errors.preferred("ShowTrainingJobDetails", "not-found").status == 400
    assert errors.gateway_error("method-not-allowed").status == 405
    for operation in spec.operations:
        for response in operation.responses:
            if response.status.startswith("2"):
                continue
            assert errors.codes(operation.operation_id, response.status), response.pointer


@pytest.mark.parametrize(
    ("code", "words"),
    [("ModelArts.9999", "not in x-modelarts-error-catalogue"), ("ModelArts.2796", "not 400"),
     ("Bogus.1", "is not ModelArts.NNNN")],
)  # fmt: skip
def test_error_code_problems(spec: Spec, code: str, words: str) -> None:
    def change(document: JSON) -> None:
        codes = document["paths"][SHOW_PATH]["get"]["responses"]["400"]["x-modelarts-error-codes"]
        codes["not-found"].append(code)

    problems = meaning_problems(mutated(spec, change))
    assert any(words in p.message for p in problems), problems


def _vendor_rows() -> dict[tuple[str, int], tuple[str, str, str]]:
    rows: dict[tuple[str, int], tuple[str, str, str]] = {}
    cells: list[str] | None = None
    for line in ERROR_TABLE.read_text(encoding="utf-8").splitlines():
        if line.startswith("+"):
            if cells and cells[1].startswith("ModelArts."):
                joined = [" ".join(c.split()) for c in cells]
                rows[(joined[1], int(joined[0]))] = (joined[2], joined[3], joined[4])
            cells = None
        elif line.startswith("|"):
            parts = [c.strip() for c in line.strip().strip("|").split("|")]
            pairs = zip(cells or parts, parts, strict=False)
            cells = parts if cells is None else [f"{a} {b}" for a, b in pairs]
    return rows


def test_the_catalogue_is_the_vendor_table(spec: Spec) -> None:
    vendor = _vendor_rows()
    assert len(vendor) > 800  # the whole table was read
    for entry in spec.meaning.errors.catalogue:
        assert vendor[(entry.code, entry.status)] == (entry.name, entry.message, entry.solution)


def test_the_error_descriptions_name_only_listed_codes(spec: Spec) -> None:
    for operation in spec.operations:
        for response in operation.responses:
            named = set(re.findall(r"ModelArts\.\d{4}", response.description))
            listed = spec.meaning.errors.codes(operation.operation_id, response.status)
            assert named <= listed, (response.pointer, named - listed)


# -- guidance and obligations ------------------------------------------------------------------


def test_obligations_drop_only_guidance(spec: Spec) -> None:
    obligations = spec.obligations()
    action = spec.operation("StopTrainingJob").request_schema
    extra = {"action_type": "terminate", "reason": "ignored by lenient servers"}
    assert not spec.validator(action).is_valid(extra)
    assert obligations.validator(action).is_valid(extra)
    assert not obligations.validator(action).is_valid({"action_type": "restart"})  # enum stays
    both = {"engine_id": "e", "image_url": "i"}
    engine = {"$ref": "#/components/schemas/JobEngine"}
    assert not spec.validator(engine).is_valid(both)
    assert obligations.validator(engine).is_valid(both)
    assert "x-modelarts-guidance" not in str(obligations.document)
    for rule in spec.meaning.guidance.rules:
        assert rule.keyword in spec.at(rule.pointer)
        # Gone, or (minimum, maximum of an integer) only the range its format states.
        kept = obligations.at(rule.pointer).get(rule.keyword, "gone")
        assert kept in ("gone", -(2**31), 2**31 - 1, -(2**63), 2**63 - 1), rule
        assert kept != spec.at(rule.pointer)[rule.keyword], rule


def test_each_guidance_rule_has_a_ledger_entry(spec: Spec) -> None:
    from modelarts_kit_spec.ledger import read_ledger

    entries = {
        (entry.pointer, keyword)
        for entry in read_ledger().entries
        if entry.kind == "guidance" and entry.expect is not None
        for keyword in entry.expect.get("x-modelarts-guidance", [])
    }
    rules = {(r.pointer, r.keyword) for r in spec.meaning.guidance.rules}
    assert rules == entries


def test_guidance_keyword_must_exist(spec: Spec) -> None:
    def change(document: JSON) -> None:
        document["components"]["schemas"]["Job"]["x-modelarts-guidance"] = ["oneOf"]

    problems = meaning_problems(mutated(spec, change))
    assert any("'oneOf' is not a keyword" in p.message for p in problems)
