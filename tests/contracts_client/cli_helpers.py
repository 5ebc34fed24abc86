"""Helpers for tests that run a serving CLI command in a subprocess."""

from __future__ import annotations

import re
from typing import IO

_URL = re.compile(r" on (http://127\.0\.0\.1:\d+)")


def announced_url(stream: IO[str], max_lines: int = 50) -> str:
    """The URL a serving command announces on stderr (lines before it, e.g. warnings, skipped)."""
    for _ in range(max_lines):
        line = stream.readline()
        if not line:
            break
        found = _URL.search(line)
        if found:
            return found[1]
    raise AssertionError("the command did not announce its URL")
