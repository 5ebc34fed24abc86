"""The curated OpenAPI spec of the ModelArts training-job API, and the one loader for it."""

from modelarts_kit_spec.errors import FindingsError, KitError
from modelarts_kit_spec.ledger import (
    Ledger,
    LedgerEntry,
    LedgerProblem,
    LedgerSource,
    ledger_for,
    parse_ledger,
    read_ledger,
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

__all__ = [
    "LEDGER_PATH",
    "SPEC_PATH",
    "FindingsError",
    "KitError",
    "Ledger",
    "LedgerEntry",
    "LedgerProblem",
    "LedgerSource",
    "Operation",
    "Parameter",
    "Response",
    "Spec",
    "SpecError",
    "ledger_for",
    "load_ledger",
    "load_spec",
    "parse_ledger",
    "parse_spec",
    "read_ledger",
    "resolve_pointer",
]
