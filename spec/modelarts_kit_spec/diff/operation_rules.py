"""The operation rules of ``spec diff``: operations matched by method and path template, then
their parameters, request bodies, responses (statuses, media types, headers) and security;
the schemas they carry go to :func:`~modelarts_kit_spec.diff.schema_rules.compare_schema`."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from modelarts_kit_spec.diff.model import (
    Place,
    Side,
    Walk,
    as_mapping,
    deref,
    side_impact,
)
from modelarts_kit_spec.diff.schema_rules import compare_schema
from modelarts_kit_spec.document import HTTP_METHODS, JSON, pointer_join
from modelarts_kit_spec.meaning import ROLE_KEY
from modelarts_kit_spec.role import CORE_ROLES, ROLES

__all__ = [
    "OPERATION_RULES",
    "OperationRule",
    "OperationView",
    "operation_rule",
    "operations_changed",
]


@dataclass(frozen=True)
class OperationView:
    method: str
    path: str
    pointer: str
    operation: Mapping[str, JSON]
    parameters: dict[tuple[str, str], tuple[str, Mapping[str, JSON]]]  # (in, name) -> (ptr, param)
    security: list[JSON]

    @property
    def endpoint(self) -> str:
        return f"{self.method.upper()} {self.path}"

    @property
    def operation_id(self) -> str:
        return str(self.operation.get("operationId") or self.endpoint)

    @property
    def optional_role(self) -> str | None:
        """The operation's role when it is one a kit spec may leave out (``list``, ...)."""
        role = self.operation.get(ROLE_KEY)
        optional = {str(r) for r in ROLES} - {str(r) for r in CORE_ROLES}
        return role if isinstance(role, str) and role in optional else None


TEMPLATE = re.compile(r"\{[^{}]*\}")


def _operations(document: JSON) -> dict[tuple[str, str], OperationView]:
    views: dict[tuple[str, str], OperationView] = {}
    for path, item in as_mapping(document.get("paths")).items():
        item, _ = deref(document, item)
        item = as_mapping(item)
        shared = _parameter_index(document, item.get("parameters"), pointer_join("/paths", path))
        for method in HTTP_METHODS:
            op = item.get(method)
            if not isinstance(op, Mapping):
                continue
            pointer = pointer_join("/paths", path, method)
            params = {**shared, **_parameter_index(document, op.get("parameters"), pointer)}
            params = _key_path_parameters_by_position(str(path), params)
            security = op.get("security", document.get("security") or [])
            key = (method, TEMPLATE.sub("{}", str(path)))
            views[key] = OperationView(method, str(path), pointer, op, params, list(security))
    return views


def _key_path_parameters_by_position(
    path: str, params: dict[tuple[str, str], tuple[str, Mapping[str, JSON]]]
) -> dict[tuple[str, str], tuple[str, Mapping[str, JSON]]]:
    """Path parameters are matched by their place in the template: renaming {id} to {job_id}
    changes nothing on the wire."""
    names = [m.group(0)[1:-1] for m in TEMPLATE.finditer(path)]
    return {
        (
            ("path", f"{{{names.index(name)}}}")
            if where == "path" and name in names
            else (where, name)
        ): value
        for (where, name), value in params.items()
    }


def _parameter_index(
    document: JSON, raw: JSON, owner: str
) -> dict[tuple[str, str], tuple[str, Mapping[str, JSON]]]:
    index: dict[tuple[str, str], tuple[str, Mapping[str, JSON]]] = {}
    for position, item in enumerate(raw if isinstance(raw, list) else []):
        param, _ = deref(document, item)
        param = as_mapping(param)
        key = (str(param.get("in")), str(param.get("name")))
        index[key] = (pointer_join(owner, "parameters", position), param)
    return index


def operations_changed(walk: Walk, old: JSON, new: JSON) -> None:
    old_ops, new_ops = _operations(old), _operations(new)
    for key, view in new_ops.items():
        walk.operation, walk.endpoint = view.operation_id, view.endpoint
        if key not in old_ops:
            # A server of the older spec without an operation of an optional role still
            # serves every role that spec requires: breaking for no one.
            role = view.optional_role
            walk.emit(
                "operation-added", view.pointer, None, view.operation_id, (False, role is None),
                f"operation {view.operation_id} ({view.endpoint}) added"
                + ("" if role is None else f" (optional role {role}: a server may leave it out)"),
            )  # fmt: skip
            continue
        before = old_ops[key]
        if before.operation_id != view.operation_id:
            walk.emit(
                "operation-id-changed",
                pointer_join(view.pointer, "operationId"),
                before.operation_id,
                view.operation_id,
                (True, False),
                f"operationId changed from {before.operation_id} to {view.operation_id}",
            )
        for check in OPERATION_RULES:
            check(walk, before, view)
    for key, view in old_ops.items():
        if key not in new_ops:
            walk.operation, walk.endpoint = view.operation_id, view.endpoint
            walk.emit(
                "operation-removed", view.pointer, view.operation_id, None, (True, False),
                f"operation {view.operation_id} ({view.endpoint}) removed",
            )  # fmt: skip


