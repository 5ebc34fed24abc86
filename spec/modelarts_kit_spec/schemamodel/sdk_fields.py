"""What the vendor's SDK sends is evidence that the service accepts it (issue 31 item 7).

A body outside must-accept only for fields whose presence is an ``sdk`` rule (``workspace_id``
in a list body: the SDK's ``JobSearches`` sends it) is one a server at the strict end accepts
and no client check fails. Every reader asks here (the reference server; the wire checks ask
the contract kit's envelopes, which cite the same rules).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from modelarts_kit_spec.document import pointer_join
from modelarts_kit_spec.schemamodel.rules import PRESENCE, Strength

__all__ = ["only_sdk_fields_break"]

# A ``Spec`` (typed loosely: the schema model sits below the loader).
Spec = Any


def only_sdk_fields_break(spec: Spec, envelope: Spec, schema: Any, document: Any) -> bool:
    """Whether every rule of ``envelope`` (must-accept) that ``document`` breaks is a field
    the spec knows only from the vendor's SDK."""
    errors = list(envelope.validator(schema).iter_errors(document))
    if not errors:
        return False
    for error in errors:
        if error.validator != "additionalProperties" or not isinstance(error.instance, Mapping):
            return False
        declared = error.schema.get("properties", {}) if isinstance(error.schema, Mapping) else {}
        at = pointer_join("", *error.absolute_path)
        for name in error.instance:
            if name in declared:
                continue
            known = spec.walker.at_pointer(schema, pointer_join(at, name))
            if known is None or not known.pointer:
                return False
            if spec.schema_model.rule_at(known.pointer, PRESENCE).strength is not Strength.SDK:
                return False
    return True
