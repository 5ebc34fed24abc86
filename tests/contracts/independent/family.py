"""The answers of the nine further operations, shaped like the pages' example responses."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from . import pages
from .app import iso

__all__ = ["engines", "events", "flavors", "logs_preview", "logs_url", "metrics", "search"]

# The list page's filter keys, from its example request: name (like), create_time
# (between), phase (in), algorithm_name (like), kind (in), user_id (in).
FILTER_FIELDS = {
    "name": ("metadata", "name"),
    "create_time": ("metadata", "create_time"),
    "phase": ("status", "phase"),
    "algorithm_name": ("algorithm", "name"),
    "kind": ("kind",),
    "user_id": ("metadata", "user_name"),
}


def _field(job: Mapping[str, Any], path: Sequence[str]) -> Any:
    value: Any = job
    for name in path:
        value = value.get(name) if isinstance(value, Mapping) else None
    return value


def _matches(job: Mapping[str, Any], item: Mapping[str, Any]) -> bool:
    # The example request sends '"value" : [ "" ]' and '[ ]' for keys that are meant to
    # restrict nothing ("will only query data for training jobs with names containing
    # trainjob"): empty values restrict nothing.
    values = [v for v in item.get("value", []) if v != ""]
    if not values or "key" not in item:
        return True
    path = FILTER_FIELDS.get(item["key"])
    if path is None:
        return True  # a key the page does not show restricts nothing
    value = _field(job, path)
    text = "" if value is None else str(value)
    operator = item.get("operator", "in")
    if operator == "like":
        hit = any(v in text for v in values)
    elif operator == "between":
        low, high = [*values, "", ""][:2]
        hit = _between(value, low, high)
    else:
        hit = text in values
    return not hit if operator == "not" else hit


def _between(value: Any, low: str, high: str) -> bool:
    try:
        number = float(value)
        return (not low or number >= float(low)) and (not high or number <= float(high))
    except (TypeError, ValueError):
        return False


def search(jobs: list[dict[str, Any]], wanted: Mapping[str, Any]) -> dict[str, Any]:
    """The list page: ``offset`` "Number of pages ... if this parameter is set to 0, the query
    starts from the first page", ``limit`` records on each page, sorted by ``sort_by``
    ("create_time is used by default"), ``order`` desc by default."""
    found = [job for job in jobs if all(_matches(job, f) for f in wanted.get("filters", []))]
    sort_by = wanted.get("sort_by") or "create_time"
    path = FILTER_FIELDS.get(sort_by, ("metadata", "create_time"))
    found.sort(key=lambda job: str(_field(job, path) or ""), reverse=wanted.get("order") != "asc")
    limit = wanted.get("limit", 10)
    offset = wanted.get("offset", 0)
    return {
        "total": len(jobs),
        "count": len(found),
        "limit": limit,
        "offset": offset,
        "sort_by": sort_by,
        "order": wanted.get("order") or "desc",
        "group_by": wanted.get("group_by", ""),
        "workspace_id": "0",
        "ai_project": "default-ai-project",
        "items": found[offset * limit : (offset + 1) * limit],
    }


def events(moments: list[tuple[int, str]], wanted: Mapping[str, Any]) -> dict[str, Any]:
    """The events page: each phase the job entered is one event of source Job."""
    found = [
        {"time": iso(at), "level": "Info", "message": f"Training job is {phase}.", "source": "Job"}
        for at, phase in moments
        if _in_window(at, wanted["window"])
    ]
    if wanted["level"] is not None:
        found = [event for event in found if event["level"] == wanted["level"]]
    if wanted["source"] is not None:
        found = [event for event in found if event["source"] == wanted["source"]]
    if wanted["pattern"] is not None:
        found = [event for event in found if wanted["pattern"] in event["message"]]
    if wanted["order"] != "asc":
        found.reverse()
    offset, limit = max(wanted["offset"], 0), wanted["limit"]
    answer: dict[str, Any] = {
        "total": len(found),
        "limit": limit,
        "offset": offset,
        "order": wanted["order"],
        "events": found[offset : offset + limit],
    }
    if wanted["window"] is not None:
        answer["start_time"] = iso(wanted["window"][0])
        answer["end_time"] = iso(wanted["window"][1])
    return answer


def _in_window(at: int, window: tuple[int, int] | None) -> bool:
    return window is None or window[0] <= at <= window[1]


def logs_preview(task: str, phase: str) -> dict[str, Any]:
    # Table 2: content (String), current_size (Integer), full_size (Integer)
    content = f"[{task}] training job {phase}\n"
    size = len(content.encode())
    return {"content": content, "current_size": size, "full_size": size}


def logs_url(job_id: str, task: str) -> dict[str, Any]:
    # The page's example answer: {"obs_url": "http://.../logs/modelarts-job-...-worker-0-...log?..."}
    return {"obs_url": f"https://obs.example.invalid/logs/modelarts-job-{job_id}-{task}.log"}


def metrics(task: str) -> dict[str, Any]:
    example = copy.deepcopy(pages.examples(pages.METRICS_PAGE)[-1])
    return {"metrics": example["metrics"]}


def flavors(flavor_type: str | None) -> dict[str, Any]:
    catalogue = copy.deepcopy(pages.examples(pages.FLAVORS_PAGE)[-1]["flavors"])
    chosen = [f for f in catalogue if flavor_type is None or f.get("flavor_type") == flavor_type]
    return {"total_count": len(chosen), "flavors": chosen}


def engines() -> dict[str, Any]:
    answer: dict[str, Any] = copy.deepcopy(pages.examples(pages.ENGINES_PAGE)[-1])
    # The example elides engines with a "......" item: not an engine.
    answer["items"] = [item for item in answer["items"] if isinstance(item, dict)]
    answer["total"] = len(answer["items"])
    return answer
