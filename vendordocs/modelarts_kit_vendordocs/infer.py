"""Names and parents of tables printed without titles (seed 004's pipe tables).

The vendor's generator prints a body's tables depth first: the root table, then for each
``X object`` reference in field order the table for X followed by its own sub-tables. But a
table shared by several references is printed only once (at one of them) and some tables are
simply missing. So for each pending reference, in depth-first order, the next table either
*is* it, or the reference is

* deferred: its table comes later, under another reference of the same name;
* reused: a table of that name was already printed earlier in this body;
* missing (charged at the end).

Order alone leaves ties (two adjacent ``{size, unit}`` tables, an ``engine`` table that could
also be the deferred ``Input``), so a table is also a better match for a reference whose
field or type name shares a word with the table's columns or their descriptions (``engine`` ->
``engine_id``; ``log_export_path`` -> "Path of the host where logs are stored").

:func:`infer_links` runs a beam search for the cheapest explanation of the page order.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

__all__ = ["InferredLink", "TableShape", "infer_links", "words"]

DEFER_COST = 1.0  # a reference whose table comes later, under another reference
REUSE_COST = 0.5  # a reference to a table printed earlier in this body
MISSING_COST = 3.0  # a reference whose table never comes
ORPHAN_COST = 8.0  # a table that satisfies no reference at all
AFFINITY_BONUS = 1.5  # the reference's name shares a word with the table's columns
BEAM_WIDTH = 32
MAX_SKIPS = 6  # pending references one table may jump over

# Words too common in this API's names and descriptions to tell tables apart.
_STOP_WORDS = frozenset(
    """id name type info response resp object objects list detail details value values
    description data of array job training the a an is to in for and or be by this that
    which with on are if when used can it as at""".split()  # noqa: SIM905 - a word list
)


@functools.lru_cache(maxsize=4096)
def words(text: str) -> frozenset[str]:
    """Lower-case words of an identifier or sentence (camelCase split, plural 's' dropped)."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text).lower()
    out: set[str] = set()
    for part in re.split(r"[^a-z0-9]+", spaced):
        if part and part not in _STOP_WORDS:
            out.add(part[:-1] if part.endswith("s") and len(part) > 3 else part)
    return frozenset(out)


@dataclass(frozen=True)
class TableShape:
    """What the search needs to know about a table."""

    field_names: tuple[str, ...]
    field_words: tuple[frozenset[str], ...]  # words of each column name and its description
    refs: tuple[tuple[int, str], ...]  # (field index, referenced table name)


Parent = tuple[int, int]  # (table index, field index)


@dataclass(frozen=True)
class InferredLink:
    name: str | None  # None: no reference explains this table (orphan)
    parents: tuple[Parent, ...]  # the references this table satisfies


@dataclass(frozen=True)
class _Step:
    """How one table was explained; steps chain back to the root (shared between states)."""

    index: int
    name: str | None
    parents: tuple[Parent, ...]
    reused: tuple[tuple[Parent, int], ...]  # references resolved to an earlier table
    previous: _Step | None


@dataclass(frozen=True)
class _State:
    stack: tuple[tuple[int, int], ...]  # (table, position of its next pending reference)
    owed: tuple[tuple[str, int, int], ...]  # deferred references: (name, table, field)
    cost: float
    history: _Step


