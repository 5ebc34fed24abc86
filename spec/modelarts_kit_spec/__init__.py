"""The curated OpenAPI spec of the ModelArts training-job API, the one loader for it, and the
one interpretation layer of what it means (documented values, the schema walker, route
matching, roles, lifecycle, error codes and guidance)."""

from modelarts_kit_spec.errors import FindingsError, KitError
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
    LEDGER_PATH,
    SPEC_PATH,
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
from modelarts_kit_spec.routes import RouteMatch, match_route
from modelarts_kit_spec.values import DocumentedValues, documented_values
from modelarts_kit_spec.walker import SchemaView, SchemaWalker, iter_schemas

__all__ = [
    "LEDGER_PATH",
    "SPEC_PATH",
    "CatalogueEntry",
    "DocumentedValues",
    "ErrorModel",
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
    "SchemaView",
    "SchemaWalker",
    "Spec",
    "SpecError",
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
