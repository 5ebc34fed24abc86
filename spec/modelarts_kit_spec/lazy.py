"""Package attributes imported on first use (PEP 562), for the kit's packages whose entry
points must start fast (``generate --check`` answers from a manifest before YAML, Jinja2 or
the spec loader load)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_attributes", "module_of"]


def module_of(package: str, home: str) -> str:
    """The module name a home of ``lazy_attributes`` stands for."""
    return home if "." in home else f"{package}.{home}"


def lazy_attributes(
    package: str, homes: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: a name of ``homes`` (name -> the
    submodule that defines it) is imported on first access and then kept in the package.

    A home with a dot is a module of another package, whose name ``package`` re-exports (the
    spec re-exports the wire layer's ``KitError``); any other home is a submodule of
    ``package``."""
    namespace = vars(sys.modules[package])

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module_of(package, home)), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *homes})

    return __getattr__, __dir__