OperationRule = Callable[[Walk, OperationView, OperationView], None]
OPERATION_RULES: list[OperationRule] = []


def operation_rule(check: OperationRule) -> OperationRule:
    OPERATION_RULES.append(check)
    return check


def _param_required(param: Mapping[str, JSON]) -> bool:
    return bool(param.get("required", param.get("in") == "path"))


@operation_rule
def parameters_changed(walk: Walk, old: OperationView, new: OperationView) -> None:
    for key, (pointer, param) in new.parameters.items():
        where, name = key[0], str(param.get("name"))
        required = _param_required(param)
        if key not in old.parameters:
            walk.emit(
                "parameter-added",
                pointer,
                None,
                {"in": where, "name": name, "required": required},
                (required, True),
                f"{where} parameter `{name}` added ({'required' if required else 'optional'})",
            )
            continue
        old_param = old.parameters[key][1]
        was_required = _param_required(old_param)
        if was_required != required:
            walk.emit(
                "parameter-required-changed",
                pointer_join(pointer, "required"),
                was_required,
                required,
                side_impact("request", widened=not required, narrowed=required),
                f"{where} parameter `{name}`: "
                + ("optional -> required" if required else "required -> optional"),
            )
        if isinstance(old_param.get("schema"), Mapping) and isinstance(
            param.get("schema"), Mapping
        ):
            place = Place("request", pointer_join(pointer, "schema"), f"{where}:{name}")
            compare_schema(walk, old_param["schema"], param["schema"], place)
    for key, (pointer, param) in old.parameters.items():
        if key not in new.parameters:
            name = str(param.get("name"))
            walk.emit(
                "parameter-removed",
                pointer,
                {"in": key[0], "name": name},
                None,
                (True, False),
                f"{key[0]} parameter `{name}` removed",
            )


def _content(document: JSON, node: JSON) -> Mapping[str, JSON]:
    resolved, _ = deref(document, node)
    return as_mapping(as_mapping(resolved).get("content"))


def _compare_content(walk: Walk, old_node: JSON, new_node: JSON, pointer: str, side: Side) -> None:
    old_content, new_content = _content(walk.old_doc, old_node), _content(walk.new_doc, new_node)
    for media, body in new_content.items():
        media_pointer = pointer_join(pointer, "content", media)
        if media not in old_content:
            walk.emit(
                "media-type-added", media_pointer, None, media,
                side_impact(side, widened=True, narrowed=False),
                f"{side} media type {media} added",
            )  # fmt: skip
            continue
        old_schema = as_mapping(old_content[media]).get("schema")
        new_schema = as_mapping(body).get("schema")
        if isinstance(old_schema, Mapping) and isinstance(new_schema, Mapping):
            compare_schema(
                walk, old_schema, new_schema, Place(side, pointer_join(media_pointer, "schema"), "")
            )
    for media in old_content:
        if media not in new_content:
            walk.emit(
                "media-type-removed", pointer_join(pointer, "content", media), media, None,
                side_impact(side, widened=False, narrowed=True),
                f"{side} media type {media} removed",
            )  # fmt: skip


@operation_rule
def request_body_changed(walk: Walk, old: OperationView, new: OperationView) -> None:
    old_body, _ = deref(walk.old_doc, old.operation.get("requestBody"))
    new_body, _ = deref(walk.new_doc, new.operation.get("requestBody"))
    pointer = pointer_join(new.pointer, "requestBody")
    if old_body is None and new_body is None:
        return
    if old_body is None:
        required = bool(as_mapping(new_body).get("required"))
        walk.emit(
            "request-body-added", pointer, None, {"required": required}, (required, True),
            f"request body added ({'required' if required else 'optional'})",
        )  # fmt: skip
        return
    if new_body is None:
        walk.emit(
            "request-body-removed", pointer_join(old.pointer, "requestBody"), "present", None,
            (True, False), "request body removed",
        )  # fmt: skip
        return
    was, now = (
        bool(as_mapping(old_body).get("required")),
        bool(as_mapping(new_body).get("required")),
    )
    if was != now:
        walk.emit(
            "request-body-required-changed",
            pointer_join(pointer, "required"),
            was,
            now,
            side_impact("request", widened=not now, narrowed=now),
            "request body " + ("optional -> required" if now else "required -> optional"),
        )
    _compare_content(walk, old_body, new_body, pointer, "request")


