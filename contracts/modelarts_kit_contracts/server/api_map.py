"""The API as the spec describes it: the training-job operations, found by their role.

Create, show and terminate are in every kit spec; the others (list, delete, describe, events,
logs, metrics, flavors, engines) only where the spec has them (``spec.meaning.roles.get``):
:meth:`ApiMap.get` answers None for a role the spec leaves out, so a scenario about it is
reported not applicable rather than failed.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from modelarts_kit_spec import Operation, Spec, load_spec
from modelarts_kit_spec.load import pointer_join, unescape_pointer_token
from modelarts_kit_spec.meaning import ROLES, Role

from modelarts_kit_contracts.core.envelopes import Envelopes
from modelarts_kit_contracts.core.wire import Exchange
from modelarts_kit_contracts.errors import ContractError

JSON = Any


@dataclass(frozen=True)
class ApiMap:
    """The training-job operations of the spec, found by what they do."""

    spec: Spec
    create: Operation
    show: Operation
    terminate: Operation
    project_param: str
    job_param: str
    # the optional roles the spec has (list, delete, ...), by role
    others: Mapping[Role, Operation] = field(default_factory=dict)

    @classmethod
    def from_spec(cls, spec: Spec | None = None) -> ApiMap:
        """The operations the spec's ``x-modelarts-role`` names (``spec.meaning.roles``).

        A spec without the meaning extensions raises
        :class:`~modelarts_kit_spec.meaning.MeaningError` (exit 2), naming what is missing.
        """
        spec = spec if spec is not None else load_spec()
        roles = spec.meaning.roles
        job_param = roles.job_id_parameter
        project_params = [
            p.name for p in roles.create.parameters if p.location == "path" and p.name != job_param
        ]
        if len(project_params) != 1:
            raise ContractError(
                f"{roles.create.operation_id}: expected one project path parameter, found "
                f"{project_params}"
            )
        others: dict[Role, Operation] = {
            role: found
            for role in ROLES
            if role not in (Role.CREATE, Role.SHOW, Role.TERMINATE)
            and (found := roles.get(role)) is not None
        }
        return cls(
            spec,
            roles.create,
            roles.show,
            roles.terminate,
            project_params[0],
            job_param,
            others,
        )

    @functools.cached_property
    def obligations(self) -> Spec:
        """The spec without its guidance rules: what a server must enforce."""
        return self.spec.obligations()

    @functools.cached_property
    def envelopes(self) -> Envelopes:
        """must-accept and must-reject: what every correct server accepts, and refuses."""
        return Envelopes(self.spec)

    def request_pointer(self, role: Role) -> str:
        """Where the JSON request body schema of ``role`` is written in the spec."""
        return pointer_join(
            self.operation(role).pointer, "requestBody", "content", "application/json", "schema"
        )

    @property
    def job_id_pointer(self) -> str:
        """Where a job response carries the job id (``/metadata/id``)."""
        return str(self.spec.meaning.roles.job_id_field)

    @property
    def job_id_name(self) -> str:
        """The job id field as people write it (``metadata.id``)."""
        return _dotted(self.job_id_pointer)

    @property
    def phase_pointer(self) -> str:
        """Where a job response carries the phase (``/status/phase``)."""
        return str(self.spec.meaning.lifecycle.phase_field)

    @property
    def phase_name(self) -> str:
        return _dotted(self.phase_pointer)

    def job_id_of(self, body: JSON) -> JSON:
        """The job id in a job response (the lifecycle's ``job-id.field``), or None."""
        return _value_at(body, self.job_id_pointer)

    def phase_of(self, body: JSON) -> JSON:
        """The phase in a job response (the lifecycle's ``phase-field``), or None."""
        return _value_at(body, self.phase_pointer)

    @property
    def obligations_create_schema(self) -> JSON:
        return self.obligations.operation(self.create.operation_id).request_schema

    def role_for(self, exchange: Exchange) -> Role | None:
        """The role of the operation ``exchange`` was routed to (None: not one of ours)."""
        for role, op in self.roles():
            if op.operation_id == exchange.operation:
                return role
        return None

    def operation_at(self, method: str, path_template: str) -> Operation | None:
        role = self.role_of(method, path_template)
        return self.operation(role) if role is not None else None

    def role_of(self, method: str, path_template: str) -> Role | None:
        return self._role_by_route.get((method.lower(), path_template))

    def roles(self) -> Iterator[tuple[Role, Operation]]:
        """Every operation the spec has: create, show, terminate, then the optional ones."""
        yield Role.CREATE, self.create
        yield Role.SHOW, self.show
        yield Role.TERMINATE, self.terminate
        yield from self.others.items()

    def get(self, role: Role) -> Operation | None:
        """The operation of ``role``, or None where the spec has none."""
        return self._by_role.get(role)

    # Every check asks these of every answer: indexed once (the map is frozen).
    @functools.cached_property
    def _by_role(self) -> dict[Role, Operation]:
        return dict(self.roles())

    @functools.cached_property
    def _role_by_route(self) -> dict[tuple[str, str], Role]:
        found: dict[tuple[str, str], Role] = {}
        for role, op in self.roles():
            found.setdefault((op.method, op.path), role)  # the first, as the walk found it
        return found

    def operation(self, role: Role) -> Operation:
        found = self.get(role)
        if found is None:
            raise LookupError(f"the spec has no operation with x-modelarts-role {role.value}")
        return found

    def other_path_params(self, role: Role) -> tuple[str, ...]:
        """The path parameters of ``role`` beside the project and the job (a task id)."""
        return tuple(
            p.name
            for p in self.operation(role).parameters
            if p.location == "path" and p.name not in (self.project_param, self.job_param)
        )

    def path(
        self,
        role: Role,
        project_id: str,
        job_id: str | None = None,
        params: Mapping[str, str] | None = None,
    ) -> str:
        """The path of ``role``; ``params`` fills its other path parameters (a task id)."""
        values = {name: "" for name in self.other_path_params(role)}
        values.update(params or {})
        values.update({self.project_param: project_id, self.job_param: job_id or ""})
        return self.operation(role).path.format(**values)

    def example_body(self, role: Role) -> JSON:
        """The first request example the spec gives for ``role`` (a deep copy)."""
        op = self.operation(role)
        body = self.spec.deref(self.spec.at(op.pointer + "/requestBody"))
        media = body["content"]["application/json"]
        examples = media.get("examples") or {}
        for example in examples.values():
            example = self.spec.deref(example)
            if "value" in example:
                return json.loads(json.dumps(example["value"]))
        if "example" in media:
            return json.loads(json.dumps(media["example"]))
        raise LookupError(f"{op.operation_id}: the spec gives no request example")

    @property
    def error_schema(self) -> JSON:
        """The schema of the error body, as documented for the show operation's 4xx."""
        for status in (400, 401, 403, 404):
            response = self.show.response_for(status)
            if response is not None and response.schema is not None:
                return response.schema
        raise LookupError(f"{self.show.operation_id}: no documented error body")


# --- response checks --------------------------------------------------------------------------


def member(document: JSON, *path: str) -> JSON:
    for key in path:
        if not isinstance(document, Mapping):
            return None
        document = document.get(key)
    return document


def _dotted(pointer: str) -> str:
    return ".".join(unescape_pointer_token(t) for t in pointer.split("/")[1:])


def _value_at(document: JSON, pointer: str) -> JSON:
    """The value at a JSON pointer into an instance (None where it is absent)."""
    return member(document, *(unescape_pointer_token(t) for t in pointer.split("/")[1:]))
