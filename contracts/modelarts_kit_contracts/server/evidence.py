"""Where a scenario's rule comes from: the vendor page(s) documenting an operation.

The spec's schema model records the page tables of each schema node
(``x-modelarts-schema-model.pages``). An operation's page is the one its own nodes share: the
pages of its request and response bodies and of its path parameters, narrowed to those every
node with pages cites (a path parameter alone is on many pages; a body on its own page).
"""

from __future__ import annotations

from collections.abc import Iterator

from modelarts_kit_spec.meaning import Role
from modelarts_kit_spec.schemamodel import Evidence

from modelarts_kit_contracts.server.api_map import ApiMap


def operation_evidence(api: ApiMap, role: Role, *, status: int | None = None) -> str:
    """``spec <pointer> (<operationId>)``, then the pages that document it."""
    operation = api.operation(role)
    where = operation.pointer
    if status is not None:
        where = f"{where}/responses/{status}"
    pages = _pages(api, role)
    head = f"spec {where} ({operation.operation_id})"
    return f"{head}: {'; '.join(pages)}" if pages else head


def _pages(api: ApiMap, role: Role) -> list[str]:
    per_node = [found for found in _node_pages(api, role) if found]
    if not per_node:
        return []
    files = set.intersection(*({e.where for e in found} for found in per_node))
    seen: dict[str, None] = {}
    for found in per_node:
        for evidence in found:
            if evidence.where in files:
                seen.setdefault(str(evidence), None)
    return list(seen)


def _node_pages(api: ApiMap, role: Role) -> Iterator[tuple[Evidence, ...]]:
    operation = api.operation(role)
    extension = api.spec.schema_model.extension
    walker = api.spec.walker
    schemas = [operation.request_schema, operation.success.schema]
    for schema in schemas:
        if schema is not None:
            _, pointer, _ = walker.deref(schema)
            if pointer:
                yield extension.pages_for(pointer)
    parameters = api.spec.at(operation.pointer).get("parameters") or []
    path_item = api.spec.at(operation.pointer.rsplit("/", 1)[0]).get("parameters") or []
    for parameter in [*path_item, *parameters]:
        if isinstance(parameter, dict) and isinstance(parameter.get("$ref"), str):
            yield extension.pages_for(parameter["$ref"].removeprefix("#"))
