"""Settling: the ledger's decisions, and which findings each settles with its own evidence."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from modelarts_kit_spec import LedgerEntry, SpecError, ledger_for, read_matchable_ledger

from modelarts_kit_vendordocs.errors import LedgerError
from modelarts_kit_vendordocs.findings import DriftFinding, normalise_field
from modelarts_kit_vendordocs.settle import ABSENT, DROPPED, recorded_by_page, says_recorded


def _no_evidence() -> Mapping[str, frozenset[str]]:
    return MappingProxyType({})


def _ledger_side(side: str) -> str:
    return "response" if side == "response" else "request"


@dataclass(frozen=True)
class Decision:
    """A ledger entry, reduced to what matching needs: where it applies and what it recorded.

    ``evidence`` holds, per page file name, the values that page's sources recorded, as
    comparison keys (see :mod:`modelarts_kit_vendordocs.settle`): a finding is settled only
    when a page whose evidence it may use (:attr:`DriftFinding.evidence`) recorded what it says.
    """

    id: str
    kind: str
    field: str
    side: str
    operations: frozenset[str] | None  # None: every operation
    aliases: frozenset[str]  # field paths this entry accounts for (normalised)
    pointer: str | None = None
    evidence: Mapping[str, frozenset[str]] = dataclasses.field(default_factory=_no_evidence)
    says: tuple[str, ...] = ()  # the sources' words, for the report
    todo: bool = False

    @property
    def recorded(self) -> frozenset[str]:
        """Every key any page recorded (what the report shows; settling goes per page)."""
        return frozenset(key for keys in self.evidence.values() for key in keys)

    def applies(self, finding: DriftFinding) -> bool:
        """The entry is about this finding (same kind, field, side and operation)."""
        if self.operations is not None and finding.operation not in self.operations:
            return False
        if self.side != "both" and self.side != _ledger_side(finding.side):
            return False
        if finding.kind == "status-code":
            return self.kind == "status-code" and (
                self.field in ("", "(responses)") or self.field == finding.field
            )
        target = normalise_field(finding.field)
        if self.kind == finding.kind == "name" and self.pointer and self.pointer == finding.pointer:
            return True  # a schema's name is one decision wherever the schema is used
        if self.kind == finding.kind:
            return target == normalise_field(self.field)
        return self.kind == "name" and finding.kind == "presence" and target in self.aliases

    def settles(self, finding: DriftFinding) -> bool:
        """The page says what this entry recorded (a TODO entry settles nothing)."""
        if self.todo:
            return False
        if not self.applies(finding):
            return self.decided(finding)
        if self.kind == "name" and finding.kind == "presence":
            return True  # the alias itself is what the entry recorded
        pages = finding.evidence or ((finding.page,) if finding.page else tuple(self.evidence))
        if any(
            says_recorded(self.kind, self.evidence.get(page, frozenset()), finding.value)
            for page in pages
        ):
            return True
        return self.decided(finding)

    def decided(self, finding: DriftFinding) -> bool:
        """A revision (a page replacing a recorded one) says what another page once said and
        this entry weighed: the value is decided for the schema, and asking again would be the
        same question (issue 33). A field a revision does not list is decided where a page was
        recorded without it. A recorded page is settled by its own evidence only (a value a
        run adds to the spec must still be asked of the pages that do not list it)."""
        if finding.kind == "status-code" or self.kind != finding.kind:
            return False
        if len(finding.evidence) < 2:
            return False  # a recorded page, not a revision: its own evidence speaks for it
        # One decision per schema: the entry about this very property, wherever it is reached.
        same_schema = self.pointer is not None and self.pointer == finding.pointer
        if not (same_schema or self.applies(finding)):
            return False
        value = ABSENT if finding.kind == "presence" and finding.value == DROPPED else finding.value
        return any(says_recorded(self.kind, keys, value) for keys in self.evidence.values())

    def covers(self, finding: DriftFinding) -> bool:
        return self.settles(finding)


def load_decisions(ledger_path: Path | None, spec_path: Path | None) -> list[Decision]:
    """The ledger next to the spec (or the given one); a custom spec without one has none."""
    if ledger_path is None:
        ledger_path = ledger_for(spec_path)
        if ledger_path is None:
            return []
    try:
        ledger = read_matchable_ledger(ledger_path)
    except SpecError as exc:
        raise LedgerError(str(exc)) from exc
    return decisions_from_entries(ledger.entries)


def decisions_from_entries(entries: Iterable[LedgerEntry]) -> list[Decision]:
    out: list[Decision] = []
    for entry in entries:
        field_path = normalise_field(entry.field)
        aliases = {field_path}
        parent = field_path.rpartition(".")[0]
        for says in entry.says():
            if re.fullmatch(r"[A-Za-z_][\w\-]*", says.strip()):
                aliases.add(f"{parent}.{says.strip()}" if parent else says.strip())
        out.append(
            Decision(
                id=entry.id,
                kind=entry.kind,
                field=entry.field,
                side=entry.side,
                operations=None if entry.operations is None else frozenset(entry.operations),
                aliases=frozenset(aliases),
                pointer=entry.pointer,
                # Only what pages said settles a page: SDK evidence ({sdk, model, attribute})
                # supports the decision but records no page value.
                evidence=recorded_by_page(
                    entry.kind,
                    ((src.seed, src.says) for src in entry.settling("page") if src.says),
                ),
                says=entry.says(),
                todo=entry.todo,
            )
        )
    return out
