"""The show -> create copy: which fields of a job the service answered go into a new create
body, decided from the spec.

The plan follows the create operation's request schema, field by field, and the show
operation's response schema beside it (roles: ``x-modelarts-role``):

* a field is copied only where the request documents it, read in the spec's must-accept
  envelope (``spec.envelope("must-accept")``): response-only fields (``status``,
  ``endpoints``, ``spec.resource.flavor_detail``...), fields the service added that the spec
  does not know, and fields or shapes only the vendor SDK or an example has (strength
  ``sdk``/``example`` in the schema model) are left out;
* a request property marked ``readOnly`` (the service sets it: ``metadata.id``,
  ``metadata.create_time``...) is left out;
* ``null`` is never copied (absent is what a request documents);
* where the request wants a map and the response documents a list of maps (ModelArts'
  ``algorithm.environments``), the maps are merged in order;
* at every object, the spec's field rules (``not: {required}``, ``dependentRequired``,
  :mod:`modelarts_kit_generator.rules`) are followed by leaving fields out: of fields that
  exclude each other the first stays (``engine_id`` over ``engine_name``), a field whose
  companions are missing goes (``engine_version`` without ``engine_name``).

The plan is printed as one Python expression (``_copy.py`` holds the code that runs it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from modelarts_kit_spec import Spec
from modelarts_kit_spec.walker import SchemaView

from modelarts_kit_generator.escaping import python_string
from modelarts_kit_generator.rules import field_rules

__all__ = ["CopyIR", "copy_plan_expression"]

JSON = Any
# A request schema nested deeper than this is copied as it is (a recursive schema).
MAX_DEPTH = 32


@dataclass(frozen=True)
class CopyIR:
    """``<ResponseModel>.<method_name>()``: a job as the body of the create operation."""

    method_name: str  # to_create_training_job_body
    function_name: str  # create_training_job_body, in _copy.py
    response_model: str
    request_model: str
    request_model_lazy: bool
    call_constant: str  # the create operation's Call, in client.py
    create_method: str  # create_training_job
    show_method: str  # show_training_job_details
    plan_expression: str


def copy_plan_expression(envelope: Spec, request_pointer: str, response_pointer: str) -> str:
    """The copy plan, as a Python expression, from the response schema at
    ``response_pointer`` to the request schema at ``request_pointer``, both read in
    ``envelope``: the spec's must-accept envelope (``spec.envelope("must-accept")``), so a
    field only the SDK or an example has, or a shape only an example shows, is not copied."""
    request = envelope.at(request_pointer)
    response = envelope.at(response_pointer)
    return _Planner(envelope).plan(request, request_pointer, response, (), 0)


class _Planner:
    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.walker = spec.walker

    def plan(
        self, request: JSON, pointer: str, response: JSON, path: tuple[str, ...], depth: int
    ) -> str:
        view = self.walker.view(request, pointer)
        answered = self.walker.view(response) if isinstance(response, Mapping) else None
        key = view.pointer or ""
        if depth > MAX_DEPTH or (key and key in path):
            return "AS_IS"
        path = (*path, key) if key else path
        if view.properties or _closed_object(view):
            return self._fields(view, answered, path, depth)
        shape = self._single_shape(request, pointer)
        if shape is not None:  # anyOf/oneOf of one shape (or of one shape and null)
            return self.plan(shape.schema, shape.pointer, response, path, depth + 1)
        if "array" in view.types and view.items is not None:
            answered_items = answered.items if answered is not None else None
            inner = self.plan(
                view.items, view.keyword_pointer("items"), answered_items, path, depth + 1
            )
            return f"Items({inner})"
        values = view.schema.get("additionalProperties")
        if "object" in view.types and isinstance(values, Mapping):
            answered_values, merge = self._answered_values(answered)
            inner = self.plan(
                values,
                view.keyword_pointer("additionalProperties"),
                answered_values,
                path,
                depth + 1,
            )
            return f"Values({inner}, merge_list={merge})"
        return "AS_IS"

    def _single_shape(self, request: JSON, pointer: str) -> SchemaView | None:
        """The one branch of an ``anyOf``/``oneOf`` that is not ``null``, when there is
        exactly one (the must-accept envelope keeps one shape of a value that may take
        several, e.g. the map of ``environments``)."""
        branches = self.walker.view(request, pointer, alternatives=True).branches
        shapes = [branch for branch in branches if branch.types != {"null"}]
        return shapes[0] if len(shapes) == 1 else None

    def _answered_values(self, answered: SchemaView | None) -> tuple[JSON, bool]:
        """The response's schema of a map's values, and whether it answers a list of maps."""
        if answered is None:
            return None, False
        if "array" in answered.types and answered.items is not None:
            item = self.walker.view(answered.items)
            return item.schema.get("additionalProperties"), True
        return answered.schema.get("additionalProperties"), False

    def _fields(
        self, view: SchemaView, answered: SchemaView | None, path: tuple[str, ...], depth: int
    ) -> str:
        answered_properties = answered.properties if answered is not None else {}
        fields = []
        for name, schema in view.properties.items():
            if isinstance(schema, Mapping) and schema.get("readOnly") is True:
                continue
            inner = self.plan(
                schema,
                view.property_pointers.get(name, ""),
                answered_properties.get(name),
                path,
                depth + 1,
            )
            fields.append(f"{python_string(name)}: {inner}")
        rules = self._rules(view)
        printed_rules = "".join(f"{rule}, " for rule in rules)
        return f"Fields({{{', '.join(fields)}}}, ({printed_rules}))"

    def _rules(self, view: SchemaView) -> list[str]:
        """The field rules of the object (its own node and its allOf parts)."""
        if not view.pointer:
            return []
        node = self.spec.at(view.pointer)
        if not isinstance(node, Mapping):
            return []
        stated, _ = field_rules(node, view.pointer, self.spec.schema_model)
        return [rule.expression for rule in stated]


def _closed_object(view: SchemaView) -> bool:
    """An object the envelope closed after taking out every field it had (they were only the
    SDK's): none of what the service answered there is copied."""
    return "object" in view.types and view.schema.get("additionalProperties") is False
