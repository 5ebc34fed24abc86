"""Contract kit: does a server, or a client, honour the curated ModelArts spec?

Three products over one core (:mod:`modelarts_kit_contracts.core`): the server checker, the
client checker (:mod:`~modelarts_kit_contracts.client`), and the mock
(:mod:`~modelarts_kit_contracts.mock`) and proxy (:mod:`~modelarts_kit_contracts.proxy`).
"""

from modelarts_kit_contracts.core import CheckTally, ExitCode, Finding, RunReport

__all__ = ["CheckTally", "ExitCode", "Finding", "RunReport"]
