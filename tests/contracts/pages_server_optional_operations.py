"""The pages server's nine further operations (issue 26), from the vendor's pages alone.

Like ``pages_server.py`` it reads nothing of the curated spec: the request fields and their
rules are the tables of ``spec/sources/family/*.rst`` (transcribed below, with the page that
states each), the answers take the shape of the pages' examples (the flavor and engine
catalogues are those examples, read from the pages), the errors are the vendor's error table.

Where the pages leave room this server takes one reading, a correct one:

- ``offset`` of the job list counts pages ("Number of pages for querying jobs ... 0: the
  query starts from the first page"), of the events records ("Offset of a data entry");
- the list sorts by ``create_time``, newest first, unless asked otherwise ("The default value
  is desc"), and filters on the keys the page's example names, an empty value constraining
  nothing (the example's own ``[""]``);
- an event is written when the job enters a phase ("Training job is running." in the page's
  example), its time in ISO 8601 with the offset, as in the example;
- a task is ``worker-N`` for each node (the show page's ``status.tasks`` example);
- a task the job does not have is an invalid ``task_id`` (the error table's invalid-parameter
  row: it has no row of its own); a deleted job is the unknown-job error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

FAMILY = Path(__file__).resolve().parents[2] / "spec" / "sources" / "family"
LIST_PAGE = FAMILY / "querying_a_training_job_list_2024-11.rst"
EVENTS_PAGE = FAMILY / "obtaining_the_events_of_a_training_job_2025-08.rst"
FLAVORS_PAGE = (
    FAMILY / "obtaining_the_general_specifications_supported_by_a_training_job_2024-11.rst"
)
ENGINES_PAGE = FAMILY / "obtaining_the_preset_ai_frameworks_supported_by_a_training_job_2024-11.rst"

# --- what the pages state (Table 2 of each page unless said otherwise) ---------------------------
LIST_LIMIT = (1, 50)  # list: limit "ranges from 1 to 50"
LIST_ORDERS = ("asc", "desc")  # list: order "default desc ... also asc"
OPERATORS = ("between", "like", "in", "not")  # list, Table 3: operator
LIST_FIELDS = {  # list, Table 2: the request body
    "offset": int,
    "limit": int,
    "sort_by": str,
    "order": str,
    "group_by": str,
    "filters": list,
}
FILTER_FIELDS = {"key": str, "operator": str, "value": list}  # list, Table 3
EVENT_LIMIT = (1, 100)  # events: limit "ranges from 1 to 100", default 50
EVENT_DEFAULT_LIMIT = 50
EVENT_LEVELS = ("Info", "Error", "Warning")  # events: level "[Info Error Warning]"
PATTERN_MAX = 256  # events: pattern "a maximum of 256 characters"
DESCRIPTION_MAX = 256  # change description: "0 to 256 characters"
# flavors, Table 2: flavor_type "CPU, GPU"; the job's flavor_type on the terminate page
# (seeds/000, its response's flavor table) adds the third, "Ascend".
FLAVOR_TYPES = ("CPU", "GPU", "Ascend")
METRICS = ("cpuUsage", "memUsage", "gpuUtil", "gpuMemUsage", "npuUtil", "npuMemUsage")
MAX_TASKS = 16  # the flavors page's largest max_num
LOG_LINES = ("[Modelarts Service Log] training started", "[Modelarts Service Log] exit with 0")


class Unacceptable(Exception):
    """A request the page's tables refuse (the pages server answers its invalid-parameter
    error, naming the rule)."""


class PagesJob(Protocol):
    id: str
    project: str
    body: dict[str, Any]

    def answer(self, now: float) -> dict[str, Any]: ...

    def history(self, now: float) -> list[tuple[float, str]]: ...


def page_example(page: Path, status: int = 200) -> Any:
    """The JSON the page's "Example Responses" shows for ``status`` (its first code block)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    start = lines.index("Example Responses")
    marker = lines.index(f"**Status code: {status}**", start)
    block = next(i for i in range(marker, len(lines)) if lines[i].startswith(".. code-block::"))
    body: list[str] = []
    for line in lines[block + 1 :]:
        if line and not line.startswith(" "):
            break
        body.append(line)
    return json.loads("\n".join(body))


def catalogue(page: Path, array: str) -> list[dict[str, Any]]:
    """The entries of an example's array (an elision such as ``"......"`` left out)."""
    return [entry for entry in page_example(page)[array] if isinstance(entry, dict)]


