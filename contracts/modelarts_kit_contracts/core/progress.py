"""What a long contract run tells about its progress: the phase it is in, and each step done.

The runners (server and client checks) call it; the CLI decides how to show it (a spinner on a
terminal, one line per phase otherwise).
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["ProgressSink"]


class ProgressSink(Protocol):
    def phase(self, name: str) -> None: ...

    def advance(self, label: str) -> None: ...
