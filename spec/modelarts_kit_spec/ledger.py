"""The discrepancy ledger, typed and parsed once.

``ledger.yaml`` beside the spec records every disagreement between the vendor's sources and
the decision the spec takes. Every consumer (``spec validate``, ``docs diff``, ``publish``,
the tests) reads it through :func:`read_ledger`, which parses the file once per
modification time and returns a :class:`Ledger` of :class:`LedgerEntry` objects.

Format (one entry)::

    - id: status-start-time-type          # unique
      pointer: /components/schemas/Status/properties/start_time
      field: status.start_time            # dotted path as the pages print it
      side: response                      # request | response | both
      operations: [CreateTrainingJob]     # omitted: every operation
      kind: type                          # what disagrees (see LEDGER_KINDS in validate.py)
      sources:                            # what each source said
        - {seed: 000_....txt, table: "Table 5 Status", says: "Long"}
        - {sdk: "3.1.219", model: Status, attribute: start_time, says: "int"}
      decision: "integer, format int64"   # "TODO" while a human has not decided
      expect: {type: integer, format: int64}
      reason: "..."

A source's ``says`` is what that source wrote (a type word, ``Mandatory: Yes``, a list of
values, ``(absent)``), and it is evidence about the page its ``seed`` names only: ``docs diff``
settles a finding with an entry only when a source naming the finding's page (or the page it
replaces, ``--replaces``) recorded what the page says now; a list (status codes) is settled
item by item. Unknown keys (in an entry or a source) are
kept in ``extra`` so that newer entry kinds (SDK evidence, guidance) load unchanged.

Parsing never raises on a malformed entry: it is skipped and described in
:attr:`Ledger.problems`, which ``spec validate`` reports and ``docs diff`` refuses.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from modelarts_kit_spec.document import JSON, SpecError
from modelarts_kit_spec.paths import LEDGER_PATH, SPEC_PATH
from modelarts_kit_spec.reader import read_yaml

__all__ = [
    "TODO",
    "Ledger",
    "LedgerEntry",
    "LedgerProblem",
    "LedgerSource",
    "ledger_for",
    "parse_ledger",
    "read_ledger",
    "read_matchable_ledger",
]

TODO = "TODO"  # the decision of an entry a human still has to settle
EVIDENCE = ("page", "sdk")  # the kinds of evidence a source records (LedgerEntry.settling)
SIDES = ("request", "response", "both")
REQUIRED_KEYS = ("id", "pointer", "kind", "side", "sources", "decision", "expect", "reason")
_SOURCE_KEYS = ("seed", "table", "says", "sdk", "model", "attribute", "client", "version")
_ENTRY_KEYS = (
    "id",
    "pointer",
    "field",
    "side",
    "operations",
    "kind",
    "sources",
    "decision",
    "expect",
    "reason",
)
_EMPTY: Mapping[str, JSON] = MappingProxyType({})


@dataclass(frozen=True)
class LedgerSource:
    """One piece of evidence: a page table (``seed``/``table``), an SDK model attribute, or
    what a real client sends (``client``/``version``: its traffic, never a page's words)."""

    says: str | None
    seed: str | None = None
    table: str | None = None
    sdk: str | None = None
    model: str | None = None
    attribute: str | None = None
    client: str | None = None
    version: str | None = None
    extra: Mapping[str, JSON] = dataclasses.field(default_factory=lambda: _EMPTY)

    @property
    def label(self) -> str:
        """Where this evidence comes from, for people."""
        if self.sdk is not None:
            where = ".".join(p for p in (self.model, self.attribute) if p)
            return f"SDK {self.sdk} {where}".strip()
        if self.client is not None:  # a real client's observed behaviour
            return " ".join(p for p in (self.client, self.version) if p)
        return " ".join(p for p in (self.seed, self.table and f"({self.table})") if p) or "?"

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            key: getattr(self, key) for key in _SOURCE_KEYS if getattr(self, key) is not None
        }
        out.update(self.extra)
        return out


