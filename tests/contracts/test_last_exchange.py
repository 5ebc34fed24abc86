"""The response checks of one answer share one wire exchange, and only that answer's."""

from __future__ import annotations

import threading
from typing import Any

from modelarts_kit_contracts.core.wire import Exchange, WireRequest, WireResponse
from modelarts_kit_contracts.server.last_exchange import exchange_once


def _builder(built: list[tuple[Any, Any, Any]]) -> Any:
    def build(api: Any, response: Any, case: Any) -> Exchange:
        built.append((api, response, case))
        return Exchange(WireRequest("GET", f"/{len(built)}"), WireResponse(200))

    return build


def test_the_checks_of_one_answer_share_its_exchange_and_no_other_answer_does() -> None:
    built: list[tuple[Any, Any, Any]] = []
    build = _builder(built)
    api, case, answer, other = object(), object(), object(), object()
    first = exchange_once(build, api, answer, case)
    assert exchange_once(build, api, answer, case) is first
    assert len(built) == 1
    assert exchange_once(build, api, other, case) is not first  # another answer
    assert exchange_once(build, api, other, object()) is not first  # another case
    assert exchange_once(build, object(), other, case) is not first  # another api
    assert len(built) == 4


def test_an_answer_none_of_whose_operations_the_api_has_is_not_built_again() -> None:
    calls: list[int] = []

    def build(api: Any, response: Any, case: Any) -> Exchange | None:
        calls.append(1)
        return None

    api, case, answer = object(), object(), object()
    assert exchange_once(build, api, answer, case) is None
    assert exchange_once(build, api, answer, case) is None
    assert calls == [1]


def test_each_thread_builds_its_own() -> None:
    built: list[tuple[Any, Any, Any]] = []
    build = _builder(built)
    api, case, answer = object(), object(), object()
    mine = exchange_once(build, api, answer, case)
    theirs: list[Exchange | None] = []
    worker = threading.Thread(target=lambda: theirs.append(exchange_once(build, api, answer, case)))
    worker.start()
    worker.join()
    assert theirs[0] is not mine
    assert len(built) == 2
