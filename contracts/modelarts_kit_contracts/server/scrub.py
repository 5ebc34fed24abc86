"""Configured secrets never leave a server run: the one redaction of the kit, under its old name.

The scrubber lives in :mod:`modelarts_kit_wire.redaction` (every reporter uses it);
this module keeps the names the server checker has always exported.
"""

from __future__ import annotations

from modelarts_kit_wire.redaction import MIN_SECRET_LENGTH, REDACTED, Scrubber

from modelarts_kit_contracts.core.findings import scrub_report

__all__ = ["MIN_SECRET_LENGTH", "REDACTED", "Scrubber", "scrub_report"]