def task_names(job: PagesJob) -> list[str]:
    resource = (job.body.get("spec") or {}).get("resource") or {}
    count = resource.get("node_count")
    nodes = count if isinstance(count, int) and 1 <= count <= MAX_TASKS else 1
    return [f"worker-{index}" for index in range(nodes)]


# --- list ----------------------------------------------------------------------------------------


INT32 = (-(2**31), 2**31 - 1)  # a table's "Integer" (docs extract reads it as int32)


def _typed(value: Any, kind: type) -> bool:
    if kind is int:
        # JSON has one number type: 5.0 is the integer 5 (RFC 8259, section 6).
        whole = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
        return whole and not isinstance(value, bool) and INT32[0] <= value <= INT32[1]
    return isinstance(value, kind)


def check_search(body: Any, strict: bool) -> dict[str, Any]:
    """The list body as the page's Tables 2 and 3 allow it (lenient: unknown fields ignored)."""
    if not isinstance(body, dict):
        raise Unacceptable("body: must be an object")
    for name, value in body.items():
        kind = LIST_FIELDS.get(name)
        if kind is None:
            if strict:
                raise Unacceptable(f"unknown field {name!r}")
            continue
        if not _typed(value, kind):
            raise Unacceptable(f"{name}: must be {kind.__name__}")
    limit, offset = body.get("limit"), body.get("offset")
    if limit is not None and not LIST_LIMIT[0] <= limit <= LIST_LIMIT[1]:
        raise Unacceptable(f"limit: {LIST_LIMIT[0]} to {LIST_LIMIT[1]}")
    if offset is not None and offset < 0:
        raise Unacceptable("offset: at least 0")
    if body.get("order") is not None and body["order"] not in LIST_ORDERS:
        raise Unacceptable(f"order: one of {', '.join(LIST_ORDERS)}")
    for item in body.get("filters") or []:
        _check_filter(item, strict)
    return body


def _check_filter(item: Any, strict: bool) -> None:
    if not isinstance(item, dict):
        raise Unacceptable("filters[]: must be an object")
    for name, value in item.items():
        kind = FILTER_FIELDS.get(name)
        if kind is None:
            if strict:
                raise Unacceptable(f"filters[]: unknown field {name!r}")
            continue
        if not _typed(value, kind):
            raise Unacceptable(f"filters[].{name}: must be {kind.__name__}")
    if item.get("operator") is not None and item["operator"] not in OPERATORS:
        raise Unacceptable(f"filters[].operator: one of {', '.join(OPERATORS)}")
    if not all(isinstance(v, str) for v in item.get("value") or []):
        raise Unacceptable("filters[].value: strings")


def _matches(answer: Mapping[str, Any], item: Mapping[str, Any]) -> bool:
    """One filter of the page's example keys; an empty value constrains nothing."""
    wanted = [v for v in item.get("value") or [] if v]
    if not wanted:
        return True
    key = item.get("key")
    metadata = answer.get("metadata") or {}
    value = {
        "name": metadata.get("name"),
        "phase": (answer.get("status") or {}).get("phase"),
        "kind": answer.get("kind"),
        "create_time": metadata.get("create_time"),
    }.get(str(key))
    if value is None:
        return True  # a key this server does not keep: nothing to filter on
    operator = item.get("operator") or "in"
    if operator == "like":
        return any(w in str(value) for w in wanted)
    if operator == "between":
        low, high = (wanted + wanted)[:2]
        return _number(low) <= _number(value) <= _number(high)
    found = str(value) in wanted
    return not found if operator == "not" else found


