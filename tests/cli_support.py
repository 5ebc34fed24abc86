"""Run ``modelarts-kit`` in-process and make its output comparable across machines and runs.

The ``kit`` fixture (``tests/conftest.py``) hands every test a :class:`Kit`::

    def test_my_report(kit: Kit, snapshot: SnapshotAssertion) -> None:
        result = kit("contract", "server", "--seed", "3", "--report", f"json:{kit.tmp}/r.json")
        assert result.exit_code == 1
        assert result.transcript() == snapshot          # exit code, stdout and stderr, scrubbed
        assert kit.read("r.json") == snapshot(name="json")  # a file the command wrote, scrubbed

Scrubbing replaces what differs between machines and runs, and nothing else: the repository
root, the vendor pages (``spec/sources``), the test's temporary directory, the home
directory, wall-clock times and timestamps, and seeds. A one-word change to any other part of
an output changes the snapshot. Update snapshots after an intended change with
``pytest <test file> --snapshot-update`` and review the diff.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner
from modelarts_kit.main import cli

__all__ = ["REPO", "SHARED", "Kit", "KitResult", "scrub"]

REPO = Path(__file__).resolve().parents[1]
# The vendor pages, kept in the repository (spec/sources/README.md).
SHARED = REPO / "spec" / "sources"

# Columns for click's help and rich's tables: the same on every terminal.
ENV = {"COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}

_TIMES = [
    # ISO 8601 timestamps (JUnit's timestamp="...", JSON reports).
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?"), "<timestamp>"),
    # JUnit durations.
    (re.compile(r'\btime="[0-9.]+"'), 'time="<time>"'),
    # Durations printed by humans' reports: 0.12 s, 3.4s, 15 ms, 1.5 ms.
    (re.compile(r"\b\d+\.\d+ ?m?s\b|\b\d+ ?ms\b"), "<time>"),
    # JSON durations: "duration_s": 1.23, "elapsed": 0.5...
    (
        re.compile(r'("(?:\w*_)?(?:duration|elapsed|seconds|time)(?:_s|_ms)?"\s*:\s*)[0-9.e-]+'),
        r"\1<time>",
    ),
]
_SEEDS = [
    (re.compile(r"(--seed[ =])\d+"), r"\1<seed>"),
    (re.compile(r"(\bseed[ =:]+)\d+", re.IGNORECASE), r"\1<seed>"),
    (re.compile(r'("seed"\s*:\s*)\d+'), r"\1<seed>"),
    (re.compile(r"(@seed\()\d+(\))"), r"\1<seed>\2"),
]


def scrub(text: str, paths: Mapping[Path, str] | None = None) -> str:
    """``text`` with machine- and run-specific parts replaced by ``<placeholders>``."""
    replacements = {REPO: "<repo>", SHARED: "<shared>", Path.home(): "<home>"}
    replacements.update(paths or {})
    # Longest path first, so that a temporary directory inside the repository stays <tmp>.
    for path, placeholder in sorted(replacements.items(), key=lambda kv: -len(str(kv[0]))):
        for spelling in {str(path), str(path.resolve())}:
            if spelling not in ("", "/"):
                text = text.replace(spelling, placeholder)
    for pattern, replacement in (*_TIMES, *_SEEDS):
        text = pattern.sub(replacement, text)
    return text


@dataclass(frozen=True)
class KitResult:
    """What one ``modelarts-kit`` run printed (already scrubbed) and how it exited."""

    args: tuple[str, ...]
    exit_code: int
    stdout: str
    stderr: str
    exception: BaseException | None

    def transcript(self) -> str:
        """The whole run as one text: the command, its exit code, stdout and stderr."""
        return (
            f"$ modelarts-kit {' '.join(self.args)}\n"
            f"exit {self.exit_code}\n"
            f"--- stdout\n{self.stdout}"
            f"--- stderr\n{self.stderr}"
        )


class Kit:
    """Runs ``modelarts-kit ARGS`` in-process; paths under ``tmp`` print as ``<tmp>``."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp

    def scrub(self, text: str) -> str:
        return scrub(text, {self.tmp: "<tmp>"})

    def __call__(self, *args: str | Path, env: Mapping[str, str] | None = None) -> KitResult:
        argv = [str(a) for a in args]
        result = CliRunner().invoke(
            cli, argv, env={**ENV, **(env or {})}, prog_name="modelarts-kit"
        )
        exception = result.exception
        if isinstance(exception, SystemExit):
            exception = None
        return KitResult(
            args=tuple(self.scrub(a) for a in argv),
            exit_code=result.exit_code,
            stdout=self.scrub(result.stdout),
            stderr=self.scrub(result.stderr),
            exception=exception,
        )

    def read(self, relative: str | Path) -> str:
        """A file the command wrote under ``tmp``, scrubbed."""
        return self.scrub((self.tmp / relative).read_text(encoding="utf-8"))
