"""What the ledger records about the SDK: ``sources`` items ``{sdk, model, attribute, says}``.

An entry settles only what it records: an SDK finding is reconciled when an entry of the
same kind and a compatible side has a source naming the same model and attribute whose
``says`` is what that SDK says now (the type expression, or ``absent``). The recorded ``sdk``
version is evidence (which release was checked), not part of the match, so an entry keeps
settling a field across releases until the vendor changes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from modelarts_kit_spec import LEDGER_PATH, SpecError, load_ledger

from modelarts_kit_sdk.errors import SdkError

__all__ = ["SdkEvidence", "load_sdk_evidence"]


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


def load_sdk_evidence(ledger_path: Path | None = None) -> list[SdkEvidence]:
    """Every SDK source of every ledger entry (the one place this package reads the ledger)."""
    path = LEDGER_PATH if ledger_path is None else ledger_path
    try:
        entries = load_ledger(path)
    except SpecError as exc:
        raise SdkError(str(exc)) from exc
    out: list[SdkEvidence] = []
    for number, entry in enumerate(entries):
        if not isinstance(entry, Mapping):
            continue  # spec validate reports malformed entries
        for source in entry.get("sources") or []:
            if not (isinstance(source, Mapping) and "sdk" in source):
                continue
            missing = [k for k in ("model", "attribute", "says") if k not in source]
            if missing:
                raise SdkError(
                    f"{path}: /entries/{number} ({entry.get('id')}): an sdk source needs "
                    f"{', '.join(missing)}"
                )
            out.append(
                SdkEvidence(
                    entry=str(entry.get("id", f"#{number}")),
                    kind=str(entry.get("kind", "")),
                    side=str(entry.get("side", "both")),
                    sdk=str(source["sdk"]),
                    model=str(source["model"]),
                    attribute=str(source["attribute"]),
                    says=str(source["says"]),
                )
            )
    return out
