"""``scripts/node-adapter-figures`` prints the figures README.md quotes for the Node adapter
example, and README quotes them in its format (issue 35: README said 6 findings and "passes
every request check" while a fresh run said otherwise, and nothing regenerated the figures)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import re
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "node-adapter-figures"


def _script() -> ModuleType:
    loader = importlib.machinery.SourceFileLoader("node_adapter_figures", str(SCRIPT))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def _report(**failed: int) -> dict[str, Any]:
    checks = ["request_body", "request_auth", "error_code_intact", "retry_safe", "fidelity_x"]
    return {
        "exit_code": 1 if any(failed.values()) else 0,
        "failures": [{"check": name} for name, count in failed.items() if count],
        "checks": [{"check": name, "passed": 10, "failed": failed.get(name, 0)} for name in checks],
    }


def test_the_figures_name_findings_promised_checks_and_failed_answers() -> None:
    figures = _script().figures
    assert figures(_report(fidelity_x=3), 0) == [
        "seed 0: exit 1, 1 findings",
        "request, error and retry checks: all passed (4 checks)",
        "fidelity_x: 3 of 13 answers",
    ]
    assert figures(_report(request_body=1), 2)[1] == (
        "request, error and retry checks: failed: request_body (4 checks)"
    )


def test_readme_quotes_the_figures_in_the_scripts_format() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("scripts/node-adapter-figures", 1)[1]
    block = re.search(r"```text\n(.*?)```", section, re.DOTALL)
    assert block, "README shows what the script prints"
    lines = block.group(1).splitlines()
    assert re.fullmatch(r"seed 0: exit [01], \d+ findings", lines[0])
    assert re.fullmatch(r"request, error and retry checks: all passed \(\d+ checks\)", lines[1])
    assert all(re.fullmatch(r"fidelity_\w+: \d+ of \d+ answers", line) for line in lines[2:])
