"""What changed in how an operation pages (``x-modelarts-paging``) and in the rules of its
query parameters (``x-modelarts-parameters``): the findings that
:mod:`modelarts_kit_spec.diff_meaning` emits, each as ``(rule, ..., message)``; whom each
rule breaks is :mod:`modelarts_kit_spec.meaning_rules`."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from modelarts_kit_spec.paging import OperationPaging
from modelarts_kit_spec.schemamodel.parameters import Format, Together

__all__ = ["paging_changes", "parameter_changes"]

JSON = Any


def _fmt(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def paging_changes(
    was: OperationPaging, now: OperationPaging
) -> Iterator[tuple[str, str, JSON, JSON, str]]:
    """(rule, pointer, old, new, message) of each change of one listing's paging."""
    where = now.pointer
    offset_was = {"in": was.location, "field": was.offset.field, "counts": was.offset.counts.value}
    offset_now = {"in": now.location, "field": now.offset.field, "counts": now.offset.counts.value}
    if offset_was != offset_now:
        yield ("paging-offset-changed", f"{where}/offset", offset_was, offset_now,
               f"offset: {_fmt(offset_was)} -> {_fmt(offset_now)}")  # fmt: skip
    low_was, low_now = was.limit.minimum, now.limit.minimum
    high_was = was.limit.maximum if was.limit.maximum is not None else float("inf")
    high_now = now.limit.maximum if now.limit.maximum is not None else float("inf")
    range_was = [low_was, was.limit.maximum]
    range_now = [low_now, now.limit.maximum]
    if low_now > low_was or high_now < high_was:
        yield ("paging-limit-narrowed", f"{where}/limit", range_was, range_now,
               f"limit range {range_was} -> {range_now}")  # fmt: skip
    if low_now < low_was or high_now > high_was:
        yield ("paging-limit-widened", f"{where}/limit", range_was, range_now,
               f"limit range {range_was} -> {range_now}")  # fmt: skip
    if was.limit.default != now.limit.default:
        message = f"limit default {was.limit.default} -> {now.limit.default}"
        yield ("paging-default-changed", f"{where}/limit/default", was.limit.default,
               now.limit.default, message)  # fmt: skip
    for name in ("total", "count"):
        before, after = getattr(was, name), getattr(now, name)
        old_value = None if before is None else [before.field, before.counts.value]
        new_value = None if after is None else [after.field, after.counts.value]
        if old_value != new_value:
            yield ("paging-count-changed", f"{where}/{name}", old_value, new_value,
                   f"{name}: {_fmt(old_value)} -> {_fmt(new_value)}")  # fmt: skip
    order_was = None if was.order is None else [was.order.key, was.order.direction]
    order_now = None if now.order is None else [now.order.key, now.order.direction]
    if order_was != order_now:
        yield ("paging-order-changed", f"{where}/order", order_was, order_now,
               f"order: {_fmt(order_was)} -> {_fmt(order_now)}")  # fmt: skip
    quotes_was = [q.cite() for q in was.quotes]
    quotes_now = [q.cite() for q in now.quotes]
    if quotes_was != quotes_now:
        yield ("paging-evidence-changed", where, quotes_was, quotes_now,
               "the paging's quotes of the pages changed")  # fmt: skip


def parameter_changes(
    together_was: tuple[Together, ...],
    together_now: tuple[Together, ...],
    formats_was: Mapping[str, Format],
    formats_now: Mapping[str, Format],
) -> Iterator[tuple[str, JSON, JSON, str]]:
    """(rule, old, new, message) of each change of one operation's parameter rules."""
    groups_was = {frozenset(t.names): t for t in together_was}
    groups_now = {frozenset(t.names): t for t in together_now}
    for names in sorted(groups_now.keys() - groups_was.keys(), key=sorted):
        yield ("parameters-together-added", None, sorted(names),
               f"{', '.join(sorted(names))} must now be passed together")  # fmt: skip
    for names in sorted(groups_was.keys() - groups_now.keys(), key=sorted):
        yield ("parameters-together-removed", sorted(names), None,
               f"{', '.join(sorted(names))} need no longer be passed together")  # fmt: skip
    for name in sorted(formats_was.keys() | formats_now.keys()):
        was, now = formats_was.get(name), formats_now.get(name)
        old_pattern = was.pattern if was is not None else None
        new_pattern = now.pattern if now is not None else None
        if old_pattern != new_pattern:
            yield ("parameter-format-changed", old_pattern, new_pattern,
                   f"{name}: format {_fmt(old_pattern)} -> {_fmt(new_pattern)}")  # fmt: skip
    same_rules = groups_was.keys() == groups_now.keys() and {
        name: f.pattern for name, f in formats_was.items()
    } == {name: f.pattern for name, f in formats_now.items()}
    cited_was = sorted([t.cite() for t in together_was] + [f.cite() for f in formats_was.values()])
    cited_now = sorted([t.cite() for t in together_now] + [f.cite() for f in formats_now.values()])
    if same_rules and cited_was != cited_now:
        yield ("parameters-evidence-changed", cited_was, cited_now,
               "the parameter rules quote other words of the pages")  # fmt: skip
