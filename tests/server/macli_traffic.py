"""modelarts-macli 0.2.0's recorded traffic (``macli/record_macli.py`` wrote it) and its
replay against a reference server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from modelarts_kit_server import DEV_TOKEN

__all__ = ["TRAFFIC", "replay"]

TRAFFIC: dict[str, list[dict[str, Any]]] = json.loads(
    (Path(__file__).parent / "macli" / "macli-0.2.0-traffic.json").read_text(encoding="utf-8")
)


def replay(url: str, exchange: dict[str, Any], job_ids: list[str]) -> httpx.Response:
    """One recorded macli request, against this server (placeholders filled in)."""
    text = json.dumps(exchange)
    for index, job_id in enumerate(job_ids):
        text = text.replace(f"<job-{index}>", job_id)
    request = json.loads(text)
    return httpx.request(
        request["method"],
        url + request["path"],
        params=request["query"],
        json=request["body"],
        headers={"X-Auth-Token": DEV_TOKEN} if request["auth"] else {},
        timeout=30,
    )
