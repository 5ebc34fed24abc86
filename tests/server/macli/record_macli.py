"""Record what the third-party CLI modelarts-macli 0.2.0 sends, driven against a running
reference server, as /work/shared/clients/README.md describes: import ``macli.__main__``
unchanged, point its session's base URL at the server, add an ``X-Auth-Token`` header, and
call ``main()`` with its own arguments. The exchanges go to ``macli-0.2.0-traffic.json``
beside this file (the token replaced by ``<token>``, hosts and job ids by placeholders), which
``tests/server/test_server_macli_traffic.py`` replays; the CLI is not a test dependency.

Run it in an environment that has the CLI (not the kit's: its pins do not include it)::

    python -m venv /tmp/macli && /tmp/macli/bin/pip install modelarts-macli==0.2.0
    modelarts-kit serve --port 8000 --clock-speed 60 &       # in the kit's environment
    /tmp/macli/bin/python tests/server/macli/record_macli.py http://127.0.0.1:8000

It creates 55 jobs first (``jobs --limit 100`` then pages the list), and downloads one job's
log with ``log JOB --task worker-0``.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import requests

PROJECT = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
TOKEN = "modelarts-kit-dev-token"
JOBS = 55
RUN_FOR_S = 3
OUT = Path(__file__).with_name("macli-0.2.0-traffic.json")


def main(base_url: str) -> None:
    import macli.__main__ as macli  # type: ignore[import-not-found]

    exchanges: list[dict[str, Any]] = []
    send = requests.Session.send

    def recording_send(self: requests.Session, request: Any, **kwargs: Any) -> Any:
        response = send(self, request, **kwargs)
        url = urlsplit(request.url)
        body = request.body
        exchanges.append(
            {
                "method": request.method,
                "path": url.path,
                "query": parse_qsl(url.query, keep_blank_values=True),
                "auth": "x-auth-token" in {k.lower() for k in request.headers},
                "body": json.loads(body) if body else None,
                "status": response.status_code,
                "items": _items(response) if not kwargs.get("stream") else None,
            }
        )
        return response

    requests.Session.send = recording_send  # type: ignore[method-assign]

    def restore(self: Any) -> bool:
        self.project_id, self.region, self.agency_id, self.workspace_id = PROJECT, "r", "", "0"
        self.cftk = None
        self._set_headers()
        self.http.headers["X-Auth-Token"] = TOKEN
        return True

    macli.ConsoleSession.restore = restore
    macli.ConsoleSession.base = property(lambda self: f"{base_url}/v2/{self.project_id}")
    job_ids = [_create(base_url, f"macli-paging-{index:02d}") for index in range(JOBS)]
    time.sleep(RUN_FOR_S)  # under --clock-speed 60 the first job starts and logs
    runs = {}
    for name, argv in {
        "jobs": ["jobs", "--limit", "100"],
        "log": ["log", job_ids[0], "--task", "worker-0", "--output", tempfile.mkdtemp()],
    }.items():
        exchanges.clear()
        sys.argv = ["macli", *argv]
        with contextlib.suppress(SystemExit):  # the CLI exits on its own
            macli.main()
        runs[name] = _placeholders(list(exchanges), base_url, job_ids)
    OUT.write_text(json.dumps(runs, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _items(response: Any) -> int | None:
    """How many jobs a list answer carried."""
    try:
        body = response.json()
    except ValueError:
        return None
    items = body.get("items") if isinstance(body, dict) else None
    return len(items) if isinstance(items, list) else None


def _create(base_url: str, name: str) -> str:
    answer = requests.post(
        f"{base_url}/v2/{PROJECT}/training-jobs",
        json={"kind": "job", "metadata": {"name": name}},
        headers={"X-Auth-Token": TOKEN},
        timeout=30,
    )
    answer.raise_for_status()
    return str(answer.json()["metadata"]["id"])


def _placeholders(exchanges: list[dict[str, Any]], base_url: str, job_ids: list[str]) -> Any:
    text = json.dumps(exchanges)
    for index, job_id in enumerate(job_ids):
        text = text.replace(job_id, f"<job-{index}>")
    host = urlsplit(base_url).netloc
    text = re.sub(r'\["Signature", "[0-9a-f]+"\]', '["Signature", "<signature>"]', text)
    text = re.sub(r'\["Expires", "[0-9]+"\]', '["Expires", "<expires>"]', text)
    return json.loads(text.replace(host, "<host>"))


if __name__ == "__main__":
    main(sys.argv[1])
