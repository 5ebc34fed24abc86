"""How the client check drives a Python client: a small adapter protocol.

An adapter wraps one client library. The check calls ``create``/``show``/``stop`` (the three
operations every spec has) with the inputs it generated, and every other operation of the spec
through ``call`` (an :class:`OperationCall`: operation id, role, path and query parameters,
body); it reads what the client hands its caller through ``to_dict``, and a raised error
through ``error_info``. ``call`` is optional: an adapter without it, or one that raises
:class:`OperationNotSupported`, is reported as not supporting the operation (a note, not a
failure). A factory builds an adapter for a :class:`ClientTarget` (where the mock listens and
which credentials to use).

Built-in adapters: ``generated`` (the generated ``modelarts_training_client``) and
``huaweicloudsdk`` (the vendor's ``huaweicloudsdkmodelarts``). Any other client is checked by
naming its factory as ``MODULE:FACTORY``.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Literal, Protocol, runtime_checkable

import httpx
from modelarts_kit_spec import load_spec
from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.errors import ContractError

__all__ = [
    "ADAPTER_METHODS",
    "BUILTIN_ADAPTERS",
    "GENERIC_CALL",
    "AdapterError",
    "AdapterFactory",
    "ClientAdapter",
    "ClientTarget",
    "ErrorInfo",
    "OperationCall",
    "OperationNotSupported",
    "adapter_method",
    "load_adapter_factory",
    "terminate_body",
]

JSON = Any
ErrorInfo = tuple[int | None, str | None, str | None]  # (status, error_code, error_msg)


def terminate_body() -> dict[str, JSON]:
    """The body of a terminate request, as the spec states it (``x-modelarts-lifecycle``'s
    ``terminate-body``): what an adapter's ``stop`` sends."""
    return dict(load_spec().meaning.roles.terminate_body)


BUILTIN_ADAPTERS = {
    "generated": "modelarts_kit_contracts.client.adapters.generated:create_adapter",
    "huaweicloudsdk": "modelarts_kit_contracts.client.adapters.huaweicloudsdk:create_adapter",
}


class AdapterError(ContractError):
    """An adapter cannot be found, imported or built (a usage error: exit 2)."""


class OperationNotSupported(ContractError):
    """The client under check has no way to make a call (the vendor SDK has no logs URL
    operation): the check reports the operation as not supported by that client, not as a
    failure."""


@dataclass(frozen=True)
class OperationCall:
    """One call of an operation of the spec, with the inputs the caller hands the client."""

    operation_id: str
    role: Role
    project_id: str
    # Every path parameter but the project's, by the spec's names (training_job_id, task_id).
    path_params: Mapping[str, str] = field(default_factory=dict)
    query: Mapping[str, JSON] = field(default_factory=dict)  # by the spec's names
    body: JSON = None
    has_body: bool = False  # whether the operation takes a request body at all


@dataclass(frozen=True)
class ClientTarget:
    """Where the client under check must send its requests, and as whom.

    The credentials are throw-away values the mock accepts; they are never printed.
    """

    base_url: str
    token: str = field(repr=False)
    access_key: str = field(repr=False)
    secret_key: str = field(repr=False)
    auth: Literal["token", "aksk"] = "token"
    timeout_s: float = 10.0
    # In-process transport to the mock, for httpx-based clients; None means loopback only.
    transport: httpx.BaseTransport | None = None


@runtime_checkable
class ClientAdapter(Protocol):
    """The calls the client check makes; each maps to one call of the client under check."""

    name: str

    def create(self, project_id: str, body: JSON) -> object:
        """Create a training job from ``body`` (a JSON object) and return the client's result."""

    def show(self, project_id: str, job_id: str) -> object:
        """Query a training job and return the client's result."""

    def stop(self, project_id: str, job_id: str) -> object:
        """Terminate a training job and return the client's result."""

    # Optional: ``def call(self, request: OperationCall) -> object`` makes any other operation
    # of the spec (raise OperationNotSupported where the client has no such call).

    def to_dict(self, result: object) -> JSON:
        """What the client hands its caller, as JSON values (nothing added, nothing lost)."""

    def error_info(self, exc: BaseException) -> ErrorInfo | None:
        """(status, error_code, error_msg) of an API error the client raised; None otherwise."""

    def close(self) -> None:
        """Release the client's resources."""


AdapterFactory = Callable[[ClientTarget], ClientAdapter]
ADAPTER_METHODS = ("create", "show", "stop", "to_dict", "error_info", "close")
# The adapter's own method for the three roles every spec has (a client calls terminate
# "stop"); every other role goes through the optional ``call`` (GENERIC_CALL).
ADAPTER_CALL: dict[Role, str] = {Role.CREATE: "create", Role.SHOW: "show", Role.TERMINATE: "stop"}
GENERIC_CALL = "call"


def adapter_method(role: Role) -> str:
    """The name of the adapter method that makes a call of ``role``."""
    return ADAPTER_CALL.get(role, GENERIC_CALL)


def _import_from_cwd(module_name: str) -> ModuleType:
    """Import ``module_name`` with the current directory on ``sys.path``, as ``python -m`` and
    uvicorn's ``--app-dir .`` do: an installed console script does not put it there, so an
    adapter in the user's own project (``examples.node_client.adapter``) would not import."""
    cwd = os.getcwd()
    if cwd in sys.path or "" in sys.path:
        return importlib.import_module(module_name)
    sys.path.insert(0, cwd)
    try:
        return importlib.import_module(module_name)
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(cwd)


def load_adapter_factory(name: str) -> AdapterFactory:
    """The factory named by a built-in adapter name or ``MODULE:FACTORY``."""
    target = BUILTIN_ADAPTERS.get(name, name)
    module_name, sep, attribute = target.partition(":")
    if not sep or not module_name or not attribute:
        raise AdapterError(
            f"--adapter {name!r}: expected one of {', '.join(BUILTIN_ADAPTERS)} or MODULE:FACTORY"
        )
    try:
        module = _import_from_cwd(module_name)
    except ImportError as exc:
        raise AdapterError(f"--adapter {name!r}: cannot import {module_name}: {exc}") from exc
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise AdapterError(f"--adapter {name!r}: {module_name} has no callable {attribute!r}")
    return factory  # type: ignore[no-any-return]
