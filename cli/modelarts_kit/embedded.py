"""The embedded default target: the reference server composed for ``contract server`` without
a URL and for the pytest plugin without a target.

Composition lives in ``cli/`` because it is the one layer that may import both the contract
kit and the reference server; the contract kit itself never imports the server.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from modelarts_kit_contracts.server.run import ServerTarget
from modelarts_kit_contracts.server.timeline import SkippingTimeline

__all__ = ["EMBEDDED_TERMINATING_S", "embedded_defaults", "embedded_target"]

# How long a job stays Terminating on the embedded server: long enough for the scenario to see
# Terminating, short enough that the final-phase check does not wait.
EMBEDDED_TERMINATING_S = 0.3


@contextmanager
def embedded_target(*, http: bool) -> Iterator[ServerTarget]:
    """The reference server, in-process (ASGI) or on a free 127.0.0.1 port.

    The run owns the server's clock: a scenario waiting for a job's phases moves that clock
    forward instead of sleeping (the server's jobs see the time pass; the run does not wait).
    """
    from modelarts_kit_server import LifecycleTimings, ServerSettings, SimulatedClock, create_app

    clock = SimulatedClock()
    settings = ServerSettings(
        clock=clock, timings=LifecycleTimings(terminating_s=EMBEDDED_TERMINATING_S)
    )
    timeline = SkippingTimeline(clock.advance)
    if http:
        from modelarts_kit_server import serve_in_thread  # uvicorn: only to serve over HTTP

        with serve_in_thread(settings) as url:
            yield ServerTarget(url, timeline=timeline)
        return
    app = create_app(settings)
    try:
        yield ServerTarget.asgi(app, timeline=timeline)
    finally:
        app.close()


def embedded_defaults() -> tuple[str, str]:
    """The embedded server's development token and project (the quickstart's credentials)."""
    from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN

    return DEV_TOKEN, DEV_PROJECT_ID
