"""Server settings: accepted credentials, storage, clock, faults (one frozen dataclass).

Credentials are accepted as objects or as the CLI's strings (``TOKEN`` / ``TOKEN:PROJECT_ID``
and ``AK:SK:PROJECT_ID``); their reprs never show the secret.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from modelarts_kit_server.clock import Clock
from modelarts_kit_server.errors import ConfigError
from modelarts_kit_server.faults import FaultPlan
from modelarts_kit_server.lifecycle import LifecycleTimings

__all__ = [
    "DEFAULT_MAX_BODY_BYTES",
    "DEV_PROJECT_ID",
    "DEV_TOKEN",
    "LENIENT",
    "STRICT",
    "STRICTNESS",
    "VENDOR_MAX_BODY_BYTES",
    "AkSkCredential",
    "ServerSettings",
    "TokenGrant",
]

DEV_TOKEN = "modelarts-kit-dev-token"
DEV_PROJECT_ID = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
DEFAULT_USER_NAME = "modelarts-kit"
# The vendor's 413 (ModelArts.4104) says "Use a request body smaller than 12 MB": the most any
# server of this API accepts. The reference server's default is lower: a real create body is a
# few KB, and the limit bounds the work (parsing, validation, storage) one request can demand.
VENDOR_MAX_BODY_BYTES = 12 * 1024 * 1024
DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024
MAX_CLOCK_SPEED = 1e6  # a simulated day in under 0.1 s; more serves no test and risks overflow

# A project id is a path segment: no separators, no whitespace.
PROJECT_ID_SHAPE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def _check_project_id(option: str, project_id: str) -> str:
    if not PROJECT_ID_SHAPE.match(project_id):
        raise ConfigError(
            f"{option}: project id {project_id!r} must be 1-64 letters, digits, '_' or '-'"
        )
    return project_id


@dataclass(frozen=True)
class TokenGrant:
    """An accepted ``X-Auth-Token``, valid for every project or bound to one."""

    token: str = field(repr=False)
    project_id: str | None = None

    @classmethod
    def parse(cls, text: str) -> TokenGrant:
        """``TOKEN`` or ``TOKEN:PROJECT_ID``."""
        token, sep, project_id = text.partition(":")
        if not token or any(c.isspace() for c in token):
            raise ConfigError("--token: the token must be non-empty and contain no whitespace")
        if sep:
            return cls(token, _check_project_id("--token", project_id))
        return cls(token)

    def __repr__(self) -> str:
        return f"TokenGrant(token=<redacted>, project_id={self.project_id!r})"


@dataclass(frozen=True)
class AkSkCredential:
    """An access key pair for ``SDK-HMAC-SHA256`` signed requests, bound to one project."""

    access_key: str
    secret_key: str = field(repr=False)
    project_id: str

    @classmethod
    def parse(cls, text: str) -> AkSkCredential:
        """``AK:SK:PROJECT_ID``."""
        parts = text.split(":")
        if len(parts) != 3 or not all(parts):
            raise ConfigError("--aksk: expected AK:SK:PROJECT_ID (three non-empty parts)")
        access_key, secret_key, project_id = parts
        return cls(access_key, secret_key, _check_project_id("--aksk", project_id))

    def __repr__(self) -> str:
        return "AkSkCredential(access_key=<redacted>, secret_key=<redacted>, " + (
            f"project_id={self.project_id!r})"
        )


LENIENT = "lenient"
STRICT = "strict"
STRICTNESS = (LENIENT, STRICT)


@dataclass(frozen=True)
class ServerSettings:
    """Everything that configures one reference server instance.

    ``tokens``: accepted ``X-Auth-Token`` values; empty means the development token
    :data:`DEV_TOKEN` (valid for every project). ``aksk``: access keys for signed requests.
    ``db_path``: SQLite file (None: in memory). ``clock``: the simulated clock (default: a
    :class:`~modelarts_kit_server.clock.SimulatedClock` at ``clock_speed``); pass a
    :class:`~modelarts_kit_server.clock.ManualClock` for deterministic tests. ``faults``:
    fault injection plan (None: off). ``fault_sleep``: how a latency fault waits (tests pass
    a recorder, so they count the waits instead of timing them). ``wall_clock``: seconds
    since the epoch, used to check ``X-Sdk-Date`` (real time, not the simulated clock).
    ``spec_path``: another spec file.
    ``id_seed``: draw job ids (still UUID4-shaped) from a generator with this seed instead
    of at random, for reproducible runs. ``max_body_bytes``: the largest request body accepted
    (413 beyond; default 2 MiB, at most the vendor's 12 MB). ``strictness``: which end of the
    spec's envelopes the server plays (:data:`STRICTNESS`): ``lenient`` (the default) enforces
    only what every server must refuse (the ``must-reject`` envelope) and ignores, without
    storing or echoing them, request fields the spec does not have; ``strict`` accepts only
    what every server must accept (the ``must-accept`` envelope: guidance enforced,
    undocumented and SDK-only fields refused). ``catalogue``: create refuses a
    ``spec.resource.flavor_id`` or an ``algorithm.engine`` that the catalogue of flavors and
    engines (the spec's examples of those operations) does not have (``serve --catalogue``).
    """

    tokens: tuple[TokenGrant | str, ...] = ()
    aksk: tuple[AkSkCredential | str, ...] = ()
    db_path: Path | str | None = None
    clock_speed: float = 1.0
    clock: Clock | None = None
    timings: LifecycleTimings = field(default_factory=LifecycleTimings)
    faults: FaultPlan | None = None
    fault_sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    user_name: str = DEFAULT_USER_NAME
    signature_max_skew_s: float = 15 * 60
    wall_clock: Callable[[], float] = time.time
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    spec_path: Path | None = None
    id_seed: int | None = None
    strictness: str = LENIENT
    catalogue: bool = False

    def __post_init__(self) -> None:
        if self.strictness not in STRICTNESS:
            raise ConfigError(
                f"--strictness must be one of {', '.join(STRICTNESS)}, got {self.strictness!r}"
            )
        object.__setattr__(self, "tokens", tuple(_grants(self.tokens)))
        object.__setattr__(self, "aksk", tuple(_credentials(self.aksk)))
        if self.db_path is not None:
            object.__setattr__(self, "db_path", Path(self.db_path))
        if not 0 < self.clock_speed <= MAX_CLOCK_SPEED:
            raise ConfigError(
                f"--clock-speed must be > 0 and <= {MAX_CLOCK_SPEED:g}, got {self.clock_speed!r}"
            )
        if not 0 < self.max_body_bytes <= VENDOR_MAX_BODY_BYTES:
            raise ConfigError(
                f"max_body_bytes must be > 0 and <= {VENDOR_MAX_BODY_BYTES} (the vendor's 12 MB), "
                f"got {self.max_body_bytes!r}"
            )
        keys = [credential.access_key for credential in self.credentials]
        if len(set(keys)) != len(keys):
            raise ConfigError("--aksk: the same access key is given twice")

    @property
    def effective_tokens(self) -> tuple[TokenGrant, ...]:
        """The accepted tokens: the configured ones, or the development token."""
        grants = tuple(t for t in self.tokens if isinstance(t, TokenGrant))
        return grants or (TokenGrant(DEV_TOKEN),)

    @property
    def credentials(self) -> tuple[AkSkCredential, ...]:
        """The configured access keys (parsed)."""
        return tuple(c for c in self.aksk if isinstance(c, AkSkCredential))

    @property
    def database(self) -> Path | None:
        return None if self.db_path is None else Path(self.db_path)

    @property
    def uses_dev_token(self) -> bool:
        return not self.tokens


def _grants(values: Iterable[TokenGrant | str]) -> Iterable[TokenGrant]:
    for value in values:
        yield value if isinstance(value, TokenGrant) else TokenGrant.parse(value)


def _credentials(values: Iterable[AkSkCredential | str]) -> Iterable[AkSkCredential]:
    for value in values:
        yield value if isinstance(value, AkSkCredential) else AkSkCredential.parse(value)
