"""Configured secrets never leave a run: every text of a report is scrubbed of their values.

:func:`scrub_report` replaces each configured secret value (the token, the AK, the SK) by
``[REDACTED]`` in every string a report carries: failure titles, messages and curl lines
(including response bodies that echo a secret), errors, notes, warnings and the target label.
The reporters and stdout only ever see the scrubbed report. Values are also matched in the
encoded forms a request or a body shows them in (URL-quoted, JSON-escaped).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from urllib.parse import quote, quote_plus

from modelarts_kit_contracts.core import Finding, RunReport

__all__ = ["MIN_SECRET_LENGTH", "REDACTED", "Scrubber", "scrub_report"]

REDACTED = "[REDACTED]"
# A shorter value cannot be told from ordinary text; such values are refused at parse time
# nowhere, but scrubbing them would mangle every report (a token "t").
MIN_SECRET_LENGTH = 4


class Scrubber:
    """Replace every form of the given secret values in a text."""

    def __init__(self, secrets: Iterable[str | None]) -> None:
        forms: set[str] = set()
        for secret in secrets:
            if not secret or len(secret) < MIN_SECRET_LENGTH:
                continue
            forms.update(
                {
                    secret,
                    quote(secret, safe=""),
                    quote(secret),
                    quote_plus(secret),
                    json.dumps(secret)[1:-1],
                }
            )
        # Longest first, so a secret containing another is replaced whole.
        self._forms = sorted(forms, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for form in self._forms:
            if form in text:
                text = text.replace(form, REDACTED)
        return text

    def __bool__(self) -> bool:
        return bool(self._forms)


def _scrub_failure(failure: Finding, scrub: Scrubber) -> Finding:
    changes: dict[str, object] = {
        f.name: scrub(value)
        for f in dataclasses.fields(failure)
        if isinstance(value := getattr(failure, f.name), str)
    }
    changes["also_at"] = tuple(scrub(place) for place in failure.also_at)
    return dataclasses.replace(failure, **changes)  # type: ignore[arg-type]


def scrub_report(report: RunReport, secrets: Iterable[str | None]) -> RunReport:
    """Scrub ``report`` in place (and return it)."""
    scrub = Scrubber(secrets)
    if not scrub:
        return report
    report.target = scrub(report.target)
    report.failures = [_scrub_failure(f, scrub) for f in report.failures]
    report.errors = [scrub(e) for e in report.errors]
    report.notes = [scrub(n) for n in report.notes]
    report.warnings = [_scrub_failure(w, scrub) for w in report.warnings]
    report.observations = [
        dataclasses.replace(o, **{f.name: scrub(getattr(o, f.name)) for f in dataclasses.fields(o)})
        for o in report.observations
    ]
    return report
