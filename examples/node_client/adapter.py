"""An adapter for a client in another language: ``client.mjs`` (JavaScript), driven as a program.

The client check calls ``create``/``show``/``stop``; this adapter runs ``node client.mjs`` for
each call with the mock's URL and the check's token in its environment (never on its command
line), and reads the one JSON line the program prints. The client talks HTTP to the mock like
it would to the real service, so the check sees exactly what it sends and what it makes of the
answers. Use it with::

    modelarts-kit contract client --adapter examples.node_client.adapter:create_adapter

(from the repository root, so that ``examples`` is importable).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from modelarts_kit_contracts.client.adapters import AdapterError, ClientTarget, ErrorInfo

__all__ = ["NodeApiError", "NodeClientAdapter", "create_adapter"]

SCRIPT = Path(__file__).with_name("client.mjs")


class NodeApiError(Exception):
    """The API error the JavaScript client reported: status, error_code, error_msg."""

    def __init__(self, status: int, code: str | None, message: str | None) -> None:
        super().__init__(f"HTTP {status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


class NodeClientAdapter:
    name = "node-client"

    def __init__(self, target: ClientTarget) -> None:
        node = shutil.which("node")
        if node is None:
            raise AdapterError("--adapter node-client: needs Node.js 18+ ('node' not on PATH)")
        if target.auth != "token":
            raise AdapterError("--adapter node-client: supports --auth token only")
        self.node = node
        self.timeout_s = target.timeout_s
        self.env = {
            **os.environ,
            "MODELARTS_BASE_URL": target.base_url,
            "MODELARTS_TOKEN": target.token,
        }

    def _run(self, *args: str) -> Any:
        done = subprocess.run(
            [self.node, str(SCRIPT), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=self.timeout_s,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"client.mjs exited {done.returncode}: {done.stderr.strip()}")
        outcome = json.loads(done.stdout)
        if "error" in outcome:
            error = outcome["error"]
            raise NodeApiError(error["status"], error["error_code"], error["error_msg"])
        return outcome["result"]

    def create(self, project_id: str, body: Any) -> object:
        return self._run("create", project_id, json.dumps(body))

    def show(self, project_id: str, job_id: str) -> object:
        return self._run("show", project_id, job_id)

    def stop(self, project_id: str, job_id: str) -> object:
        return self._run("stop", project_id, job_id)

    def to_dict(self, result: object) -> Any:
        return result  # the program already hands back JSON values

    def error_info(self, exc: BaseException) -> ErrorInfo | None:
        if isinstance(exc, NodeApiError):
            return (exc.status, exc.code, exc.message)
        return None

    def close(self) -> None:
        return None


def create_adapter(target: ClientTarget) -> NodeClientAdapter:
    return NodeClientAdapter(target)
