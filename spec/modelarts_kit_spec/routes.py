"""Route matching: which operation of the spec a request method and path address.

The rule (one function, :func:`match_route`):

- the raw (still percent-encoded) path, without its query, is split at ``/``; a template
  matches only a path with the same number of segments;
- a literal segment matches itself exactly (case-sensitive); a ``{name}`` segment matches any
  one segment, **including an empty one** (``/v2//training-jobs`` is the create route with an
  empty ``project_id``): whether a value is acceptable is the parameter schema's business
  (``minLength: 1`` makes it a 400 invalid parameter, not an unknown route); the value is
  percent-decoded after splitting, so ``%2F`` never splits a segment;
- when several templates match, the one with the most literal segments wins (OpenAPI: concrete
  paths before templated ones), then the first in the document;
- a path that matches but not with the request's method gives a :class:`RouteMatch` with
  ``operation=None`` and the methods that path allows (405 with ``Allow``); no match gives None.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import unquote

from modelarts_kit_spec.operation import Operation

__all__ = ["RouteMatch", "match_path", "match_route"]


@dataclass(frozen=True)
class RouteMatch:
    """The operation for a request (None: the path exists, the method does not)."""

    operation: Operation | None
    path_params: Mapping[str, str]
    allowed_methods: tuple[str, ...] = field(default=())  # upper case, document order


def _segments(path: str) -> list[str]:
    return path.split("?", 1)[0].split("/")


def match_path(template: str, raw_path: str) -> dict[str, str] | None:
    """The decoded path parameters if ``raw_path`` matches ``template`` (rule above), else None."""
    expected = _segments(template)
    actual = _segments(raw_path)
    if len(expected) != len(actual):
        return None
    params: dict[str, str] = {}
    for pattern, segment in zip(expected, actual, strict=True):
        if len(pattern) > 2 and pattern.startswith("{") and pattern.endswith("}"):
            params[pattern[1:-1]] = unquote(segment)
        elif pattern != segment:
            return None
    return params


def _literal_count(template: str) -> int:
    return sum(1 for s in _segments(template) if not (s.startswith("{") and s.endswith("}")))


def match_route(operations: Iterable[Operation], method: str, raw_path: str) -> RouteMatch | None:
    """The route for ``method raw_path`` among ``operations`` (see the module rule)."""
    by_template: dict[str, list[Operation]] = {}
    for operation in operations:
        by_template.setdefault(operation.path, []).append(operation)
    best: tuple[int, str, dict[str, str]] | None = None
    for template in by_template:
        params = match_path(template, raw_path)
        if params is None:
            continue
        score = _literal_count(template)
        if best is None or score > best[0]:
            best = (score, template, params)
    if best is None:
        return None
    _, template, params = best
    candidates = by_template[template]
    allowed = tuple(op.method.upper() for op in candidates)
    for operation in candidates:
        if operation.method.upper() == method.upper():
            return RouteMatch(operation, params, allowed)
    return RouteMatch(None, params, allowed)
