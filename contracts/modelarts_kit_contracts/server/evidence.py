"""Where a scenario's rule comes from: the vendor page(s) documenting an operation.

An operation's page is the one the recorded sources name for its ``operationId``
(``spec/sources/index.yaml``, read by :mod:`modelarts_kit_vendordocs.sources`: the page's own
``:original_name:``), its current revisions. A spec without recorded sources falls back on the
schema model's page tables (``x-modelarts-schema-model.pages``) of the operation's request
and response bodies.
"""

from __future__ import annotations

import functools
from pathlib import Path

from modelarts_kit_spec.meaning import Role
from modelarts_kit_spec.schemamodel.operation_quotes import operation_quote, status_quote

from modelarts_kit_contracts.server.api_map import ApiMap


def operation_evidence(api: ApiMap, role: Role, *, status: int | None = None) -> str:
    """``spec <pointer> (<operationId>)``, then the pages that document it."""
    operation = api.operation(role)
    where = operation.pointer
    if status is not None:
        where = f"{where}/responses/{status}"
    pages = recorded_pages(api.spec.path, operation.operation_id) or _body_pages(api, role)
    # The page's own words: its URI line and, for a status, its row (issue 31 item 9).
    quotes = [operation_quote(operation.operation_id, operation.method, operation.path)]
    if status is not None:
        quotes.append(status_quote(operation.operation_id, str(status)))
    cited = [*pages, *(q for q in quotes if q)]
    head = f"spec {where} ({operation.operation_id})"
    return f"{head}: {'; '.join(cited)}" if cited else head


@functools.lru_cache(maxsize=64)
def recorded_pages(spec_path: Path, operation_id: str) -> tuple[str, ...]:
    """The vendor pages recorded for ``operation_id`` beside the spec (none: no sources)."""
    from modelarts_kit_vendordocs.project import project_for
    from modelarts_kit_vendordocs.sources import SourcesError, read_index

    try:
        index = read_index(project_for(spec_path).sources)
    except (SourcesError, OSError):
        return ()
    return tuple(f"page {page.file}" for page in index.current(operation_id))


def _body_pages(api: ApiMap, role: Role) -> list[str]:
    operation = api.operation(role)
    extension = api.spec.schema_model.extension
    found: dict[str, None] = {}
    for schema in (operation.request_schema, operation.success.schema):
        if schema is None:
            continue
        _, pointer, _ = api.spec.walker.deref(schema)
        for evidence in extension.pages_for(pointer) if pointer else ():
            found.setdefault(str(evidence), None)
    return list(found)
