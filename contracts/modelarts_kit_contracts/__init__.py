"""Contract kit: does a server, or a client, honour the curated ModelArts spec?"""

from modelarts_kit_contracts.findings import CheckTally, ExitCode, Failure, RunReport

__all__ = ["CheckTally", "ExitCode", "Failure", "RunReport"]
