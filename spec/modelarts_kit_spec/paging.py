"""How a listing pages: ``x-modelarts-paging`` on each operation that answers one page of a
longer list, read once into typed objects (``load_spec().meaning.paging``).

Every consumer (the generator's iterators, the reference server, the mock, the contract
checks) asks here what ``offset`` counts, the range and default of ``limit``, what ``total``
and ``count`` count and the order of the entries; nobody reads a description for it.

```yaml
x-modelarts-paging:
  in: body                      # where offset and limit travel: body | query
  items: items                  # the success answer's array holding the page
  offset: {field: offset, counts: pages, minimum: 0, evidence: [...]}   # pages | items
  limit: {field: limit, minimum: 1, maximum: 50, default: 50, evidence: [...]}
  total: {field: total, counts: all, evidence: [...]}      # all | matching
  count: {field: count, counts: matching, evidence: [...]}
  order: {key: create_time, direction: desc, evidence: [...]}   # direction: where a page says
```

Each ``evidence`` entry is a quote: ``{page: FOLDER/FILE under spec/sources, locator: table
and row or section, quote: the page's own words}``. :func:`quote_problems` checks that each
quote stands in its page (``spec validate``, rule ``paging``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from modelarts_kit_spec.document import pointer_join
from modelarts_kit_spec.quotes import Quote, quote_problem

if TYPE_CHECKING:
    from modelarts_kit_spec.operation import Operation
    from modelarts_kit_spec.view import SpecView
    from modelarts_kit_spec.walker import SchemaWalker

__all__ = [
    "PAGING_KEY",
    "Counted",
    "Offset",
    "OffsetCounts",
    "OperationPaging",
    "Order",
    "Paging",
    "Quote",
    "TotalCounts",
    "quote_problems",
    "read_paging",
]

JSON = Any
PAGING_KEY = "x-modelarts-paging"


class OffsetCounts(StrEnum):
    """What a request's ``offset`` counts: the page's first entry, or the page's index."""

    ITEMS = "items"
    PAGES = "pages"


class TotalCounts(StrEnum):
    """What an answer's total counts: every entry searched, or those meeting the request."""

    ALL = "all"
    MATCHING = "matching"


@dataclass(frozen=True)
class Offset:
    field: str
    counts: OffsetCounts
    minimum: int | None
    evidence: tuple[Quote, ...]

    def first_entry(self, offset: int, limit: int) -> int:
        """The position (from 0) of the first entry of the page ``offset`` names."""
        return offset * limit if self.counts is OffsetCounts.PAGES else offset

    def after(self, offset: int, entries: int) -> int:
        """The offset of the page after a page at ``offset`` holding ``entries`` entries."""
        return offset + 1 if self.counts is OffsetCounts.PAGES else offset + entries


@dataclass(frozen=True)
class Limit:
    field: str
    minimum: int
    maximum: int | None
    default: int | None
    evidence: tuple[Quote, ...]

    @property
    def largest(self) -> int:
        """The largest page a request may ask for (the maximum, else the default, else 1)."""
        return self.maximum or self.default or self.minimum


@dataclass(frozen=True)
class Counted:
    """An answer field counting entries (``total``, ``count``) and what it counts."""

    field: str
    counts: TotalCounts
    evidence: tuple[Quote, ...]


@dataclass(frozen=True)
class Order:
    """The entries' order: by ``key``, ``direction`` ``asc`` / ``desc`` where a page says it
    (None: the page leaves the direction open)."""

    key: str
    direction: str | None
    evidence: tuple[Quote, ...]


@dataclass(frozen=True)
class OperationPaging:
    operation_id: str
    pointer: str  # of the x-modelarts-paging key
    location: str  # "body" | "query"
    items: str  # the success answer's array holding the page
    offset: Offset
    limit: Limit
    total: Counted | None
    count: Counted | None
    order: Order | None

    @property
    def matching(self) -> Counted | None:
        """The answer's field counting the entries that meet the request, if it has one."""
        counted = (self.total, self.count)
        return next(
            (c for c in counted if c is not None and c.counts is TotalCounts.MATCHING), None
        )

    @property
    def quotes(self) -> tuple[Quote, ...]:
        parts: list[Any] = [self.offset, self.limit, self.total, self.count, self.order]
        return tuple(q for part in parts if part is not None for q in part.evidence)

    def evidence(self, *parts: str) -> str:
        """Where the rules of ``parts`` (``offset``, ``limit``, ``total``, ``count``,
        ``order``) stand: the spec's pointer, then each quote (``page ..., locator:
        "quote"``), joined by ``; ``."""
        found = [getattr(self, part) for part in parts]
        quotes = [q.cite() for part in found if part is not None for q in part.evidence]
        return f"spec {self.pointer} ({self.operation_id}): {'; '.join(quotes)}"


