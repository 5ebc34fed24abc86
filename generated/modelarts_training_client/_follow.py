"""Following a job: which events and log lines are new since the last poll. Nothing here
does I/O: the clients' ``follow_*`` methods poll."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, TypeVar

import pydantic

__all__ = ["DEFAULT_PAGES_PER_POLL", "FollowState", "LogLine", "LogTail", "task_names"]

# The most pages of events one poll reads: a server whose event pages never end costs a
# follow this many calls per poll, never all of its memory; the next poll reads again.
DEFAULT_PAGES_PER_POLL = 20

Event = TypeVar("Event", bound=pydantic.BaseModel)


@dataclass(frozen=True)
class LogLine:
    """One line of a task's log, without its line break."""

    task: str
    line: str


class LogTail:
    """The new lines of one log that is read whole, or by its latest part, at every poll.

    Each read gives the text the service returned and, when it says so, the size of the
    whole log in bytes: the text is then the log's last bytes, so where it starts in the log
    is known and a line is never given twice, even when the start of the log no longer fits
    in the answer. Without the size, every read is taken as the whole log. Only complete
    lines are given until ``flush``, which gives the last line even without a line break.
    """

    def __init__(self) -> None:
        self._consumed = 0  # bytes of the log given as lines so far
        self._rest = b""  # the bytes after them in the last read

    def read(self, content: str | None, full_size: object = None) -> list[str]:
        data = (content or "").encode("utf-8")
        whole = (
            full_size if isinstance(full_size, int) and not isinstance(full_size, bool) else None
        )
        start = whole - len(data) if whole is not None and whole >= len(data) else 0
        if start + len(data) < self._consumed:
            # The log is shorter than what was given: it started again.
            self._consumed = start
        new = data[max(0, self._consumed - start) :]
        self._consumed = max(self._consumed, start)
        complete, newline, self._rest = new.rpartition(b"\n")
        if not newline:
            return []
        self._consumed += len(complete) + 1
        return _lines(complete + b"\n")

    def flush(self) -> list[str]:
        """The last line of the last read when it has no line break (the log has ended)."""
        rest, self._rest = self._rest, b""
        self._consumed += len(rest)
        return _lines(rest)


def _lines(data: bytes) -> list[str]:
    return data.decode("utf-8", "replace").splitlines()


class FollowState:
    """What a follow has given so far: the events (by a digest of their whole content, so an
    answer in any order or a page that shifts between polls never repeats one) and each
    task's log.

    At most ``max_events`` digests are kept (twice what one poll reads: ``pages_per_poll``
    pages of ``page_size`` events), the least recently seen dropped first: an event that a
    poll reads again is seen again, so no event a poll reads is forgotten and none is given
    twice.
    """

    def __init__(self, pages_per_poll: int, page_size: int) -> None:
        for name, value in (("pages_per_poll", pages_per_poll), ("page_size", page_size)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        self.max_events = 2 * pages_per_poll * page_size
        self._events: OrderedDict[bytes, None] = OrderedDict()
        self._logs: dict[str, LogTail] = {}

    def is_new(self, event: Event) -> bool:
        """True the first time ``event`` is seen (by content); it is remembered as seen."""
        key = hashlib.sha256(event.model_dump_json(by_alias=True).encode()).digest()
        if key in self._events:
            self._events.move_to_end(key)
            return False
        self._events[key] = None
        if len(self._events) > self.max_events:
            self._events.popitem(last=False)
        return True

    def seen_events(self) -> int:
        """How many events are remembered (never more than ``max_events``)."""
        return len(self._events)

    def new_lines(self, task: str, content: str | None, full_size: object) -> list[LogLine]:
        tail = self._logs.setdefault(task, LogTail())
        return [LogLine(task, line) for line in tail.read(content, full_size)]

    def last_lines(self) -> list[LogLine]:
        """The unterminated last line of every log, once the job has ended."""
        return [LogLine(task, line) for task, tail in self._logs.items() for line in tail.flush()]


def task_names(value: Any) -> list[str]:
    """The job's task names (a list of strings in the job), in order, without repeats."""
    if not isinstance(value, list):
        return []
    return list(dict.fromkeys(name for name in value if isinstance(name, str) and name))
