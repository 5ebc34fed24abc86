"""``SchemaWalker.shared_view``: the view of a node of the document, built once and shared by
the reference server's per-request walks; any other node gets a view of its own."""

from __future__ import annotations

import copy

from modelarts_kit_spec import load_spec
from modelarts_kit_spec.walker import SchemaWalker


def test_a_document_node_has_one_shared_view_equal_to_its_view() -> None:
    spec = load_spec()
    walker = SchemaWalker(spec.document)
    schema = spec.operation("CreateTrainingJob").request_schema
    for alternatives in (False, True):
        shared = walker.shared_view(schema, alternatives=alternatives)
        assert walker.shared_view(schema, alternatives=alternatives) is shared
        assert shared == walker.view(schema, alternatives=alternatives)
    assert walker.shared_view(schema) is not walker.shared_view(schema, alternatives=True)


def test_a_node_outside_the_document_gets_a_view_of_its_own() -> None:
    spec = load_spec()
    walker = SchemaWalker(spec.document)
    outside = copy.deepcopy(spec.operation("CreateTrainingJob").request_schema)
    assert isinstance(outside, dict)
    first = walker.shared_view(outside)
    outside["description"] = "changed after the first view"
    second = walker.shared_view(outside)
    assert second is not first
    assert second.schema.get("description") == "changed after the first view"
