"""What a handler gets and gives: the request's :class:`RequestContext` (with the server, as
:class:`JobServer`) and its :class:`JsonResponse`.

The types every handler module of the package :mod:`~modelarts_kit_server.handlers` shares
(``job_core``, ``job_records``, ``tasks``, ``catalogue``), in a module of their own so that
those modules and the table binding them (:mod:`~modelarts_kit_server.handlers`) import them
without a cycle."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from modelarts_kit_spec import Operation, Spec

from modelarts_kit_server.auth import Principal
from modelarts_kit_server.catalogue import Catalogue
from modelarts_kit_server.clock import Clock
from modelarts_kit_server.downloads import RESERVED_ORIGIN, LogLinks
from modelarts_kit_server.lifecycle import Simulation
from modelarts_kit_server.settings import ServerSettings
from modelarts_kit_server.store import JobStore

__all__ = ["Handler", "JobServer", "JsonResponse", "RequestContext", "short"]

MAX_ID_CHARS = 64


class JobServer(Protocol):
    """What a handler uses of the server: its collaborators and its job ids."""

    settings: ServerSettings
    spec: Spec
    store: JobStore
    clock: Clock
    simulation: Simulation
    catalogue: Catalogue
    log_links: LogLinks

    def new_job_id(self) -> str: ...


@dataclass(frozen=True)
class JsonResponse:
    """An answer: a JSON ``body``, or none at all with ``empty`` (a response the spec
    documents without content, e.g. 202 of a delete)."""

    status: int
    body: Any
    headers: Mapping[str, str] = field(default_factory=dict)
    empty: bool = False


@dataclass(frozen=True)
class RequestContext:
    """What a handler needs about the request and the server."""

    server: JobServer
    operation: Operation
    path_params: Mapping[str, str]
    principal: Principal
    body: bytes
    content_type: str | None
    query_string: str = ""  # the raw query of the request URL (without "?")
    # scheme://host the request reached when loopback, for links to the server itself
    origin: str = RESERVED_ORIGIN

    @property
    def project_id(self) -> str:
        return self.path_params["project_id"]

    @property
    def job_id(self) -> str:
        return self.path_params[self.server.spec.meaning.roles.job_id_parameter]


Handler = Callable[[RequestContext], JsonResponse]


def short(text: str) -> str:
    """``text`` cut to :data:`MAX_ID_CHARS` for an error message (an id the client sent)."""
    return text if len(text) <= MAX_ID_CHARS else text[: MAX_ID_CHARS - 3] + "..."
