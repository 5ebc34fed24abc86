"""What the ledger records about the SDK: ``sources`` items ``{sdk, model, attribute, says}``.

An entry settles only what it records: an SDK finding is reconciled when an entry of the
same kind and a compatible side has a source naming the same model and attribute whose
``says`` is what that SDK says now (the type expression, or ``absent``). The recorded ``sdk``
version is evidence (which release was checked), not part of the match, so an entry keeps
settling a field across releases until the vendor changes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from modelarts_kit_spec import SpecError, read_matchable_ledger
from modelarts_kit_spec.ledger import LedgerEntry

from modelarts_kit_sdk.errors import SdkError
from modelarts_kit_sdk.sources import DISTRIBUTION

__all__ = ["SdkEvidence", "checked_release", "load_sdk_evidence"]


@dataclass(frozen=True)
class SdkEvidence:
    entry: str  # the ledger entry's id
    kind: str  # presence | type
    side: str  # request | response | both
    sdk: str  # the release the entry recorded
    model: str
    attribute: str
    says: str

    def settles(self, kind: str, side: str, model: str, attribute: str, says: str) -> bool:
        sides = {"parameter": "request"}
        return (
            self.kind == kind
            and self.side in ("both", sides.get(side, side))
            and (self.model, self.attribute, self.says) == (model, attribute, says)
        )


def load_sdk_evidence(ledger_path: Path) -> list[SdkEvidence]:
    """Every SDK source of every decided ledger entry (through the typed ledger)."""
    try:
        ledger = read_matchable_ledger(ledger_path)
    except SpecError as exc:
        raise SdkError(str(exc)) from exc
    out: list[SdkEvidence] = []
    for entry in ledger.entries:
        for source in entry.settling("sdk"):  # none for a TODO entry: it settles nothing
            if not (source.sdk and source.model and source.attribute and source.says):
                raise SdkError(
                    f"{ledger_path}: /entries/{entry.index} ({entry.id}): an sdk source needs "
                    "model, attribute and says"
                )
            out.append(
                SdkEvidence(
                    entry.id,
                    entry.kind,
                    entry.side,
                    source.sdk,
                    source.model,
                    source.attribute,
                    source.says,
                )
            )
    return out


def checked_release(entries: Iterable[LedgerEntry]) -> str | None:
    """The newest SDK release the ledger's SDK evidence was recorded from, as
    ``huaweicloudsdkmodelarts 3.1.219``; None when no entry has SDK evidence."""
    versions = {s.sdk for e in entries for s in e.sources if s.sdk}
    if not versions:
        return None

    def order(version: str) -> tuple[tuple[int, str], ...]:
        return tuple((int(p), "") if p.isdigit() else (-1, p) for p in re.split(r"[.+-]", version))

    return f"{DISTRIBUTION} {max(versions, key=order)}"
