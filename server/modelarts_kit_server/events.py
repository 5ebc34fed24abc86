"""A job's events: the phase transitions of its lifecycle, as the events page shapes them.

Each transition the lifecycle simulation makes (:meth:`Simulation.transitions
<modelarts_kit_server.lifecycle.Simulation.transitions>`) is one event ``{"time", "level",
"message", "source"}``: source ``Job``, level ``Error`` for a job that ended in a failed final
phase, ``Info`` otherwise, and a message naming the phase (the spec's name). The store keeps
them with their moments (:meth:`~modelarts_kit_server.store.JobStore.plan_events`: all of a
job's course when it is created, the stop course when it is terminated); a read shows only
those that have happened by the clock's now.

:func:`select_events` answers the events query of the page: ``start_time`` and ``end_time``
(both or neither; milliseconds since the epoch, as in the page's example request, or an ISO
8601 time), ``level``, ``source``, ``pattern`` (contained in the message), then ``order``
(``asc``/``desc`` by time; events of one moment in the order they happened, reversed for
``desc``) and the page
``offset`` (an event index, "offset of a data entry") and ``limit``. ``time`` is ISO 8601 in
UTC with its offset, as in the page's example (``2022-11-26T16:03:41+08:00``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from modelarts_kit_server.lifecycle import Stage, Transition
from modelarts_kit_server.store import StoredEvent

__all__ = [
    "EventQuery",
    "format_time",
    "parse_time",
    "render_event",
    "select_events",
    "transition_events",
]

JOB_SOURCE = "Job"
INFO = "Info"
ERROR = "Error"
MESSAGES = {
    Stage.STARTING: "Training job is {phase}.",
    Stage.RUNNING: "Training job is {phase}.",
    Stage.SUCCEEDED: "Training job {phase}.",
    Stage.FAILED: "Training job failed: {phase}.",
    Stage.STOPPING: "Training job is {phase}: terminated by the user.",
    Stage.STOPPED: "Training job {phase}.",
}
MAX_MILLISECONDS = 253_402_300_799_999  # 9999-12-31T23:59:59.999Z: later is not a time
MAX_DIGITS = len(str(MAX_MILLISECONDS))


def transition_events(transitions: Sequence[Transition]) -> list[StoredEvent]:
    """One event per phase the job enters."""
    return [
        StoredEvent(
            transition.at_ms,
            {
                "level": ERROR if transition.stage is Stage.FAILED else INFO,
                "message": MESSAGES[transition.stage].format(phase=transition.phase),
                "source": JOB_SOURCE,
            },
        )
        for transition in transitions
    ]


def format_time(ms: int) -> str:
    """``ms`` since the epoch as ISO 8601 in UTC, to the second."""
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="seconds")


def parse_time(text: str) -> int:
    """Milliseconds since the epoch from digits (ms) or an ISO 8601 time (UTC without an
    offset); ValueError saying what it expects."""
    stripped = text.strip()
    if stripped.isascii() and stripped.isdigit():
        value = int(stripped[: MAX_DIGITS + 1])  # longer is out of range anyway
    else:
        try:
            moment = datetime.fromisoformat(stripped)
        except ValueError:
            raise ValueError("must be milliseconds since the epoch or an ISO 8601 time") from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        value = round(moment.timestamp() * 1000)
    if not 0 <= value <= MAX_MILLISECONDS:
        raise ValueError(f"must be a time between 0 and {MAX_MILLISECONDS} ms since the epoch")
    return value


def render_event(event: StoredEvent) -> dict[str, Any]:
    return {"time": format_time(event.time_ms), **event.document}


@dataclass(frozen=True)
class EventQuery:
    order: str = "desc"  # "asc" or "desc"
    offset: int = 0
    limit: int = 50
    start_ms: int | None = None
    end_ms: int | None = None
    level: str | None = None
    source: str | None = None
    pattern: str | None = None


def _selected(event: StoredEvent, now_ms: int, query: EventQuery) -> bool:
    document = event.document
    return (
        event.time_ms <= now_ms
        and (query.start_ms is None or event.time_ms >= query.start_ms)
        and (query.end_ms is None or event.time_ms <= query.end_ms)
        and (query.level is None or str(document.get("level", "")).lower() == query.level.lower())
        and (
            query.source is None or str(document.get("source", "")).lower() == query.source.lower()
        )
        and (query.pattern is None or query.pattern in str(document.get("message", "")))
    )


def select_events(
    events: Sequence[StoredEvent], now_ms: int, query: EventQuery
) -> tuple[int, list[StoredEvent]]:
    """How many of ``events`` (oldest first) the query selects, and the requested page."""
    selected = [event for event in events if _selected(event, now_ms, query)]
    if query.order == "desc":
        selected.reverse()
    start = max(0, query.offset)
    return len(selected), selected[start : start + max(1, query.limit)]
