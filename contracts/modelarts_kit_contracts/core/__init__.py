"""The shared core of the contract kit: one finding model, one check registry, the reporters
and the wire validation. The server checker, the client checker, the mock and the proxy are
built on it (``contracts/README.md`` gives the API in a few lines).

- :mod:`.findings`: :class:`Finding` (the one typed failure), :class:`Observation` (a choice the
  spec leaves to the target), :class:`RunReport`, exit codes;
- :mod:`.registry`: the ``@check`` registry (:data:`REGISTRY`), :func:`declare`, :func:`evaluate`;
- :mod:`.reporters`: terminal, JUnit, JSON and Markdown reporters (imports rich: not re-exported
  here, so that the pytest plugin loads fast);
- :mod:`.wire`: request/response validation against the spec (the ``wire`` checks);
- :mod:`.asgi`: the ASGI plumbing the mock and the proxy share.
"""

from modelarts_kit_contracts.core.findings import (
    CheckTally,
    CreatedJob,
    ExitCode,
    Finding,
    Observation,
    RunReport,
    Severity,
    clip,
    short,
)
from modelarts_kit_contracts.core.registry import (
    REGISTRY,
    SKIP,
    Check,
    CheckResult,
    Product,
    Registry,
    check,
    declare,
    evaluate,
)

__all__ = [
    "REGISTRY",
    "SKIP",
    "Check",
    "CheckResult",
    "CheckTally",
    "CreatedJob",
    "ExitCode",
    "Finding",
    "Observation",
    "Product",
    "Registry",
    "RunReport",
    "Severity",
    "check",
    "clip",
    "declare",
    "evaluate",
    "short",
]
