"""Fixtures: an in-process reference server on a manual clock, and a spec-checking client."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from modelarts_kit_server import ManualClock, ReferenceServer, ServerSettings, create_app
from modelarts_kit_spec import Spec, load_spec

from .server_support import Api, SyncASGITransport


@pytest.fixture
def spec() -> Spec:
    return load_spec()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def settings(clock: ManualClock) -> ServerSettings:
    return ServerSettings(clock=clock)


@pytest.fixture
def app(settings: ServerSettings) -> Iterator[ReferenceServer]:
    server = create_app(settings)
    yield server
    server.close()


@pytest.fixture
def client(app: ReferenceServer) -> Iterator[httpx.Client]:
    transport = SyncASGITransport(app)
    with httpx.Client(transport=transport, base_url="http://127.0.0.1") as sync_client:
        yield sync_client


@pytest.fixture
def api(client: httpx.Client, spec: Spec) -> Api:
    return Api(client, spec)
