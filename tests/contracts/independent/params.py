"""Query and header parameters, as the pages state them.

An empty value (``level=``) is "not given" at the lenient end (the flavors page: "If this
parameter is not specified, all flavors will be obtained"; an empty filter specifies
nothing) and refused at the strict end (no page lists the empty string among the values).
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Mapping
from typing import Any

from .rules import INT32, Mode

__all__ = ["events_query", "flavors_query", "logs_content_type", "query_of"]


def query_of(raw: str) -> dict[str, list[str]]:
    return urllib.parse.parse_qs(raw, keep_blank_values=True)


def _refuse(name: str, why: str) -> Exception:
    from .app import Refused

    # error_codes.rst: "400 | ModelArts.2764 | QueryParamsError | Invalid query parameter (%s)."
    return Refused("ModelArts.2764", f"Invalid query parameter ({name}): {why}")


def _one(query: Mapping[str, list[str]], name: str, mode: Mode) -> str | None:
    values = query.get(name)
    if not values:
        return None
    if len(values) > 1 and mode == "strict":
        raise _refuse(name, "given more than once")
    value = values[-1]
    if value == "":
        if mode == "strict":
            raise _refuse(name, "empty; no page lists an empty value")
        return None
    return value


def _integer(value: str | None, name: str) -> int | None:
    if value is None:
        return None
    if not re.fullmatch(r"[+-]?\d+", value):
        raise _refuse(name, "not an Integer")
    number = int(value)
    if not INT32[0] <= number <= INT32[1]:
        raise _refuse(name, "out of the Integer range")
    return number


def _unknown(query: Mapping[str, list[str]], known: set[str], mode: Mode) -> None:
    if mode == "strict" and set(query) - known:
        raise _refuse(sorted(set(query) - known)[0], "no page documents this parameter")


# The events page (family/obtaining_the_events..., the second URI table).
EVENT_LEVELS = ("Info", "Error", "Warning")  # level: "The value range is [Info Error Warning]."
EVENT_SOURCES = ("K8S", "Job", "Task")  # source: "The value range is [K8S Job Task]."
EVENTS_LIMIT = (1, 100)  # limit: "The value ranges from 1 to 100. The default value is 50."
PATTERN_MAX = 256  # pattern: "The value contains a maximum of 256 characters."


def events_query(query: Mapping[str, list[str]], mode: Mode) -> dict[str, Any]:
    known = {"offset", "limit", "order", "start_time", "end_time", "level", "pattern", "source"}
    _unknown(query, known, mode)
    got = {name: _one(query, name, mode) for name in known}
    offset = _integer(got["offset"], "offset")
    limit = _integer(got["limit"], "limit")
    if limit is not None and not EVENTS_LIMIT[0] <= limit <= EVENTS_LIMIT[1]:
        raise _refuse("limit", "ranges from 1 to 100")
    if mode == "strict" and offset is not None and offset < 0:
        raise _refuse("offset", "an offset of a data entry is not negative")
    # start_time: "Start time, which must be passed together with the end time"; end_time:
    # "End time, which must be passed together with the start time".
    if (got["start_time"] is None) != (got["end_time"] is None):
        raise _refuse("start_time", "must be passed together with end_time")
    for name in ("start_time", "end_time"):
        # Type String; the page's example request sends epoch milliseconds
        # ("start_time=1669449696964&end_time=1669711991259"): the strict end takes only those.
        text = got[name]
        if mode == "strict" and text is not None and not text.isdigit():
            raise _refuse(name, "epoch milliseconds, as the page's example sends")
    if got["level"] is not None and got["level"] not in EVENT_LEVELS:
        raise _refuse("level", "one of Info, Error, Warning")
    if got["source"] is not None and got["source"] not in EVENT_SOURCES:
        raise _refuse("source", "one of K8S, Job, Task")
    if got["pattern"] is not None and len(got["pattern"]) > PATTERN_MAX:
        raise _refuse("pattern", "a maximum of 256 characters")
    if mode == "strict" and got["order"] not in (None, "asc", "desc"):
        raise _refuse("order", "asc or desc")
    return {
        "offset": offset or 0,
        "limit": 50 if limit is None else limit,
        "order": got["order"] or "desc",
        "window": _window(got["start_time"], got["end_time"]),
        "level": got["level"],
        "pattern": got["pattern"],
        "source": got["source"],
    }


def _window(start: str | None, end: str | None) -> tuple[int, int] | None:
    if start is None or end is None or not (start.isdigit() and end.isdigit()):
        return None  # lenient: a time that is not epoch milliseconds restricts nothing
    return int(start), int(end)


# The flavors page: flavor_type "If this parameter is not specified, all flavors will be
# obtained. Options: CPU, GPU".
FLAVOR_TYPES = ("CPU", "GPU")


def flavors_query(query: Mapping[str, list[str]], mode: Mode) -> str | None:
    _unknown(query, {"flavor_type"}, mode)
    value = _one(query, "flavor_type", mode)
    if value is not None and value not in FLAVOR_TYPES:
        raise _refuse("flavor_type", "Options: CPU, GPU")
    return value


# The logs URL page: Content-Type "If this parameter is set to text/plain, the temporary
# preview link is returned. Set this parameter to application/octet-stream. A temporary
# download link is returned."
LOG_CONTENT_TYPES = ("text/plain", "application/octet-stream")


def logs_content_type(headers: Mapping[str, str], mode: Mode) -> None:
    value = headers.get("content-type")
    if mode == "strict" and value is not None and value.split(";")[0] not in LOG_CONTENT_TYPES:
        raise _refuse("Content-Type", "text/plain or application/octet-stream")
