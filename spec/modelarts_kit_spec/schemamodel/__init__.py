"""The one typed schema model of the spec: every rule, how firmly it binds (its strength) and
where it comes from (its evidence), and the two envelopes a server is judged by.

- :mod:`.rules`: :class:`Strength`, :class:`Evidence`, :class:`Rule`, the rule keywords;
- :mod:`.extension`: the ``x-modelarts-schema-model`` extension as written in the spec (the
  rules that are not ``documented``, and the page tables that document each schema node), read
  and checked;
- :mod:`.model`: :class:`SchemaModel` (``spec.schema_model``): ``rule_at(pointer, keyword)``,
  every rule with its strength, counts per strength, and per node what is required,
  documented, guidance, sensitive and its documented values;
- :mod:`.envelope`: the ``must-accept`` and ``must-reject`` documents (``spec.envelope(name)``).
"""

from __future__ import annotations

from modelarts_kit_spec.schemamodel.envelope import ENVELOPES, MUST_ACCEPT, MUST_REJECT
from modelarts_kit_spec.schemamodel.model import SchemaModel, SchemaNode
from modelarts_kit_spec.schemamodel.rules import Evidence, Rule, Strength

__all__ = [
    "ENVELOPES",
    "MUST_ACCEPT",
    "MUST_REJECT",
    "Evidence",
    "Rule",
    "SchemaModel",
    "SchemaNode",
    "Strength",
]
