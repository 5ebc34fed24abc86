"""The last values computed, by key: a bounded, thread-safe memo (least recently used goes).

For pure results a process computes again and again from the same input (a YAML text parsed,
a page's inventory built, a wire body's nesting checked). Callers own what is stored and what
is handed out: a mutable result is copied on the way in and on the way out, so no caller ever
shares it. In the wire layer, the kit's floor, so that every layer has the one memo.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

__all__ = ["Recent"]

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """At most ``size`` values, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def __contains__(self, key: object) -> bool:
        """Whether ``key`` is kept (its place in the order is left as it is)."""
        with self._lock:
            return key in self._values

    def __len__(self) -> int:
        with self._lock:
            return len(self._values)
