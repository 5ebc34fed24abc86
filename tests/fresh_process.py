"""What a fresh Python process prints: the tests that hold a module to the imports it needs run
their code there, since the test process has loaded nearly everything already."""

from __future__ import annotations

import subprocess
import sys


def printed_in_a_fresh_process(code: str) -> list[str]:
    """The lines ``code`` prints in a new interpreter; it must exit 0 (its stderr says why not)."""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()