def _number(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def search(jobs: Sequence[PagesJob], body: Mapping[str, Any], now: float) -> dict[str, Any]:
    """The list answer: filtered, sorted by create time (newest first by default), one page."""
    answers = [job.answer(now) for job in jobs]
    found = [a for a in answers if all(_matches(a, f) for f in body.get("filters") or [])]
    ascending = body.get("order") == "asc"
    ordered = sorted(
        enumerate(found),
        key=lambda pair: (pair[1]["metadata"]["create_time"], pair[0]),
        reverse=not ascending,
    )
    limit = int(body.get("limit") or LIST_LIMIT[1])
    page = int(body.get("offset") or 0)
    chosen = [answer for _, answer in ordered][page * limit : (page + 1) * limit]
    return {
        "total": len(answers),
        "count": len(found),
        "limit": limit,
        "offset": page,
        "sort_by": body.get("sort_by") or "create_time",
        "order": "asc" if ascending else "desc",
        "group_by": body.get("group_by") or "",
        "workspace_id": "0",
        "ai_project": "default-ai-project",
        "items": chosen,
    }


# --- describe ------------------------------------------------------------------------------------


def check_description(body: Any, strict: bool) -> str:
    if not isinstance(body, dict):
        raise Unacceptable("body: must be an object")
    if strict and set(body) - {"description"}:
        raise Unacceptable(f"unknown field {sorted(set(body) - {'description'})[0]!r}")
    description = body.get("description", "")
    if not isinstance(description, str) or len(description) > DESCRIPTION_MAX:
        raise Unacceptable(f"description: a string of 0 to {DESCRIPTION_MAX} characters")
    return description


# --- events --------------------------------------------------------------------------------------


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")


def _query_int(query: Mapping[str, str], name: str) -> int | None:
    text = query.get(name)
    if text is None:
        return None
    if not re.fullmatch(r"-?\d{1,18}", text) or not INT32[0] <= int(text) <= INT32[1]:
        raise Unacceptable(f"{name}: an integer")
    return int(text)


def events(
    job: PagesJob, query: Mapping[str, str], now: float, wall: Callable[[float], float]
) -> dict[str, Any]:
    """The events answer: one event per phase the job entered, in the order asked (desc as
    the page's example by default), ``offset`` counting records."""
    limit = _query_int(query, "limit")
    offset = _query_int(query, "offset") or 0
    if limit is not None and not EVENT_LIMIT[0] <= limit <= EVENT_LIMIT[1]:
        raise Unacceptable(f"limit: {EVENT_LIMIT[0]} to {EVENT_LIMIT[1]}")
    if offset < 0:
        raise Unacceptable("offset: at least 0")
    if query.get("level") is not None and query["level"] not in EVENT_LEVELS:
        raise Unacceptable(f"level: one of {', '.join(EVENT_LEVELS)}")
    if len(query.get("pattern") or "") > PATTERN_MAX:
        raise Unacceptable(f"pattern: at most {PATTERN_MAX} characters")
    happened = [
        {
            "time": _iso(wall(at)),
            "level": "Info",
            "message": f"Training job is {phase.lower()}.",
            "source": "Job",
        }
        for at, phase in job.history(now)
    ]
    ascending = query.get("order") == "asc"
    ordered = happened if ascending else happened[::-1]
    size = limit or EVENT_DEFAULT_LIMIT
    return {
        "total": len(ordered),
        "limit": size,
        "offset": offset,
        "order": "asc" if ascending else "desc",
        "events": ordered[offset : offset + size],
    }


# --- tasks ---------------------------------------------------------------------------------------


def logs_preview(job: PagesJob, task: str) -> dict[str, Any]:
    content = "\n".join(f"[{task}] {line}" for line in LOG_LINES)
    size = len(content.encode("utf-8"))
    return {"content": content, "current_size": size, "full_size": size}


def logs_url(job: PagesJob, task: str) -> dict[str, Any]:
    return {"obs_url": f"https://obs.example.invalid/logs/{job.id}/{task}.log"}


def metrics(job: PagesJob, task: str) -> dict[str, Any]:
    return {"metrics": [{"metric": name, "value": [-1.0, 0.0]} for name in METRICS]}


TASK_ANSWERS: Mapping[str, Callable[[PagesJob, str], dict[str, Any]]] = {
    "preview": logs_preview,
    "url": logs_url,
    "metrics": metrics,
}


# --- catalogues ----------------------------------------------------------------------------------


def flavors(query: Mapping[str, str]) -> dict[str, Any]:
    wanted = query.get("flavor_type")
    if wanted is not None and wanted not in FLAVOR_TYPES:
        raise Unacceptable(f"flavor_type: one of {', '.join(FLAVOR_TYPES)}")
    found = [
        f for f in catalogue(FLAVORS_PAGE, "flavors") if wanted in (None, f.get("flavor_type"))
    ]
    return {"total_count": len(found), "flavors": found}


def engines() -> dict[str, Any]:
    found = catalogue(ENGINES_PAGE, "items")
    return {"total": len(found), "items": found}
