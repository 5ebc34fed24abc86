"""The curated OpenAPI spec of the ModelArts training-job API, the one loader for it, and the
one interpretation layer of what it means (documented values, the schema walker, route
matching, roles, lifecycle, error codes and guidance).

The names below are imported on first use (PEP 562): ``from modelarts_kit_spec import
KitError`` or ``modelarts_kit_spec.SPEC_PATH`` does not load YAML, jsonschema or the meaning
layer, so a command that only needs the error base or the spec's path (the CLI's entry point,
``generate --check`` answered from its manifest) starts in a few milliseconds. ``KitError`` and
``FindingsError`` are the wire layer's (``modelarts_kit_wire.errors``), re-exported here where
every package has always imported them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import lazy

if TYPE_CHECKING:
    from modelarts_kit_wire.errors import FindingsError, KitError

    from modelarts_kit_spec.ledger import (
        Ledger,
        LedgerEntry,
        LedgerProblem,
        LedgerSource,
        ledger_for,
        parse_ledger,
        read_ledger,
        read_matchable_ledger,
    )
    from modelarts_kit_spec.load import (
        Operation,
        Parameter,
        Response,
        Spec,
        SpecError,
        load_ledger,
        load_spec,
        parse_spec,
        resolve_pointer,
    )
    from modelarts_kit_spec.meaning import (
        CatalogueEntry,
        ErrorModel,
        Guidance,
        GuidanceRule,
        Lifecycle,
        Meaning,
        MeaningError,
        Roles,
    )
    from modelarts_kit_spec.paths import LEDGER_PATH, SPEC_PATH
    from modelarts_kit_spec.routes import RouteMatch, match_route
    from modelarts_kit_spec.schemamodel import Evidence, Rule, SchemaModel, Strength
    from modelarts_kit_spec.values import DocumentedValues, documented_values
    from modelarts_kit_spec.walker import SchemaView, SchemaWalker, iter_schemas

__all__ = [
    "LEDGER_PATH",
    "SPEC_PATH",
    "CatalogueEntry",
    "DocumentedValues",
    "ErrorModel",
    "Evidence",
    "FindingsError",
    "Guidance",
    "GuidanceRule",
    "KitError",
    "Ledger",
    "LedgerEntry",
    "LedgerProblem",
    "LedgerSource",
    "Lifecycle",
    "Meaning",
    "MeaningError",
    "Operation",
    "Parameter",
    "Response",
    "Roles",
    "RouteMatch",
    "Rule",
    "SchemaModel",
    "SchemaView",
    "SchemaWalker",
    "Spec",
    "SpecError",
    "Strength",
    "documented_values",
    "iter_schemas",
    "ledger_for",
    "load_ledger",
    "load_spec",
    "match_route",
    "parse_ledger",
    "parse_spec",
    "read_ledger",
    "read_matchable_ledger",
    "resolve_pointer",
]

# Public name -> the module that defines it.
_HOMES = {
    "FindingsError": "modelarts_kit_wire.errors",
    "LEDGER_PATH": "paths",
    "SPEC_PATH": "paths",
    "KitError": "modelarts_kit_wire.errors",
    **dict.fromkeys(
        (
            "Ledger",
            "LedgerEntry",
            "LedgerProblem",
            "LedgerSource",
            "ledger_for",
            "parse_ledger",
            "read_ledger",
            "read_matchable_ledger",
        ),
        "ledger",
    ),
    **dict.fromkeys(
        (
            "Operation",
            "Parameter",
            "Response",
            "Spec",
            "SpecError",
            "load_ledger",
            "load_spec",
            "parse_spec",
            "resolve_pointer",
        ),
        "load",
    ),
    **dict.fromkeys(
        (
            "CatalogueEntry",
            "ErrorModel",
            "Guidance",
            "GuidanceRule",
            "Lifecycle",
            "Meaning",
            "MeaningError",
            "Roles",
        ),
        "meaning",
    ),
    **dict.fromkeys(("Evidence", "Rule", "SchemaModel", "Strength"), "schemamodel"),
    "RouteMatch": "routes",
    "match_route": "routes",
    "DocumentedValues": "values",
    "documented_values": "values",
    "SchemaView": "walker",
    "SchemaWalker": "walker",
    "iter_schemas": "walker",
}


__getattr__, __dir__ = lazy.lazy_attributes(__name__, _HOMES)
