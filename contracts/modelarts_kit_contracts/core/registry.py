"""The one check registry: every rule the kit checks is a named function registered here.

A check is a small function decorated with :func:`check`; its name is the function's name, and
its ``title`` (what a failure means, one line) and ``meaning`` (what the rule requires) are
given once, at the decorator, schemathesis style::

    @check(product="wire", title="request body breaks its schema",
           meaning="the body matches the request schema")
    def request_body(ctx: RequestContext) -> CheckResult: ...

A check returns ``None`` (the rule holds), a :class:`~.findings.Finding` or several (it is
broken), or :data:`SKIP` (it does not apply to what it was given: not counted). Products call
their checks through :meth:`Check.run` or :func:`evaluate`, which stamp the check's name on its
findings and count one evaluation in a :class:`~.findings.RunReport`.

Some rules are judged inside a conversation a driver holds with a server (create, then show,
then terminate): the driver records those outcomes itself; :func:`declare` registers their name,
title and meaning so reports and docs find them in the same place.

``product`` says which product owns the check: ``wire`` (request/response validation, shared by
the mock, the proxy and the client checker), ``server``, ``client``, ``mock``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from modelarts_kit_contracts.core.findings import Finding, RunReport

__all__ = [
    "REGISTRY",
    "SKIP",
    "Check",
    "CheckResult",
    "Product",
    "Registry",
    "check",
    "declare",
    "evaluate",
]

Product = Literal["wire", "server", "client", "mock"]


class _Skip:
    """The check does not apply to this input (not counted as passed or failed)."""

    _instance: _Skip | None = None

    def __new__(cls) -> _Skip:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "SKIP"


SKIP = _Skip()
CheckResult = Finding | Iterable[Finding] | _Skip | None
F = TypeVar("F", bound=Callable[..., CheckResult])


@dataclass(frozen=True)
class Check:
    """A registered check: its name, title, meaning, owner, and the function (if any)."""

    name: str
    title: str
    meaning: str
    product: Product
    function: Callable[..., CheckResult] | None = None

    def run(self, *args: Any, **kwargs: Any) -> list[Finding] | None:
        """Call the check; its findings, stamped with its name (None: it does not apply)."""
        if self.function is None:
            raise TypeError(f"check {self.name!r} is recorded by a driver; it cannot be called")
        result = self.function(*args, **kwargs)
        if isinstance(result, _Skip):
            return None
        if result is None:
            return []
        found = [result] if isinstance(result, Finding) else list(result)
        return [f if f.check else f.but(check=self.name) for f in found]


class Registry:
    """Every check of the kit, by name (one name, one check, whatever the product)."""

    def __init__(self) -> None:
        self._checks: dict[str, Check] = {}

    def add(self, entry: Check) -> Check:
        existing = self._checks.get(entry.name)
        if existing is not None and existing != entry:
            raise ValueError(f"check {entry.name!r} is already registered ({existing.product})")
        self._checks[entry.name] = entry
        return entry

    def __getitem__(self, name: str) -> Check:
        return self._checks[name]

    def __contains__(self, name: object) -> bool:
        return name in self._checks

    def __iter__(self) -> Iterator[Check]:
        return iter(self._checks.values())

    def __len__(self) -> int:
        return len(self._checks)

    def select(self, product: Product, *, prefix: str = "") -> tuple[Check, ...]:
        """The checks of ``product`` (whose names start with ``prefix``), in registration order."""
        return tuple(
            c for c in self._checks.values() if c.product == product and c.name.startswith(prefix)
        )

    def meaning(self, name: str) -> str:
        """What ``name`` requires ("" for a name the registry does not know: schemathesis's)."""
        entry = self._checks.get(name)
        return entry.meaning if entry is not None else ""


REGISTRY = Registry()


def check(
    *, product: Product, title: str, meaning: str, name: str | None = None
) -> Callable[[F], F]:
    """Register the decorated function as a check (its name is the function's name)."""

    def register(function: F) -> F:
        REGISTRY.add(Check(name or function.__name__, title, meaning, product, function))
        return function

    return register


def declare(name: str, *, product: Product, title: str, meaning: str) -> Check:
    """Register a check whose outcome a driver records (see the module docstring)."""
    return REGISTRY.add(Check(name, title, meaning, product))


def evaluate(report: RunReport, checks: Iterable[Check], *args: Any) -> list[Finding]:
    """Run ``checks`` on ``args``; record one evaluation each in ``report``; their findings."""
    out: list[Finding] = []
    for entry in checks:
        found = entry.run(*args)
        if found is None:
            continue
        report.record(entry.name, found)
        out += found
    return out
