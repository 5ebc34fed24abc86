"""Optional fault injection, for testing clients' retry and timeout handling (off by default).

``--faults`` takes comma-separated ``KIND=RATE[:PARAM]`` items, each rate a probability in
[0, 1] drawn per request from a generator seeded with ``--fault-seed`` (reproducible runs):

- ``latency=RATE[:SECONDS]``: delay the response by SECONDS (default 0.5), then answer normally;
- ``429=RATE[:RETRY_AFTER]``: answer 429 ``too-many-requests`` with ``Retry-After`` (default 1 s);
- ``503=RATE``: answer 503 ``service-unavailable``;
- ``drop=RATE``: start the response, then close the connection without a body.

Example: ``--faults latency=0.2:0.3,429=0.1:2,503=0.05,drop=0.02 --fault-seed 7``.
Faults are decided before authentication, as a gateway in front of the service would.

Functions: :meth:`FaultPlan.parse`, :meth:`FaultPlan.draw` (one decision per request).
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from enum import StrEnum

from modelarts_kit_server.errors import ConfigError

__all__ = ["Fault", "FaultKind", "FaultPlan"]


class FaultKind(StrEnum):
    LATENCY = "latency"
    TOO_MANY_REQUESTS = "429"
    UNAVAILABLE = "503"
    DROP = "drop"


DEFAULT_PARAMETER = {
    FaultKind.LATENCY: 0.5,
    FaultKind.TOO_MANY_REQUESTS: 1.0,
    FaultKind.UNAVAILABLE: 0.0,
    FaultKind.DROP: 0.0,
}


@dataclass(frozen=True)
class Fault:
    kind: FaultKind
    rate: float
    parameter: float  # latency seconds, or Retry-After seconds for 429


@dataclass(frozen=True)
class FaultPlan:
    """Which faults to inject at which rates; :meth:`draw` is thread-safe and seeded."""

    faults: tuple[Fault, ...]
    seed: int = 0
    _random: random.Random = field(init=False, repr=False, compare=False)
    _lock: threading.Lock = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_random", random.Random(self.seed))
        object.__setattr__(self, "_lock", threading.Lock())

    @classmethod
    def parse(cls, text: str, seed: int = 0) -> FaultPlan:
        """Parse ``KIND=RATE[:PARAM],...``; ConfigError names the bad item and the rule."""
        faults: list[Fault] = []
        seen: set[FaultKind] = set()
        for raw_item in text.split(","):
            item = raw_item.strip()
            if not item:
                continue
            name, sep, value = item.partition("=")
            try:
                kind = FaultKind(name.strip().lower())
            except ValueError:
                known = ", ".join(k.value for k in FaultKind)
                raise ConfigError(
                    f"--faults: unknown fault {name.strip()!r} in {item!r} (known: {known})"
                ) from None
            if not sep:
                raise ConfigError(f"--faults: {item!r} must be KIND=RATE[:PARAM]")
            if kind in seen:
                raise ConfigError(f"--faults: {kind.value} is given twice")
            seen.add(kind)
            rate_text, _, parameter_text = value.partition(":")
            rate = _number(item, "rate", rate_text)
            if not 0 <= rate <= 1:
                raise ConfigError(f"--faults: rate in {item!r} must be between 0 and 1")
            parameter = DEFAULT_PARAMETER[kind]
            if parameter_text:
                if kind in (FaultKind.UNAVAILABLE, FaultKind.DROP):
                    raise ConfigError(f"--faults: {kind.value} takes no parameter ({item!r})")
                parameter = _number(item, "parameter", parameter_text)
                if not 0 <= parameter <= 3600:
                    raise ConfigError(
                        f"--faults: parameter in {item!r} must be between 0 and 3600 seconds"
                    )
            faults.append(Fault(kind, rate, parameter))
        if not faults:
            raise ConfigError("--faults: no fault given (expected KIND=RATE[:PARAM],...)")
        return cls(tuple(faults), seed)

    def draw(self) -> list[Fault]:
        """The faults that hit this request: latency may combine with one failure."""
        hits: list[Fault] = []
        with self._lock:
            for fault in self.faults:
                if self._random.random() < fault.rate:
                    hits.append(fault)
        failures = [f for f in hits if f.kind is not FaultKind.LATENCY]
        latency = [f for f in hits if f.kind is FaultKind.LATENCY]
        return latency + failures[:1]


def _number(item: str, what: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ConfigError(f"--faults: {what} in {item!r} is not a number: {text!r}") from None
    if value != value:  # NaN
        raise ConfigError(f"--faults: {what} in {item!r} is not a number: {text!r}")
    return value
