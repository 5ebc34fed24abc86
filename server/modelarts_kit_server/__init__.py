"""The reference ModelArts training-job server (``modelarts-kit serve``).

A reference implementation of the curated spec that behaves like the real service: requests
validated against the spec, vendor error bodies, token and AK/SK auth, isolated projects, a job
lifecycle on a simulated clock, SQLite storage and optional fault injection. Usable in-process
(``httpx.ASGITransport(app=create_app())``) or over HTTP (:func:`serve_in_thread`, or the CLI).

The names below are imported on first use, so importing the package (e.g. for
``DEV_TOKEN``) loads neither uvicorn nor the spec.

Modules (each step a small named function, so it can be wrapped or replaced): ``app`` (routing
and the request pipeline), the package ``handlers`` (the table of the handlers by the spec's
roles; ``job_core``: create, show, terminate; ``job_records``: list, delete, describe;
``tasks``: events, logs, metrics; ``catalogue``: flavors, engines), ``context`` (what a handler
gets and gives), ``search`` (the list's query engine), ``events``, ``tasks`` (simulated logs and
metrics), ``catalogue`` (flavors and engines from the spec's examples), ``query`` (query
parameters through the spec), ``auth`` (tokens, SDK-HMAC-SHA256), ``validation`` (spec-driven
checks and error messages), ``lifecycle`` (phases, status and transitions), ``store`` (SQLite,
schema version with migrations), ``clock`` (simulated and manual clocks), ``faults`` (fault
plans), ``settings``, ``errors`` (the vendor error catalogue), ``runner`` (uvicorn). The ASGI
body reading, lifespan, serving in a thread, the wire JSON decoder, the AK/SK signing algorithm
and response header bytes are the wire layer's (``modelarts_kit_wire``).

Test hook: a job created with ``metadata.annotations["modelarts-kit/simulate"] = "failed"``
ends Failed instead of Completed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from modelarts_kit_spec.lazy import lazy_attributes

if TYPE_CHECKING:
    from modelarts_kit_server.app import ReferenceServer, create_app
    from modelarts_kit_server.clock import Clock, ManualClock, SimulatedClock
    from modelarts_kit_server.errors import ApiError, ConfigError, ServerError
    from modelarts_kit_server.faults import FaultPlan
    from modelarts_kit_server.lifecycle import SIMULATE_ANNOTATION, LifecycleTimings
    from modelarts_kit_server.runner import serve_in_thread
    from modelarts_kit_server.settings import (
        DEV_PROJECT_ID,
        DEV_TOKEN,
        AkSkCredential,
        ServerSettings,
        TokenGrant,
    )
    from modelarts_kit_server.store import JobStore

__all__ = [
    "DEV_PROJECT_ID",
    "DEV_TOKEN",
    "SIMULATE_ANNOTATION",
    "AkSkCredential",
    "ApiError",
    "Clock",
    "ConfigError",
    "FaultPlan",
    "JobStore",
    "LifecycleTimings",
    "ManualClock",
    "ReferenceServer",
    "ServerError",
    "ServerSettings",
    "SimulatedClock",
    "TokenGrant",
    "create_app",
    "serve_in_thread",
]

_HOMES = {
    "DEV_PROJECT_ID": "settings",
    "DEV_TOKEN": "settings",
    "SIMULATE_ANNOTATION": "lifecycle",
    "AkSkCredential": "settings",
    "ApiError": "errors",
    "Clock": "clock",
    "ConfigError": "errors",
    "FaultPlan": "faults",
    "JobStore": "store",
    "LifecycleTimings": "lifecycle",
    "ManualClock": "clock",
    "ReferenceServer": "app",
    "ServerError": "errors",
    "ServerSettings": "settings",
    "SimulatedClock": "clock",
    "TokenGrant": "settings",
    "create_app": "app",
    "serve_in_thread": "runner",
}

__getattr__, __dir__ = lazy_attributes(__name__, _HOMES)