@dataclass(frozen=True)
class LedgerEntry:
    """One recorded disagreement and the spec's decision on it."""

    index: int  # position in the file's entries list
    id: str
    kind: str
    side: str
    field: str
    pointer: str | None
    operations: tuple[str, ...] | None  # None: every operation
    sources: tuple[LedgerSource, ...]
    decision: str
    expect: Mapping[str, JSON] | None
    reason: str
    extra: Mapping[str, JSON] = dataclasses.field(default_factory=lambda: _EMPTY)

    @property
    def todo(self) -> bool:
        """True while the entry waits for a human decision (``decision: TODO``)."""
        return self.decision.strip().upper() == TODO

    def says(self) -> tuple[str, ...]:
        """Every value the sources recorded, in order, without repeats."""
        return tuple(dict.fromkeys(s.says for s in self.sources if s.says is not None))

    def settling(self, evidence: str) -> tuple[LedgerSource, ...]:
        """The sources of one kind of evidence (``"page"`` or ``"sdk"``) that settle a finding of
        that kind: an entry settles only what its sources recorded (a page finding when the
        page says what a page source said, an SDK finding when the SDK says what an SDK source
        said), and a TODO entry settles nothing. SDK evidence records no page value, so it
        never settles what a page says, nor page evidence what the SDK says."""
        if self.todo:
            return ()
        if evidence not in EVIDENCE:
            raise ValueError(f"evidence must be one of {EVIDENCE}, got {evidence!r}")
        if evidence == "sdk":
            return tuple(s for s in self.sources if s.sdk is not None)
        # A client's traffic is evidence of what the service accepts, not of a page's words.
        return tuple(s for s in self.sources if s.sdk is None and s.client is None)

    def applies_to(self, operation_id: str) -> bool:
        return self.operations is None or operation_id in self.operations


@dataclass(frozen=True)
class LedgerProblem:
    """A malformed entry: ``index`` into the entries list, the key at fault, what is wrong."""

    index: int | None  # None: the file as a whole
    key: str | None  # the key at fault (for a missing key: the key that is missing)
    message: str
    missing: bool = False  # a required key is absent (the entry can still be matched)


@dataclass(frozen=True)
class Ledger:
    path: Path | None
    entries: tuple[LedgerEntry, ...]
    problems: tuple[LedgerProblem, ...] = ()
    raw: tuple[JSON, ...] = dataclasses.field(default=(), repr=False)  # the entries as written

    def __len__(self) -> int:
        return len(self.raw)

    def by_id(self) -> dict[str, LedgerEntry]:
        return {entry.id: entry for entry in self.entries}

    @property
    def todos(self) -> tuple[LedgerEntry, ...]:
        return tuple(entry for entry in self.entries if entry.todo)

    def matching_problem(self) -> str | None:
        """What keeps this ledger's entries from settling findings, located, or None.

        A missing reason or evidence is ``spec validate``'s business; what matching needs (a
        mapping with a kind, side, field, operations and sources of the right types) must be
        sound. The text reads ``<file>: /entries/<n>/<key> (<id>): <what is wrong>``.
        """
        for problem in self.problems:
            if problem.missing and problem.key != "kind":
                continue
            raw = self.raw[problem.index] if problem.index is not None else None
            entry_id = raw.get("id") if isinstance(raw, Mapping) else None
            where = f"/entries/{problem.index}" if problem.index is not None else "/"
            where += f"/{problem.key}" if problem.key else ""
            label = f" ({entry_id})" if entry_id is not None else ""
            return f"{self.path or 'ledger'}: {where}{label}: {problem.message}"
        return None


def _text(value: JSON) -> str | None:
    if value is None:
        return None
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _source(raw: Mapping[str, JSON]) -> LedgerSource:
    return LedgerSource(
        says=_text(raw.get("says")),
        seed=_text(raw.get("seed")),
        table=_text(raw.get("table")),
        sdk=_text(raw.get("sdk")),
        model=_text(raw.get("model")),
        attribute=_text(raw.get("attribute")),
        client=_text(raw.get("client")),
        version=_text(raw.get("version")),
        extra=MappingProxyType({k: v for k, v in raw.items() if k not in _SOURCE_KEYS}),
    )