@operation_rule
def responses_changed(walk: Walk, old: OperationView, new: OperationView) -> None:
    old_responses = as_mapping(old.operation.get("responses"))
    new_responses = as_mapping(new.operation.get("responses"))
    for status, response in new_responses.items():
        pointer = pointer_join(new.pointer, "responses", status)
        success = str(status).startswith("2")
        if status not in old_responses:
            walk.emit(
                "response-status-added", pointer, None, str(status), (success, False),
                f"response status {status} added"
                + ("" if success else " (clients handle unknown error statuses generically)"),
            )  # fmt: skip
            continue
        _compare_headers(walk, old_responses[status], response, pointer)
        _compare_content(walk, old_responses[status], response, pointer, "response")
    for status in old_responses:
        if status not in new_responses:
            walk.emit(
                "response-status-removed",
                pointer_join(old.pointer, "responses", status),
                str(status),
                None,
                (False, True),
                f"response status {status} removed (servers that still send it no longer conform)",
            )


def _compare_headers(walk: Walk, old_node: JSON, new_node: JSON, pointer: str) -> None:
    old_resp, _ = deref(walk.old_doc, old_node)
    new_resp, _ = deref(walk.new_doc, new_node)
    old_headers = as_mapping(as_mapping(old_resp).get("headers"))
    new_headers = as_mapping(as_mapping(new_resp).get("headers"))
    for name, header in new_headers.items():
        header_pointer = pointer_join(pointer, "headers", name)
        resolved, _ = deref(walk.new_doc, header)
        if name not in old_headers:
            required = bool(as_mapping(resolved).get("required"))
            walk.emit(
                "response-header-added", header_pointer, None, {"required": required},
                (False, required), f"response header {name} added",
            )  # fmt: skip
            continue
        old_resolved, _ = deref(walk.old_doc, old_headers[name])
        old_schema, new_schema = (
            as_mapping(old_resolved).get("schema"),
            as_mapping(resolved).get("schema"),
        )
        if isinstance(old_schema, Mapping) and isinstance(new_schema, Mapping):
            place = Place("response", pointer_join(header_pointer, "schema"), f"header:{name}")
            compare_schema(walk, old_schema, new_schema, place)
    for name in old_headers:
        if name not in new_headers:
            walk.emit(
                "response-header-removed", pointer_join(pointer, "headers", name), name, None,
                (True, False), f"response header {name} removed",
            )  # fmt: skip


def _requirements(security: Iterable[JSON]) -> set[frozenset[str]]:
    return {frozenset(as_mapping(item)) for item in security}


@operation_rule
def security_changed(walk: Walk, old: OperationView, new: OperationView) -> None:
    before, after = _requirements(old.security), _requirements(new.security)
    pointer = pointer_join(new.pointer, "security")
    for requirement in sorted(after - before, key=sorted):
        walk.emit(
            "security-changed", pointer, None, sorted(requirement), (False, True),
            f"security alternative {sorted(requirement) or 'anonymous'} added "
            "(servers must accept it)",
        )  # fmt: skip
    for requirement in sorted(before - after, key=sorted):
        walk.emit(
            "security-changed", pointer, sorted(requirement), None, (True, False),
            f"security alternative {sorted(requirement) or 'anonymous'} removed",
        )  # fmt: skip
    old_schemes = as_mapping(as_mapping(walk.old_doc.get("components")).get("securitySchemes"))
    new_schemes = as_mapping(as_mapping(walk.new_doc.get("components")).get("securitySchemes"))
    for name in sorted({name for requirement in before & after for name in requirement}):
        old_def, _ = deref(walk.old_doc, old_schemes.get(name))
        new_def, _ = deref(walk.new_doc, new_schemes.get(name))
        significant = ("type", "in", "name", "scheme", "bearerFormat", "flows", "openIdConnectUrl")
        changed = [
            k for k in significant if as_mapping(old_def).get(k) != as_mapping(new_def).get(k)
        ]
        if changed:
            walk.emit(
                "security-scheme-changed",
                pointer_join("/components/securitySchemes", name),
                {k: as_mapping(old_def).get(k) for k in changed},
                {k: as_mapping(new_def).get(k) for k in changed},
                (True, True),
                f"security scheme {name} changed ({', '.join(changed)})",
            )
