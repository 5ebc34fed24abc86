"""The one exception tree of the SDK package."""

from __future__ import annotations

from modelarts_kit_wire.errors import EXIT_USAGE, KitError

__all__ = ["SdkError"]


class SdkError(KitError):
    """An SDK that cannot be found, fetched or read (exit code 2); the message is one line."""

    exit_code = EXIT_USAGE
