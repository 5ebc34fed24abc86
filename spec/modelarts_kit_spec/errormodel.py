"""The spec's error model as typed objects: every accepted ``ModelArts.NNNN`` code per
operation, status and meaning, and the vendor's catalogue row of each code.

Read from ``x-modelarts-error-codes`` and ``x-modelarts-error-catalogue`` by the meaning layer
(``load_spec().meaning.errors``); see :mod:`modelarts_kit_spec.meaning`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

__all__ = ["CatalogueEntry", "ErrorModel", "ResponseErrors"]


@dataclass(frozen=True)
class CatalogueEntry:
    """The vendor's row for one error code (``%s`` in ``message`` is filled per request)."""

    code: str
    status: int
    name: str
    message: str
    solution: str


@dataclass(frozen=True)
class ResponseErrors:
    """The codes one documented response of one operation may carry, by meaning."""

    operation_id: str
    status: str  # as in the spec: "400", "4XX", "default"
    pointer: str
    by_meaning: Mapping[str, tuple[str, ...]]

    @property
    def codes(self) -> frozenset[str]:
        return frozenset(c for codes in self.by_meaning.values() for c in codes)


@dataclass(frozen=True)
class ErrorModel:
    """Every accepted ``ModelArts.NNNN`` code per operation, status and meaning."""

    responses: tuple[ResponseErrors, ...]
    gateway: tuple[ResponseErrors, ...]  # what any request can meet before an operation
    catalogue: tuple[CatalogueEntry, ...]

    def _for(self, operation_id: str) -> Iterator[ResponseErrors]:
        return (r for r in self.responses if r.operation_id == operation_id)

    def codes(self, operation_id: str, status: int | str) -> frozenset[str]:
        """Every code the spec accepts for ``operation_id`` answering ``status``."""
        key = str(status)
        return frozenset(
            code for r in self._for(operation_id) if r.status == key for code in r.codes
        )

    def codes_for(
        self, operation_id: str, meaning: str, status: int | str | None = None
    ) -> frozenset[str]:
        """Every code that means ``meaning`` for ``operation_id`` (with ``status``, or any)."""
        return frozenset(
            code
            for r in self._for(operation_id)
            if status is None or r.status == str(status)
            for code in r.by_meaning.get(meaning, ())
        )

    def statuses_for(self, operation_id: str, meaning: str) -> frozenset[int]:
        """The HTTP statuses ``operation_id`` answers ``meaning`` with."""
        return frozenset(
            int(r.status)
            for r in self._for(operation_id)
            if meaning in r.by_meaning and r.status.isdigit()
        )

    def meanings(self, operation_id: str) -> frozenset[str]:
        # Asked for every request the reference server answers: read once per operation.
        found = self._meanings.get(operation_id)
        if found is None:
            found = frozenset(m for r in self._for(operation_id) for m in r.by_meaning)
            self._meanings[operation_id] = found
        return found

    @functools.cached_property
    def _meanings(self) -> dict[str, frozenset[str]]:
        return {}

    @functools.cached_property
    def _preferred(self) -> dict[tuple[str, str], CatalogueEntry]:
        return {}

    def accepts(
        self, operation_id: str, status: int, code: str, meaning: str | None = None
    ) -> bool:
        """Whether ``code`` with ``status`` is an answer the spec allows (for ``meaning``)."""
        for response in self._for(operation_id):
            if response.status != str(status):
                continue
            if meaning is None and code in response.codes:
                return True
            if meaning is not None and code in response.by_meaning.get(meaning, ()):
                return True
        return False

    def entry(self, code: str, status: int | None = None) -> CatalogueEntry | None:
        for item in self.catalogue:
            if item.code == code and (status is None or item.status == status):
                return item
        return None

    def preferred(self, operation_id: str, meaning: str) -> CatalogueEntry:
        """The code to answer ``meaning`` with: the first the spec lists for it."""
        found = self._preferred.get((operation_id, meaning))
        if found is None:
            found = self._first_listed(operation_id, meaning)
            self._preferred[operation_id, meaning] = found
        return found

    def _first_listed(self, operation_id: str, meaning: str) -> CatalogueEntry:
        for response in self._for(operation_id):
            codes = response.by_meaning.get(meaning)
            if codes and response.status.isdigit():
                found = self.entry(codes[0], int(response.status))
                if found is not None:
                    return found
        return self.gateway_error(meaning)

    def gateway_error(self, meaning: str) -> CatalogueEntry:
        """The code any request answers ``meaning`` with (unknown path, wrong method, ...)."""
        for response in self.gateway:
            codes = response.by_meaning.get(meaning)
            found = self.entry(codes[0], int(response.status)) if codes else None
            if found is not None:
                return found
        raise KeyError(f"the spec lists no error code for {meaning!r}")
