"""The generator's typed IR (#37 item 1): a schema node joins the walker's view and the schema
model's strength; a property kind knows its annotation, imports, validators and strength; a
method's signature is typed arguments the templates print, and what an operation means is
resolved once."""

from __future__ import annotations

from pathlib import Path

import pytest
from modelarts_kit_generator import GeneratorOptions, build_ir
from modelarts_kit_generator.ir.model import DEADLINE_ARGUMENT, ArgumentIR, SignatureIR
from modelarts_kit_generator.ir.properties import (
    AnyProperty,
    BooleanProperty,
    EnumProperty,
    FloatProperty,
    IntProperty,
    ListProperty,
    ObjectProperty,
    SchemaNode,
    StringProperty,
)
from modelarts_kit_generator.ir.resolved import resolve
from modelarts_kit_spec import Spec, load_spec
from modelarts_kit_spec.meaning import Role
from modelarts_kit_spec.schemamodel import Strength

PETSTORE_SPEC = Path(__file__).parent / "fixtures" / "petstore.yaml"


@pytest.fixture(scope="module")
def spec() -> Spec:
    return load_spec()


@pytest.mark.parametrize(
    ("schema", "kind", "annotation", "imports"),
    [
        ({"type": "string"}, StringProperty, "str", set()),
        ({"type": "integer"}, IntProperty, "int", set()),
        ({"type": "number"}, FloatProperty, "float", set()),
        ({"type": ["boolean", "null"]}, BooleanProperty, "bool", set()),
        ({"enum": ["a", 1, None]}, EnumProperty, "Literal['a', 1, None]", {"Literal"}),
        ({"enum": [1.5]}, AnyProperty, "Any", {"Any"}),  # a float is no Literal: the type then
        ({"type": "array", "items": {"type": "string"}}, ListProperty, "list[str]", set()),
        ({"type": "array"}, ListProperty, "list[Any]", {"Any"}),
        ({"type": "object", "properties": {"a": {}}}, ObjectProperty, "Mapping[str, Any]", {"Any"}),
        ({"type": "object"}, ObjectProperty, "Any", {"Any"}),  # a bare map
        ({"type": ["string", "integer"]}, AnyProperty, "Any", {"Any"}),
        ({}, AnyProperty, "Any", {"Any"}),
    ],
)
def test_one_property_kind_per_kind_of_value(
    spec: Spec, schema: dict[str, object], kind: type, annotation: str, imports: set[str]
) -> None:
    prop = SchemaNode.of(spec, schema).property()
    assert type(prop) is kind
    assert prop.annotation == annotation
    assert prop.imports == imports


def test_a_node_follows_refs_and_merges_all_of_through_the_walker(spec: Spec) -> None:
    merged = {"allOf": [{"type": "integer"}, {"minimum": 1}]}
    prop = SchemaNode.of(spec, merged).property()
    assert isinstance(prop, IntProperty)
    assert [(v.keyword, v.value) for v in prop.validators] == [("minimum", 1)]


def test_validators_carry_the_schema_models_strength(spec: Spec) -> None:
    ir = build_ir(spec, GeneratorOptions())
    events = next(op for op in ir.operations if op.operation_id == "ListTrainingJobEvents")
    order = next(p for p in events.parameters if p.wire_name == "order")
    assert isinstance(order.kind, EnumProperty)
    assert order.annotation == "Literal['asc', 'desc']"
    assert [(v.keyword, v.strength) for v in order.kind.validators] == [("enum", Strength.GUIDANCE)]
    assert order.kind.strength == Strength.GUIDANCE
    limit = next(p for p in events.parameters if p.wire_name == "limit")
    assert limit.kind.strength == Strength.DOCUMENTED
    assert {v.keyword for v in limit.kind.validators} >= {"minimum", "maximum"}


def test_a_signature_prints_positional_then_star_then_keyword_arguments() -> None:
    signature = SignatureIR(
        (
            ArgumentIR("job_id", "str"),
            ArgumentIR("limit", "int | None", "None", keyword_only=True),
            DEADLINE_ARGUMENT,
        )
    )
    assert signature.lines == (
        "job_id: str",
        "*",
        "limit: int | None = None",
        "deadline: float | None = None",
    )
    assert signature.forward == ("job_id", "limit=limit", "deadline=deadline")
    assert signature.without({"limit"}).names() == ("job_id", "deadline")


def test_operations_keep_their_printed_signature_and_forwarding(spec: Spec) -> None:
    ir = build_ir(spec, GeneratorOptions())
    show = next(op for op in ir.operations if op.operation_id == "ShowTrainingJobDetails")
    assert show.signature == (
        "training_job_id: str",
        "*",
        "deadline: float | None = None",
    )
    assert show.forward == ("training_job_id", "deadline=deadline")
    # the client-wide project id is sent from the client, never passed by the caller
    assert ("'project_id'", "self._project_id") in show.arguments
    assert "project_id" not in show.call_signature.names()


def test_what_an_operation_means_is_resolved_once(spec: Spec) -> None:
    resolved = resolve(spec)
    show = resolved.with_role(Role.SHOW)
    assert show is not None
    assert show.op.operation_id == "ShowTrainingJobDetails"
    assert show.success == "200"
    stop = resolved.with_role(Role.TERMINATE)
    assert stop is not None
    assert any(stop.error_codes.values())  # the codes it lists, by status and meaning
    ids = [r.operation_id for r in resolved.operations]
    assert resolved.ir_with_role(Role.SHOW, ids) == "ShowTrainingJobDetails"


def test_a_spec_without_meaning_resolves_no_roles() -> None:
    resolved = resolve(load_spec(PETSTORE_SPEC))
    assert resolved.roles is None
    assert resolved.lifecycle is None
    assert all(r.role is None for r in resolved.operations)
    assert resolved.with_role(Role.SHOW) is None


def test_the_ir_holds_model_additions_as_data_and_a_template_prints_them(spec: Spec) -> None:
    from modelarts_kit_generator.render import _model_additions, environment
    from modelarts_kit_generator.rules import FieldRule

    ir = build_ir(spec, GeneratorOptions())
    assert ir.field_rules
    assert all(isinstance(rule, FieldRule) for rules in ir.field_rules.values() for rule in rules)
    additions, imports = _model_additions(environment(), ir)
    name, rules = next(iter(ir.field_rules.items()))
    assert additions[name][:2] == (
        "# which fields go together (the spec's not and dependentRequired)",
        "_field_rules = field_rules_validator(",
    )
    assert [f"    {rule.expression}," for rule in rules] == list(additions[name][2:-1])
    assert ir.copy is not None
    assert f"def {ir.copy.method_name}(self)" in "\n".join(additions[ir.copy.response_model])
    assert imports.startswith("from ._field_rules import")
