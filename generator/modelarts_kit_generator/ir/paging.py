"""The IR of the generated iterators (``iter_*``): which operations page, by which fields,
and how the client calls a page, read from the spec's roles and the operations' schemas.

An operation pages where the spec says how (``x-modelarts-paging``, read once by the meaning
layer: ``spec.meaning.paging``): where ``offset`` and ``limit`` travel, what the offset counts
(items or pages), the limit's range and default, and which array of the answer holds the page.
The page size is the limit's documented maximum (else its default).
"""

from __future__ import annotations

import keyword

from modelarts_kit_spec import Operation, Spec, SpecError
from modelarts_kit_spec.meaning import uses_meaning
from modelarts_kit_spec.paging import OperationPaging
from pydantic import BaseModel

from modelarts_kit_generator.escaping import docstring_lines, python_string
from modelarts_kit_generator.ir.literals import indented
from modelarts_kit_generator.ir.model import (
    DEADLINE_ARGUMENT,
    DOC_WIDTH,
    ArgumentIR,
    OperationIR,
    PagingIR,
    SignatureIR,
)
from modelarts_kit_generator.schemas import ModelPlan, referenced_models

__all__ = ["build_paging", "model_attribute", "paging_models"]


def model_attribute(wire_name: str) -> str | None:
    """The attribute a generated model gives field ``wire_name`` (its own name when that
    is a plain identifier no model attribute shadows), else None."""
    if not wire_name.isidentifier() or keyword.iskeyword(wire_name):
        return None
    if wire_name.startswith("_") or hasattr(BaseModel, wire_name):
        return None
    return wire_name


def build_paging(
    spec: Spec, operations: tuple[OperationIR, ...], plan: ModelPlan
) -> tuple[PagingIR, ...]:
    """One iterator per paged operation, in the operations' order."""
    if not uses_meaning(spec):
        return ()
    paging = spec.meaning.paging
    found = []
    for op, op_ir in zip(spec.operations, operations, strict=True):
        described = paging.of(op.operation_id)
        if described is not None:
            found.append(_paging(described, op, op_ir, plan))
    return tuple(found)


def _paging(
    paging: OperationPaging, op: Operation, op_ir: OperationIR, plan: ModelPlan
) -> PagingIR:
    in_body = paging.location == "body"
    offset_name, limit_name = paging.offset.field, paging.limit.field
    page_size = paging.limit.maximum or paging.limit.default
    if page_size is None or page_size < 1:
        raise SpecError(
            f"{paging.pointer}: limit states no maximum or default (rule: the page size of "
            "an iterator is the limit's maximum)"
        )
    if op_ir.return_model is None:
        raise SpecError(f"{op.success.pointer}: a paged operation answers a body")
    items = model_attribute(paging.items)
    # The listing ends once the entries that meet the request were seen: the answer's field
    # counting those (a total of every entry searched would not end a filtered listing).
    matching = paging.matching
    total = model_attribute(matching.field) if matching is not None else None
    if items is None:
        raise SpecError(f"{paging.pointer}: {paging.items!r} is not a plain attribute name")
    arrays = [paging.items]
    item_models = list(
        referenced_models(plan.schemas[op_ir.return_model].get("properties", {}).get(arrays[0]))
    )
    item = item_models[0] if len(set(item_models)) == 1 else "Any"
    method_name = "iter_" + op_ir.python_name.removeprefix("list_").removeprefix("show_")
    page_arguments = (f"{offset_name}=plan.offset", f"{limit_name}=plan.limit")
    signature: SignatureIR
    call: tuple[str, ...]
    own = op_ir.call_signature
    if in_body:
        assert op_ir.body is not None
        body_argument = "" if any(a.name == "body" for a in own.positional) else "body="
        positional = tuple(a for a in own.positional if a.name != "body")
        signature = SignatureIR(
            (*positional, ArgumentIR("body", f"{op_ir.body.annotation} | None", "None"))
        )
        call = (
            *(a.name for a in positional),
            f"{body_argument}page_body(body, "
            f"{python_string(offset_name)}, plan.offset, {python_string(limit_name)}, plan.limit)",
            "deadline=deadline",
        )
    else:
        signature = own.without({offset_name, limit_name, "deadline"})
        call = (*signature.forward, *page_arguments, "deadline=deadline")
    signature = signature.plus(
        ArgumentIR("page_size", "int", str(page_size), keyword_only=True),
        ArgumentIR("max_pages", "int", "DEFAULT_MAX_PAGES", keyword_only=True),
        DEADLINE_ARGUMENT,
    )
    counts = paging.offset.counts.value
    return PagingIR(
        method_name=method_name,
        method_name_literal=python_string(method_name),
        operation=op_ir.python_name,
        signature=signature.lines,
        call_arguments=call,
        item_annotation=item,
        item_model=None if item == "Any" else item,
        items_expression=f"page.{items} or []",
        total_expression=f"page.{total}" if total else "None",
        offset_counts_literal=python_string(counts),
        page_size=page_size,
        docstring=indented(_docstring(op_ir, paging, page_size)),
    )


def _docstring(op: OperationIR, paging: OperationPaging, page_size: int) -> tuple[str, ...]:
    where = "the body's" if paging.location == "body" else "the"
    items, counts = paging.items, paging.offset.counts.value
    offset_name, limit_name = paging.offset.field, paging.limit.field
    matching = paging.matching
    reached = (
        f", or the answer's ``{matching.field}`` (the entries that meet the request) is reached"
        if matching is not None
        else ""
    )
    return (
        *docstring_lines(
            f"Every item of ``{op.python_name}`` (its answers' ``{items}``), page after page.",
            DOC_WIDTH,
        ),
        "",
        *docstring_lines(
            f"Takes the arguments of ``{op.python_name}`` but {where} ``{offset_name}`` and "
            f"``{limit_name}``, which the iterator sets: pages of ``page_size`` items (the "
            f"spec's largest, {page_size}) are asked for one after the other (the offset "
            f"counts {counts}) until one comes back shorter{reached}. Each page is one call, "
            "with its own ``deadline``.",
            DOC_WIDTH,
        ),
        "",
        "Raises:",
        "    PagingError: the pages did not end within ``max_pages`` pages.",
        "    ValueError: ``page_size`` or ``max_pages`` is not a positive integer.",
        f"    The errors of ``{op.python_name}``.",
    )


def paging_models(paging: tuple[PagingIR, ...]) -> set[str]:
    """The item models the iterators name (the client imports them for type checkers)."""
    return {p.item_model for p in paging if p.item_model is not None}
