"""The IR of the generated iterators (``iter_*``): which operations page, by which fields,
and how the client calls a page, read from the spec's roles and the operations' schemas.

An operation pages when the spec gives it the ``list`` or ``events`` role and it takes an
``offset`` and a ``limit`` (query parameters, or fields of its request body), and its answer
has one array of items. What the offset counts (items or pages) is read from its
description; the page size is the limit's documented maximum (else its default).
"""

from __future__ import annotations

import keyword
import re

from modelarts_kit_spec import Operation, Spec, SpecError
from modelarts_kit_spec.meaning import Role, uses_meaning
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

__all__ = ["LIMIT", "OFFSET", "PAGED_ROLES", "build_paging", "model_attribute", "paging_models"]

# The roles whose operations page, and the names of the paging fields (the vendor's own).
PAGED_ROLES = (Role.LIST, Role.EVENTS)
OFFSET = "offset"
LIMIT = "limit"
TOTAL = "total"
# Offset descriptions that count pages ("Number of pages for querying jobs"), not items.
_COUNTS_PAGES = re.compile(r"\bpages?\b", re.IGNORECASE)


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
    roles = spec.meaning.roles
    paged = {op.operation_id for role in PAGED_ROLES if (op := roles.get(role)) is not None}
    found = []
    for op, op_ir in zip(spec.operations, operations, strict=True):
        if op.operation_id in paged:
            found.append(_paging(spec, op, op_ir, plan))
    return tuple(found)


def _paging(spec: Spec, op: Operation, op_ir: OperationIR, plan: ModelPlan) -> PagingIR:
    query = {p.name: p for p in op.parameters if p.location == "query"}
    if OFFSET in query and LIMIT in query:
        in_body = False
        offset_schema, limit_schema = query[OFFSET].schema, query[LIMIT].schema
        offset_text = query[OFFSET].description
    else:
        body = spec.walker.view(op.request_schema) if op.request_schema is not None else None
        if body is None or OFFSET not in body.properties or LIMIT not in body.properties:
            raise SpecError(
                f"{op.pointer}: a {OFFSET!r} and a {LIMIT!r} (query parameters or body fields) "
                "are needed to page (rule: a list or events operation pages)"
            )
        in_body = True
        offset_schema, limit_schema = body.properties[OFFSET], body.properties[LIMIT]
        offset_text = ""
    offset = spec.walker.view(offset_schema)
    limit = spec.walker.view(limit_schema)
    offset_text = offset_text or str(offset.schema.get("description", ""))
    page_size = limit.schema.get("maximum", limit.schema.get("default"))
    if isinstance(page_size, bool) or not isinstance(page_size, int) or page_size < 1:
        raise SpecError(
            f"{op.pointer}: {LIMIT!r} states no maximum or default (rule: the page size of "
            "an iterator is the limit's maximum)"
        )
    answer = spec.walker.view(op.success.schema) if op.success.schema is not None else None
    arrays = [
        name
        for name, raw in (answer.properties.items() if answer is not None else ())
        if "array" in spec.walker.view(raw).types
    ]
    if len(arrays) != 1 or op_ir.return_model is None:
        raise SpecError(
            f"{op.success.pointer}: the answer has {len(arrays)} arrays (rule: a paged "
            "answer has exactly one array of items)"
        )
    items = model_attribute(arrays[0])
    total = model_attribute(TOTAL) if answer is not None and TOTAL in answer.properties else None
    if items is None:
        raise SpecError(f"{op.success.pointer}: {arrays[0]!r} is not a plain attribute name")
    item_models = list(
        referenced_models(plan.schemas[op_ir.return_model].get("properties", {}).get(arrays[0]))
    )
    item = item_models[0] if len(set(item_models)) == 1 else "Any"
    method_name = "iter_" + op_ir.python_name.removeprefix("list_").removeprefix("show_")
    page_arguments = (f"{OFFSET}=plan.offset", f"{LIMIT}=plan.limit")
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
            f"{python_string(OFFSET)}, plan.offset, {python_string(LIMIT)}, plan.limit)",
            "deadline=deadline",
        )
    else:
        signature = own.without({OFFSET, LIMIT, "deadline"})
        call = (*signature.forward, *page_arguments, "deadline=deadline")
    signature = signature.plus(
        ArgumentIR("page_size", "int", str(page_size), keyword_only=True),
        ArgumentIR("max_pages", "int", "DEFAULT_MAX_PAGES", keyword_only=True),
        DEADLINE_ARGUMENT,
    )
    counts = "pages" if _COUNTS_PAGES.search(offset_text) else "items"
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
        docstring=indented(_docstring(op_ir, arrays[0], counts, page_size, in_body)),
    )


def _docstring(
    op: OperationIR, items: str, counts: str, page_size: int, in_body: bool
) -> tuple[str, ...]:
    where = "the body's" if in_body else "the"
    return (
        *docstring_lines(
            f"Every item of ``{op.python_name}`` (its answers' ``{items}``), page after page.",
            DOC_WIDTH,
        ),
        "",
        *docstring_lines(
            f"Takes the arguments of ``{op.python_name}`` but {where} ``{OFFSET}`` and "
            f"``{LIMIT}``, which the iterator sets: pages of ``page_size`` items (the "
            f"spec's largest, {page_size}) are asked for one after the other (the offset "
            f"counts {counts}) until one comes back shorter, or the answer's total is "
            "reached. Each page is one call, with its own ``deadline``.",
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
