"""Whether the browser tests (marker ``chromium``) can run here, and why not.

They drive Debian's ``chromium`` (``apt-get install chromium``) through playwright, without a
browser download. Without it, a developer's run skips them with the reason in pytest's summary
(``-ra``), never a silent pass; under CI (``CI=true``) they run and fail, because CI installs it.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["CHROMIUM", "chromium_skip_reason"]

CHROMIUM = Path("/usr/bin/chromium")


def chromium_skip_reason(*, chromium: Path, ci: bool) -> str | None:
    """The reason to skip the ``chromium`` tests, or None when they must run."""
    if ci or chromium.exists():
        return None
    return (
        f"Debian's chromium is not installed ({chromium}): the browser test of the published "
        "reference is skipped; apt-get install chromium to run it (CI installs it and fails "
        "without it), or deselect it with -m 'not chromium'"
    )
