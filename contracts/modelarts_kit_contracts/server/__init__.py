"""The server checker: does a ModelArts training-job server honour the curated spec?

:func:`run_server_contract` runs a preflight, the ModelArts scenarios and schemathesis's phases
against a :class:`ServerTarget` (a base URL or an ASGI app) and returns a
:class:`~modelarts_kit_contracts.core.RunReport`; reporters print it. The click command
(``modelarts-kit contract server``) only parses options and composes the default target.
"""

from modelarts_kit_contracts.server.run import (
    ALL_PHASES,
    DEFAULT_MAX_EXAMPLES,
    Budget,
    ProgressSink,
    RunOptions,
    ServerTarget,
    run_server_contract,
)

__all__ = [
    "ALL_PHASES",
    "DEFAULT_MAX_EXAMPLES",
    "Budget",
    "ProgressSink",
    "RunOptions",
    "ServerTarget",
    "run_server_contract",
]
