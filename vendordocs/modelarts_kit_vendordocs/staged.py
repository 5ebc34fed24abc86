"""The staged project of ``docs update``: spec, ledger, sources index and pages, in memory.

``docs update`` reads each file once -- the spec, the ledger and the sources index when it
starts, each page (a new one or a recorded one) the first time a step needs it -- and every
step works on these objects. A step that changes the spec or the ledger hands over the new
text (:meth:`StagedProject.put_spec`, :meth:`StagedProject.put_ledger`), which is parsed again
in memory when a later step asks; nothing is written, or read back, until the update commits
its one transaction (:mod:`modelarts_kit_vendordocs.update`).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from modelarts_kit_spec import Ledger, SpecError
from modelarts_kit_spec.ledger import parse_ledger
from modelarts_kit_spec.load import (
    InputError,
    Spec,
    decode_text,
    parse_spec,
    parse_yaml_text,
    read_input_bytes,
    read_input_text,
)

from modelarts_kit_vendordocs.decisions import Decision, decisions_from_entries
from modelarts_kit_vendordocs.errors import LedgerError, PageError
from modelarts_kit_vendordocs.extract import extract_text, page_text
from modelarts_kit_vendordocs.inventory import Inventory
from modelarts_kit_vendordocs.project import Project
from modelarts_kit_vendordocs.sources import RecordedPage, SourceIndex, read_index

__all__ = ["EMPTY_LEDGER", "StagedPage", "StagedProject"]

# The ledger a project without one starts from (written only if an entry is added).
EMPTY_LEDGER = "entries: []\n"


class StagedPage:
    """One page, read once: its bytes, its text (strict UTF-8, as ``read_page`` reads it)
    and its field inventory, each worked out the first time it is asked for."""

    def __init__(self, path: Path, data: bytes) -> None:
        self.path = path
        self.data = data

    @functools.cached_property
    def text(self) -> str:
        return page_text(self.data, str(self.path))

    @functools.cached_property
    def inventory(self) -> Inventory:
        return extract_text(str(self.path), self.text)


@dataclass
class StagedProject:
    """The project as the update will write it (see the module docstring)."""

    project: Project
    index: SourceIndex
    original_spec: str
    original_ledger: str  # "" when the project has no ledger file
    original_index: str
    spec_text: str = ""
    ledger_text: str = ""
    new_pages: dict[Path, bytes] = field(default_factory=dict)  # target -> bytes
    given: dict[str, Path] = field(default_factory=dict)  # name of a page recorded now -> path
    _pages: dict[Path, StagedPage] = field(default_factory=dict)  # every page read, once
    _spec: Spec | None = None
    _ledger: Ledger | None = None
    _decisions: list[Decision] | None = None

    @classmethod
    def load(cls, project: Project) -> StagedProject:
        """Read the project's spec, ledger and sources index (each once)."""
        index = read_index(project.sources)
        spec = read_input_text(project.spec)
        ledger = read_input_text(project.ledger) if project.ledger.is_file() else ""
        stage = cls(project, index, spec, ledger, index.text())
        stage.put_spec(spec)
        stage.put_ledger(ledger or EMPTY_LEDGER)
        return stage

    # -- the spec and the ledger ------------------------------------------------------------

    def put_spec(self, text: str) -> None:
        if text != self.spec_text:
            self.spec_text, self._spec = text, None

    def put_ledger(self, text: str) -> None:
        if text != self.ledger_text:
            self.ledger_text, self._ledger, self._decisions = text, None, None

    @property
    def spec(self) -> Spec:
        """The staged spec, parsed (and indexed) once per version."""
        if self._spec is None:
            self._spec = self.spec_of(self.spec_text)
        return self._spec

    def spec_of(self, text: str) -> Spec:
        """A version of the spec (a proposal's, tried before it is taken), parsed in memory."""
        path = self.project.spec
        return parse_spec(parse_yaml_text(text, str(path)), path)

    @property
    def ledger(self) -> Ledger:
        """The staged ledger, parsed once per version."""
        if self._ledger is None:
            path = self.project.ledger
            try:
                self._ledger = parse_ledger(parse_yaml_text(self.ledger_text, str(path)), path)
            except SpecError as exc:
                raise LedgerError(str(exc)) from exc
        return self._ledger

    def decisions(self) -> list[Decision]:
        """The staged ledger's decisions, refused as ``docs diff`` refuses a ledger whose
        entries cannot settle findings."""
        if self._decisions is None:
            problem = self.ledger.matching_problem()
            if problem is not None:
                raise LedgerError(problem)
            self._decisions = decisions_from_entries(self.ledger.entries)
        return self._decisions

    # -- pages -----------------------------------------------------------------------------

    def page(self, path: Path) -> StagedPage:
        """The page at ``path``, read the first time it is asked for."""
        key = Path(os.path.realpath(path))
        staged = self._pages.get(key)
        if staged is None:
            try:
                data = read_input_bytes(path)
            except InputError as exc:
                raise PageError(str(path), exc.line, exc.rule) from exc
            staged = self._pages[key] = StagedPage(Path(path), data)
        return staged

    def source_path(self, page: RecordedPage) -> Path:
        """Where to read a recorded page (one recorded by this run is not written yet)."""
        return self.given.get(page.name, self.project.sources / page.file)

    def recorded(self, page: RecordedPage) -> StagedPage:
        return self.page(self.source_path(page))

    def page_bytes(self, path: Path) -> bytes:
        return self.page(path).data

    def source_texts(self) -> Mapping[str, str]:
        """Every page under ``spec/sources`` this run has read or records, by its name there
        (what the schema model's derivation reads instead of the files)."""
        sources = Path(os.path.realpath(self.project.sources))
        texts: dict[str, str] = {}
        for real, staged in self._pages.items():
            if sources in real.parents:
                text = _text_or_none(staged.data, str(real))
                if text is not None:
                    texts[real.relative_to(sources).as_posix()] = text
        for target, data in self.new_pages.items():
            texts[target.relative_to(self.project.sources).as_posix()] = data.decode("utf-8")
        return texts


def _text_or_none(data: bytes, source: str) -> str | None:
    """The text the derivation's reader would read from ``data`` (the kit's one decoding)."""
    try:
        return decode_text(data, source)
    except InputError:
        return None  # the derivation reads the file itself, and says what is wrong with it
