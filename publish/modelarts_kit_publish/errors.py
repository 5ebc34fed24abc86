"""The one exception tree of the publisher."""

from __future__ import annotations

from modelarts_kit_wire.errors import KitError

__all__ = [
    "InvalidBundleError",
    "LedgerUndecidedError",
    "PreviousSpecError",
    "PublishError",
    "VersionReusedError",
]


class PublishError(KitError):
    """Publishing cannot proceed; nothing in the output directory was changed."""

    exit_code = 2


class PreviousSpecError(PublishError):
    """The previous published version cannot be read (bad file, git ref or tag)."""


class InvalidBundleError(PublishError):
    """The bundled spec is not a valid OpenAPI document."""

    exit_code = 1


class VersionReusedError(PublishError):
    """``info.version`` was already published with different content."""

    exit_code = 1


class LedgerUndecidedError(PublishError):
    """The ledger to be published is one ``spec validate`` refuses (an undecided entry, a
    pointer that does not resolve, an expectation that does not hold)."""

    exit_code = 1