@dataclass(frozen=True)
class Paging:
    """Every listing's paging, by operation id."""

    operations: Mapping[str, OperationPaging]

    def of(self, operation_id: str) -> OperationPaging | None:
        return self.operations.get(operation_id)


# -- reading -------------------------------------------------------------------------------------


def _mapping(value: JSON) -> Mapping[str, JSON]:
    return value if isinstance(value, Mapping) else {}


def _whole(value: JSON) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class _Reader:
    def __init__(self, spec: SpecView, walker: SchemaWalker) -> None:
        self.spec = spec
        self.walker = walker
        self.problems: list[tuple[str, str]] = []

    def problem(self, pointer: str, message: str) -> None:
        self.problems.append((pointer, message))

    def quotes(self, raw: JSON, where: str) -> tuple[Quote, ...]:
        here = pointer_join(where, "evidence")
        if not isinstance(raw, list) or not raw:
            self.problem(here, "evidence must list at least one {page, locator, quote}")
            return ()
        found = []
        for index, item in enumerate(raw):
            entry = _mapping(item)
            texts = [entry.get(k) for k in ("page", "locator", "quote")]
            if not all(isinstance(t, str) and t.strip() for t in texts):
                self.problem(pointer_join(here, index), "page, locator and quote are needed")
                continue
            found.append(Quote(*(str(t) for t in texts)))
        return tuple(found)

    def fields(self, op: Operation, location: str, where: str) -> Mapping[str, JSON]:
        """The request's fields where offset and limit travel: name -> schema."""
        if location == "query":
            return {p.name: p.schema for p in op.parameters if p.location == "query"}
        if location == "body":
            if op.request_schema is None:
                self.problem(pointer_join(where, "in"), "the operation takes no request body")
                return {}
            return dict(self.walker.view(op.request_schema).properties)
        self.problem(pointer_join(where, "in"), f"in must be body or query, not {location!r}")
        return {}

    def answer_fields(self, op: Operation) -> Mapping[str, JSON]:
        schema = op.success.schema
        return {} if schema is None else dict(self.walker.view(schema).properties)

    def operation(self, op: Operation, raw: Mapping[str, JSON]) -> OperationPaging | None:
        where = pointer_join(op.pointer, PAGING_KEY)
        before = len(self.problems)
        location = str(raw.get("in"))
        request = self.fields(op, location, where)
        answer = self.answer_fields(op)
        items = raw.get("items")
        if not isinstance(items, str) or items not in answer:
            self.problem(pointer_join(where, "items"), f"{items!r} is not a field of the answer")
        elif "array" not in self.walker.view(answer[items]).types:
            self.problem(pointer_join(where, "items"), f"answer field {items!r} is not an array")
        offset = self.offset(_mapping(raw.get("offset")), pointer_join(where, "offset"), request)
        limit = self.limit(_mapping(raw.get("limit")), pointer_join(where, "limit"), request)
        total = self.counted(raw, "total", where, answer)
        count = self.counted(raw, "count", where, answer)
        order = self.order(raw.get("order"), pointer_join(where, "order"))
        if len(self.problems) > before or offset is None or limit is None:
            return None
        return OperationPaging(
            operation_id=op.operation_id,
            pointer=where,
            location=location,
            items=str(items),
            offset=offset,
            limit=limit,
            total=total,
            count=count,
            order=order,
        )

    def _field(self, raw: Mapping[str, JSON], where: str, known: Mapping[str, JSON]) -> str:
        name = raw.get("field")
        if not isinstance(name, str) or name not in known:
            self.problem(pointer_join(where, "field"), f"{name!r} is not a field of the request")
            return ""
        return name

    def offset(
        self, raw: Mapping[str, JSON], where: str, request: Mapping[str, JSON]
    ) -> Offset | None:
        name = self._field(raw, where, request)
        counts = raw.get("counts")
        if counts not in tuple(OffsetCounts):
            self.problem(
                pointer_join(where, "counts"), f"counts must be items or pages: {counts!r}"
            )
            return None
        minimum = raw.get("minimum")
        if minimum is not None and _whole(minimum) is None:
            self.problem(pointer_join(where, "minimum"), "minimum must be an integer")
        evidence = self.quotes(raw.get("evidence"), where)
        return Offset(name, OffsetCounts(str(counts)), _whole(minimum), evidence)

    def limit(
        self, raw: Mapping[str, JSON], where: str, request: Mapping[str, JSON]
    ) -> Limit | None:
        name = self._field(raw, where, request)
        minimum, maximum, default = (_whole(raw.get(k)) for k in ("minimum", "maximum", "default"))
        if minimum is None or minimum < 0:
            self.problem(pointer_join(where, "minimum"), "minimum must be a whole number")
            return None
        for key, value in (("maximum", maximum), ("default", default)):
            if raw.get(key) is not None and value is None:
                self.problem(pointer_join(where, key), f"{key} must be an integer")
        if maximum is not None and maximum < minimum:
            self.problem(pointer_join(where, "maximum"), "maximum is below minimum")
        if default is not None and not (minimum <= default <= (maximum or default)):
            self.problem(pointer_join(where, "default"), "default is outside minimum..maximum")
        schema = self.walker.view(request[name]).schema if name else {}
        for key, value in (("minimum", minimum), ("maximum", maximum)):
            stated = schema.get(key)
            if value is not None and stated is not None and stated != value:
                self.problem(
                    pointer_join(where, key), f"{key} {value} disagrees with the schema's {stated}"
                )
        evidence = self.quotes(raw.get("evidence"), where)
        return Limit(name, minimum, maximum, default, evidence)

    def counted(
        self, raw: Mapping[str, JSON], key: str, where: str, answer: Mapping[str, JSON]
    ) -> Counted | None:
        if key not in raw:
            return None
        here = pointer_join(where, key)
        part = _mapping(raw.get(key))
        name = part.get("field")
        if not isinstance(name, str) or name not in answer:
            self.problem(pointer_join(here, "field"), f"{name!r} is not a field of the answer")
            return None
        counts = part.get("counts")
        if counts not in tuple(TotalCounts):
            self.problem(
                pointer_join(here, "counts"), f"counts must be all or matching: {counts!r}"
            )
            return None
        return Counted(name, TotalCounts(str(counts)), self.quotes(part.get("evidence"), here))

    def order(self, raw: JSON, where: str) -> Order | None:
        if raw is None:
            return None
        part = _mapping(raw)
        key, direction = part.get("key"), part.get("direction")
        if not isinstance(key, str) or not key:
            self.problem(pointer_join(where, "key"), "key must name the field entries sort by")
            return None
        if direction not in (None, "asc", "desc"):
            self.problem(pointer_join(where, "direction"), "direction must be asc or desc")
            return None
        return Order(key, direction, self.quotes(part.get("evidence"), where))


def read_paging(spec: SpecView, walker: SchemaWalker) -> tuple[Paging, list[tuple[str, str]]]:
    """Every operation's ``x-modelarts-paging``, and the problems found (pointer, message)."""
    reader = _Reader(spec, walker)
    found: dict[str, OperationPaging] = {}
    paths = _mapping(spec.document.get("paths"))
    for op in spec.operations:
        raw = _mapping(_mapping(paths.get(op.path)).get(op.method)).get(PAGING_KEY)
        if raw is None:
            continue
        if not isinstance(raw, Mapping):
            reader.problem(pointer_join(op.pointer, PAGING_KEY), f"{PAGING_KEY} must be a mapping")
            continue
        paging = reader.operation(op, raw)
        if paging is not None:
            found[op.operation_id] = paging
    return Paging(found), reader.problems


def quote_problems(paging: Paging, sources_dir: Path) -> Iterator[tuple[str, str]]:
    """Each quote that does not stand in its page (pointer, message)."""
    for operation in paging.operations.values():
        for quote in operation.quotes:
            problem = quote_problem(quote, sources_dir)
            if problem is not None:
                yield operation.pointer, problem
