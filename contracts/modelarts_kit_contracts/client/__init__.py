"""The client checker: does a Python client honour the spec, both ways?

The check drives a client through an adapter (:mod:`.adapters`) against the mock
(:class:`~modelarts_kit_contracts.mock.MockServer`), on loopback or in-process. The cases come
from the spec (:mod:`.cases`); each call is judged by the ``client`` checks of the core registry
(:mod:`.checks`) and the ``wire`` request checks the mock ran on what the client sent;
:mod:`.run` drives it all.
"""

from modelarts_kit_contracts.client.adapters import (
    BUILTIN_ADAPTERS,
    AdapterError,
    AdapterFactory,
    ClientAdapter,
    ClientTarget,
    load_adapter_factory,
)
from modelarts_kit_contracts.client.cases import Case, ClientCheckSettings, build_cases
from modelarts_kit_contracts.client.checks import compare_json
from modelarts_kit_contracts.client.run import merge_failures, run_client_check

__all__ = [
    "BUILTIN_ADAPTERS",
    "AdapterError",
    "AdapterFactory",
    "Case",
    "ClientAdapter",
    "ClientCheckSettings",
    "ClientTarget",
    "build_cases",
    "compare_json",
    "load_adapter_factory",
    "merge_failures",
    "run_client_check",
]
