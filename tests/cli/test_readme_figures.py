"""Every time README.md quotes as measured says the load it was measured under (issue 35: a
figure without its load cannot be compared with anything, on a machine shared with others).
Settings that happen to be durations (a 10 s header timeout) are not measurements: a paragraph
counts as quoting a measurement when it says it took, measured or timed something."""

from __future__ import annotations

import re

from tests.cli_support import REPO

TIME = re.compile(r"\b\d+(?:\.\d+)? ?(?:s|ms|min)\b")
MEASURED = re.compile(r"\b(?:took|wall(?!-clock)|medians?|[Mm]easured)\b")


def _prose_paragraphs(text: str) -> list[str]:
    """README's paragraphs outside fenced blocks."""
    prose = re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)
    return [p for p in re.split(r"\n\s*\n", prose) if p.strip()]


def test_every_measured_time_in_readme_says_its_load() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    measured = [p for p in _prose_paragraphs(readme) if TIME.search(p) and MEASURED.search(p)]
    assert measured, "README quotes measured times"
    unstated = [p[:120] for p in measured if "load" not in p]
    assert unstated == []