class _Search:
    def __init__(self, shapes: Sequence[TableShape]) -> None:
        self.shapes = shapes

    @functools.cache  # noqa: B019 - one search object per body, dropped with it
    def affinity(self, index: int, name: str, field: str) -> float:
        wanted = words(name) | words(field)
        shape = self.shapes[index]
        for column, column_words in zip(shape.field_names, shape.field_words, strict=True):
            # A column named like the reference is a sibling value ("memory": "8GB" in a gpu
            # table), not evidence that this table *is* the memory table.
            if column.lower() in (name.lower(), field.lower()):
                continue
            if wanted & column_words:
                return -AFFINITY_BONUS
        return 0.0

    def successors(self, state: _State, index: int) -> Iterator[_State]:
        yield from self._walk(state, index, list(state.stack), list(state.owed), 0.0, [], 0)
        yield _State(
            stack=(*state.stack, (index, 0)),
            owed=state.owed,
            cost=state.cost + ORPHAN_COST,
            history=_Step(index, None, (), (), state.history),
        )

    def _walk(
        self,
        state: _State,
        index: int,
        frames: list[tuple[int, int]],
        owed: list[tuple[str, int, int]],
        extra: float,
        reused: list[tuple[Parent, int]],
        skips: int,
    ) -> Iterator[_State]:
        while frames and frames[-1][1] >= len(self.shapes[frames[-1][0]].refs):
            frames = frames[:-1]
        if not frames:
            return
        table, position = frames[-1]
        field, name = self.shapes[table].refs[position]
        advanced = [*frames[:-1], (table, position + 1)]
        # 1. This table is the referenced one (and the deferred references of that name).
        same = name.lower()
        satisfied = [(table, field)] + [(t, f) for n, t, f in owed if n.lower() == same]
        field_name = self.shapes[table].field_names[field]
        yield _State(
            stack=(*advanced, (index, 0)),
            owed=tuple(o for o in owed if o[0].lower() != same),
            cost=state.cost + extra + self.affinity(index, name, field_name),
            history=_Step(index, name, tuple(satisfied), tuple(reused), state.history),
        )
        # 2. The reference is satisfied elsewhere; this table explains a later reference.
        if skips >= MAX_SKIPS:
            return
        earlier = _last_named(state.history, same)
        if earlier is not None:
            yield from self._walk(
                state,
                index,
                advanced,
                owed,
                extra + REUSE_COST,
                [*reused, ((table, field), earlier)],
                skips + 1,
            )
            return
        yield from self._walk(
            state,
            index,
            advanced,
            [*owed, (name, table, field)],
            extra + DEFER_COST,
            reused,
            skips + 1,
        )


def _last_named(step: _Step | None, name: str) -> int | None:
    """The last table (after the root) explained as a reference to ``name``."""
    while step is not None and step.index > 0:
        if step.name is not None and step.name.lower() == name:
            return step.index
        step = step.previous
    return None


def _final_cost(state: _State, shapes: Sequence[TableShape]) -> float:
    pending = sum(len(shapes[t].refs) - p for t, p in state.stack)
    # A deferred reference never satisfied costs more than one left pending at the end: the
    # vendor's pages drop trailing tables more often than they print tables out of order.
    return state.cost + MISSING_COST * (pending + len(state.owed))


def infer_links(shapes: Sequence[TableShape], root_name: str) -> list[InferredLink]:
    """Explain every table after ``shapes[0]`` (the body root) by the reference it satisfies."""
    search = _Search(shapes)
    root = _Step(0, root_name, (), (), None)
    beam = [_State(stack=((0, 0),), owed=(), cost=0.0, history=root)]
    for index in range(1, len(shapes)):
        best: dict[object, _State] = {}
        for state in beam:
            for successor in search.successors(state, index):
                key = (successor.stack, successor.owed)
                current = best.get(key)
                if current is None or successor.cost < current.cost:
                    best[key] = successor
        # Stable sort: among equal costs the explanation generated first (least skipping) wins.
        beam = sorted(best.values(), key=lambda s: s.cost)[:BEAM_WIDTH]
    winner = min(beam, key=lambda s: _final_cost(s, shapes))
    steps: list[_Step] = []
    step: _Step | None = winner.history
    while step is not None:
        steps.append(step)
        step = step.previous
    steps.reverse()
    parents = [list(step.parents) for step in steps]
    for step in steps:
        for parent, target in step.reused:
            parents[target].append(parent)
    return [
        InferredLink(name=step.name, parents=tuple(found))
        for step, found in zip(steps, parents, strict=True)
    ]