def _entry(index: int, raw: JSON, problems: list[LedgerProblem]) -> LedgerEntry | None:
    if not isinstance(raw, Mapping):
        problems.append(LedgerProblem(index, None, "entry is not a mapping"))
        return None
    for key in REQUIRED_KEYS:
        if key not in raw:
            problems.append(LedgerProblem(index, key, f"missing {key!r}", missing=True))
    entry_id = raw.get("id")
    kind = raw.get("kind")
    side = raw.get("side", "both")
    field_path = raw.get("field", "")
    operations = raw.get("operations")
    sources = raw.get("sources")
    expect = raw.get("expect")
    pointer = raw.get("pointer")
    name = f"entry {entry_id!r}"
    if entry_id is not None and not isinstance(entry_id, str):
        problems.append(LedgerProblem(index, "id", f"id must be a string, got {entry_id!r}"))
    if kind is not None and not (isinstance(kind, str) and kind):
        problems.append(LedgerProblem(index, "kind", f"{name}: kind must be a string"))
    if side not in SIDES:
        problems.append(
            LedgerProblem(index, "side", f"side {side!r} is not one of {sorted(SIDES)}")
        )
    if not isinstance(field_path, str):
        problems.append(LedgerProblem(index, "field", f"{name}: field must be a string"))
    if pointer is not None and not isinstance(pointer, str):
        problems.append(LedgerProblem(index, "pointer", f"{name}: pointer must be a string"))
    if operations is not None and not (
        isinstance(operations, list) and all(isinstance(o, str) for o in operations)
    ):
        problems.append(
            LedgerProblem(
                index,
                "operations",
                f"{name}: operations must be a list of operationIds, got {operations!r}",
            )
        )
    if "sources" in raw and not (
        isinstance(sources, list) and sources and all(isinstance(s, Mapping) for s in sources)
    ):
        problems.append(
            LedgerProblem(
                index, "sources", "sources must be a non-empty list of {seed, table, says} mappings"
            )
        )
    if "expect" in raw and not isinstance(expect, Mapping):
        problems.append(LedgerProblem(index, "expect", f"expect must be a mapping, got {expect!r}"))
    # A malformed entry is still typed (bad values dropped) so every rule can look at it;
    # its problems are listed, and docs diff refuses a ledger that has any.
    operations_ok = isinstance(operations, list) and all(isinstance(o, str) for o in operations)
    return LedgerEntry(
        index=index,
        id=str(entry_id) if entry_id is not None else f"#{index}",
        kind=str(kind or ""),
        side=str(side),
        field=str(field_path),
        pointer=pointer if isinstance(pointer, str) else None,
        operations=tuple(operations) if operations_ok and operations is not None else None,
        sources=tuple(_source(s) for s in sources if isinstance(s, Mapping))
        if isinstance(sources, list)
        else (),
        decision=_text(raw.get("decision")) or "",
        expect=MappingProxyType(dict(expect)) if isinstance(expect, Mapping) else None,
        reason=_text(raw.get("reason")) or "",
        extra=MappingProxyType({k: v for k, v in raw.items() if k not in _ENTRY_KEYS}),
    )


def parse_ledger(data: JSON, path: Path | None = None) -> Ledger:
    """Type an already-parsed ledger: the whole file (``{entries: [...]}``) or its entries list."""
    entries_raw = data.get("entries") if isinstance(data, Mapping) else data
    if not isinstance(entries_raw, list):
        raise SpecError(f"{path or 'ledger'}: expected a mapping with an 'entries' list")
    problems: list[LedgerProblem] = []
    entries: list[LedgerEntry] = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(entries_raw):
        entry = _entry(index, raw, problems)
        if entry is None:
            continue
        if isinstance(raw, Mapping) and isinstance(raw.get("id"), str):
            if entry.id in seen:
                problems.append(
                    LedgerProblem(
                        index, "id", f"duplicate id {entry.id!r} (first at entry {seen[entry.id]})"
                    )
                )
            seen.setdefault(entry.id, index)
        entries.append(entry)
    return Ledger(
        path=path, entries=tuple(entries), problems=tuple(problems), raw=tuple(entries_raw)
    )


@functools.lru_cache(maxsize=8)
def _read_cached(path: Path, mtime_ns: int) -> Ledger:
    return parse_ledger(read_yaml(path), path)


def read_ledger(path: Path | str | None = None) -> Ledger:
    """The typed ledger (the curated one by default). Parsed once until the file changes."""
    resolved = Path(path).resolve() if path is not None else LEDGER_PATH
    try:
        mtime = resolved.stat().st_mtime_ns
    except OSError as exc:
        raise SpecError(f"{resolved}: cannot read: {exc.strerror}") from exc
    return _read_cached(resolved, mtime)


def read_matchable_ledger(path: Path | str | None = None) -> Ledger:
    """:func:`read_ledger`, refusing a ledger whose entries cannot settle findings
    (:meth:`Ledger.matching_problem`, as a :class:`SpecError`): what docs diff and sdk diff read."""
    ledger = read_ledger(path)
    problem = ledger.matching_problem()
    if problem is not None:
        raise SpecError(problem)
    return ledger


def ledger_for(spec_path: Path | None) -> Path | None:
    """The ledger that belongs to a spec: the curated one, or ``ledger.yaml`` beside it."""
    if spec_path is None or Path(spec_path).resolve() == SPEC_PATH.resolve():
        return LEDGER_PATH
    beside = Path(spec_path).parent / "ledger.yaml"
    return beside if beside.is_file() else None


def entries_json(entries: Iterable[LedgerEntry]) -> list[dict[str, Any]]:
    """Entries back to plain data (for reports)."""
    return [
        {
            "id": e.id,
            "kind": e.kind,
            "side": e.side,
            "field": e.field,
            "pointer": e.pointer,
            "operations": None if e.operations is None else list(e.operations),
            "sources": [s.to_json() for s in e.sources],
            "decision": e.decision,
        }
        for e in entries
    ]
