"""``diff_documents``: every change between two documents, one per declared change."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from modelarts_kit_spec.diff.model import Change, Walk, fmt
from modelarts_kit_spec.diff.operation_rules import operations_changed
from modelarts_kit_spec.diff_meaning import meaning_changed
from modelarts_kit_spec.document import JSON

__all__ = ["diff_documents"]


def diff_documents(
    old: JSON, new: JSON, *, labels: tuple[str, str] = ("old", "new")
) -> list[Change]:
    """Every change from ``old`` to ``new``, breaking ones first, then by operation and pointer."""
    walk = Walk(old_doc=old, new_doc=new)
    operations_changed(walk, old, new)
    meaning_changed(old, new, walk.record, labels=labels)
    return sorted(
        _merged(walk.changes),
        key=lambda c: (not c.breaking, c.operation, c.pointer, c.rule, fmt(c.old), fmt(c.new)),
    )


def _both_sides(message: str, messages: list[str]) -> str:
    """A message that says both sides when a shared schema's change reaches both (the rules
    word them "request field ..." and "response field ...")."""
    sides = {m.split(" ", 1)[0] for m in messages}
    if {"request", "response"} <= sides and message.startswith(("request ", "response ")):
        return "request and response " + message.split(" ", 1)[1]
    return message


def _merged(changes: Iterable[Change]) -> list[Change]:
    """One change per rule, declared pointer and values: a shared schema's change once, with
    every operation and pointer it is reached at, breaking whoever any of them breaks."""
    groups: dict[tuple[str, str, str, str], list[Change]] = {}
    for change in sorted(changes, key=lambda c: (c.operation, c.reached)):
        key = (change.rule, change.pointer, fmt(change.old), fmt(change.new))
        groups.setdefault(key, []).append(change)
    merged: list[Change] = []
    for members in groups.values():
        first = members[0]
        merged.append(
            replace(
                first,
                message=_both_sides(first.message, [c.message for c in members]),
                breaks_clients=any(c.breaks_clients for c in members),
                breaks_servers=any(c.breaks_servers for c in members),
                operations=tuple(dict.fromkeys(o for c in members for o in c.operations)),
                reached=tuple(dict.fromkeys(r for c in members for r in c.reached)),
            )
        )
    return merged
