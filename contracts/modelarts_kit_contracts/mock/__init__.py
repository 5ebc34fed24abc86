"""The spec-driven mock server, in four parts, each usable alone:

- :mod:`.strategies`: the strategy builder (:class:`ResponseGenerator`, :class:`Variant`);
- :mod:`.scenario`: the scenario format (:class:`PlannedResponse`, :class:`ScenarioFile`,
  :func:`load_scenario`);
- :mod:`.app`: the ASGI app (:class:`MockServer`): routes a request to its operation, records
  every way it breaks the spec (the ``wire`` checks of the core registry) and answers: the next
  queued response (the client check queues them), the next scenario step, or a generated one;
  an invalid request gets the documented error that fits what it broke;
- :mod:`.serving`: serve an ASGI app with uvicorn (:func:`serve_in_thread`,
  :func:`run_until_stopped`).

Mock endpoints (not part of the API): ``GET /__mock__/violations`` (the recorded violations as
JSON), ``DELETE /__mock__/violations`` (clear them) and ``GET /__mock__/health``.
"""

from modelarts_kit_contracts.mock.app import MockServer
from modelarts_kit_contracts.mock.scenario import (
    PlannedResponse,
    ScenarioError,
    ScenarioFile,
    load_scenario,
)
from modelarts_kit_contracts.mock.serving import (
    listening_socket,
    run_until_stopped,
    serve_in_thread,
)
from modelarts_kit_contracts.mock.strategies import (
    INT64_MAX,
    INT64_MIN,
    ResponseGenerator,
    Variant,
    draw_examples,
)

__all__ = [
    "INT64_MAX",
    "INT64_MIN",
    "MockServer",
    "PlannedResponse",
    "ResponseGenerator",
    "ScenarioError",
    "ScenarioFile",
    "Variant",
    "draw_examples",
    "listening_socket",
    "load_scenario",
    "run_until_stopped",
    "serve_in_thread",
]
