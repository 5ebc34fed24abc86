"""The two places users wire the kit in: ``.pre-commit-hooks.yaml`` and the GitHub Actions recipe
in ``docs/ci/``. Both must parse, and every command they run must exist with the flags they pass.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import yaml

from tests.browser import chromium_skip_reason
from tests.cli.commands import LEAF_COMMANDS, command_at
from tests.cli_support import REPO

HOOKS = REPO / ".pre-commit-hooks.yaml"
WORKFLOW = REPO / "docs" / "ci" / "github-actions-contract.yml"
# pre-commit's manifest schema: required keys, and the languages these hooks may use.
HOOK_KEYS = {"id", "name", "entry", "language"}


def _hooks() -> list[dict[str, Any]]:
    hooks = yaml.safe_load(HOOKS.read_text(encoding="utf-8"))
    assert isinstance(hooks, list)
    return hooks


def _command(argv: list[str]) -> tuple[tuple[str, ...], list[str]]:
    """Split ``modelarts-kit A B --x ...`` into the command path and its arguments."""
    assert argv[0] == "modelarts-kit", argv
    for path in sorted(LEAF_COMMANDS, key=len, reverse=True):
        if tuple(argv[1 : 1 + len(path)]) == path:
            return path, argv[1 + len(path) :]
    raise AssertionError(f"no such command: {' '.join(argv)}")


def _assert_options_exist(path: tuple[str, ...], arguments: list[str]) -> None:
    command = command_at(path)
    known = {opt for p in command.params if isinstance(p, click.Option) for opt in p.opts}
    for argument in arguments:
        if argument.startswith("--"):
            assert argument.split("=")[0] in known, f"{' '.join(path)} has no {argument}"


def test_pre_commit_hooks_parse_and_name_real_commands() -> None:
    hooks = _hooks()
    assert [h["id"] for h in hooks] == ["modelarts-spec-validate", "modelarts-generate-check"]
    for hook in hooks:
        assert set(hook) >= HOOK_KEYS, hook
        assert hook["language"] == "system"
        assert hook["pass_filenames"] is False
        path, arguments = _command(shlex.split(hook["entry"]))
        _assert_options_exist(path, arguments)


def test_pre_commit_hook_entries_run_green_on_this_repository() -> None:
    """Each entry, run as pre-commit runs it (a subprocess in the repository), exits 0."""
    bindir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"}
    for hook in _hooks():
        done = subprocess.run(
            shlex.split(hook["entry"]), cwd=REPO, env=env, capture_output=True, text=True,
            timeout=600, check=False,
        )  # fmt: skip
        assert done.returncode == 0, (hook["id"], done.stdout[-2000:], done.stderr[-2000:])


def test_github_actions_recipe() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    (job,) = workflow["jobs"].values()
    assert "services" in job, "the service under test runs as a service container"
    steps = job["steps"]
    runs = [s["run"] for s in steps if "run" in s]
    (contract,) = [r for r in runs if r.startswith("modelarts-kit ")]
    argv = shlex.split(contract)
    path, arguments = _command(argv)
    assert path == ("contract", "server")
    _assert_options_exist(path, arguments)
    reports = [arguments[i + 1] for i, a in enumerate(arguments) if a == "--report"]
    junit = [r for r in reports if r.startswith("junit:")]
    assert junit, "the recipe writes a JUnit report"
    (upload,) = [s for s in steps if str(s.get("uses", "")).startswith("actions/upload-artifact")]
    uploaded = upload["with"]["path"]
    assert all(r.split(":", 1)[1].startswith(uploaded) for r in junit), (uploaded, junit)
    # --report writes into an existing folder only: an earlier step makes it.
    before = runs[: runs.index(contract)]
    folders = {str(Path(r.split(":", 1)[1]).parent) for r in reports}
    assert all(any(f"mkdir -p {folder}" in run for run in before) for folder in folders), before
    assert "always()" in upload["if"] or "cancelled()" in upload["if"], "upload failed runs too"


def test_readme_points_to_both() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert ".pre-commit-hooks.yaml" in readme
    assert "docs/ci/github-actions-contract.yml" in readme


def test_browser_tests_skip_visibly_here_and_run_under_ci(tmp_path: Path) -> None:
    absent = tmp_path / "no-chromium"
    reason = chromium_skip_reason(chromium=absent, ci=False)
    assert reason is not None
    assert "apt-get install chromium" in reason
    assert str(absent) in reason
    assert chromium_skip_reason(chromium=absent, ci=True) is None  # CI runs them, and fails
    present = tmp_path / "chromium"
    present.write_text("")
    assert chromium_skip_reason(chromium=present, ci=False) is None
