"""What a default run spends, and on what (issue 36): the fuzzing budget is shared by the valid
and the invalid engine run, as plain schemathesis's default mode shares it; a create body is
placed between the envelopes by the traffic guard only where a cap counts it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
import requests
from modelarts_kit_contracts.server import collector
from modelarts_kit_contracts.server import run as run_module
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_contracts.server.guard import (
    CreateCapReached,
    GuardPolicy,
    Route,
    TrafficGuard,
)
from modelarts_kit_contracts.server.run import (
    Budget,
    RunOptions,
    ServerTarget,
    fuzzing_shares,
    run_server_contract,
)
from modelarts_kit_contracts.server.schemathesis_adapter import build_config
from modelarts_kit_contracts.transport_auth import Credentials
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, create_app
from modelarts_kit_spec.meaning import Role


@pytest.mark.parametrize(
    ("max_examples", "shares"), [(25, (13, 12)), (5, (3, 2)), (3, (2, 1)), (2, (1, 1)), (1, (1, 1))]
)
def test_the_fuzzing_budget_is_shared_by_valid_and_invalid_data(
    max_examples: int, shares: tuple[int, int]
) -> None:
    assert fuzzing_shares(max_examples) == shares


def _config(**overrides: Any) -> Any:
    arguments: dict[str, Any] = {
        "base_url": "http://127.0.0.1:1",
        "seed": 1,
        "phases": ("examples", "coverage", "fuzzing", "stateful"),
        "max_examples": 25,
        "max_time_s": None,
        "workers": 1,
        "request_timeout_s": 10.0,
        "parameters": {},
        "headers": {},
        "checks": (),
        "signed_at_transport": False,
    }
    return build_config(**{**arguments, **overrides})


def test_the_fuzzing_share_binds_the_fuzzing_phase_alone() -> None:
    config = _config(fuzzing_max_examples=12).projects.default
    assert config.get_hypothesis_settings(phase="fuzzing").max_examples == 12
    assert config.get_hypothesis_settings(phase="stateful").max_examples == 25
    whole = _config().projects.default
    assert whole.get_hypothesis_settings(phase="fuzzing").max_examples == 25


class _Recorded:
    """Stands for the engine: records each run's configuration, sends nothing."""

    runs: list[tuple[str, int]]
    collector: ClassVar[list[tuple[bool, tuple[int, ...]]]] = []  # frozen?, thresholds

    def __init__(self, *, document: Any, config: Any, app: Any, prepare_session: Any) -> None:
        project = config.projects.default
        settings = project.get_hypothesis_settings(phase="fuzzing")
        _Recorded.runs.append((str(project.generation.modes[0].value), settings.max_examples))

    def events(self) -> Iterator[Any]:
        import gc

        _Recorded.collector.append((gc.get_freeze_count() > 0, gc.get_threshold()))
        return iter(())

    def stop(self) -> None:
        return None


def _fuzzing_run(*, max_examples: int, api: ApiMap | None = None) -> None:
    """A run of the fuzzing phase alone, no scenario, on the reference server in-process."""
    options = RunOptions(
        credentials=Credentials(token=DEV_TOKEN),
        project_id=DEV_PROJECT_ID,
        other_project_id=DEV_PROJECT_ID[::-1],
        budget=Budget(max_examples=max_examples, seed=1),
        phases=("fuzzing",),
        scenarios=False,
    )
    app = create_app()
    try:
        run_server_contract(ServerTarget.asgi(app), options, api=api)
    finally:
        app.close()


def test_a_run_spends_max_examples_fuzzing_cases_per_operation_not_twice_that(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _Recorded.runs = []
    _Recorded.collector = []
    monkeypatch.setattr(run_module, "EngineRun", _Recorded)
    _fuzzing_run(max_examples=25)
    assert _Recorded.runs == [("positive", 13), ("negative", 12)]
    # the phases ran with the setup frozen and full passes rarer; the collector is back after
    frozen_rarer = (True, (700, 10, collector.PHASES_OLDEST_THRESHOLD))
    assert _Recorded.collector == [frozen_rarer, frozen_rarer]
    import gc

    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == collector.PYTHON_THRESHOLDS


def _frozen(thing: object) -> bool:
    """Tracked by the cyclic collector, and in none of its generations: frozen."""
    import gc

    generations = (gc.get_objects(generation=g) for g in range(3))
    return gc.is_tracked(thing) and not any(thing is o for gen in generations for o in gen)


def test_the_run_is_frozen_from_its_preflight_and_freezes_what_it_made_before_each_engine_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The setup is out of the full passes from the preflight on (the scenarios' passes walked
    it too); what the preflight made is frozen as well once the phases start, and what the
    valid engine run left before the invalid one starts."""
    import gc

    seen: list[tuple[bool, ...]] = []
    setup = ApiMap.from_spec()  # made before the run: its setup
    made: list[Any] = []

    def preflight(*args: Any, **kwargs: Any) -> None:
        made.append([])  # made before the phases, kept alive
        seen.append((_frozen(setup), _frozen(made[0])))

    def events(self: Any) -> Iterator[Any]:
        seen.append((_frozen(setup), *(_frozen(thing) for thing in made)))
        made.append([])  # made by this engine run, kept alive
        return iter(())

    _Recorded.runs = []
    monkeypatch.setattr(run_module, "EngineRun", _Recorded)
    monkeypatch.setattr(run_module, "preflight", preflight)
    monkeypatch.setattr(_Recorded, "events", events)
    _fuzzing_run(max_examples=5, api=setup)
    # at the preflight the setup was frozen; at each engine run, whatever was made before it
    assert seen == [(True, False), (True, True), (True, True, True)]
    assert gc.get_freeze_count() == 0
    assert not _frozen(setup)


CREATE = "/v2/{project_id}/training-jobs"


def _guard(policy: GuardPolicy, placed: list[Any]) -> TrafficGuard:
    def could_create(body: Any) -> bool:
        placed.append(body)
        return True

    return TrafficGuard(
        routes=(Route(Role.CREATE, "POST", CREATE),),
        job_id_pointer=("metadata", "id"),
        phase_pointer=("status", "phase"),
        could_create=could_create,
        policy=policy,
    )


def _create() -> requests.PreparedRequest:
    url = f"http://127.0.0.1:1/v2/{DEV_PROJECT_ID}/training-jobs"
    return requests.Request("POST", url, json={"kind": "job"}).prepare()


def test_an_uncapped_target_has_no_create_body_placed_by_the_guard() -> None:
    placed: list[Any] = []
    guard = _guard(GuardPolicy(live=False), placed)
    guard(_create())
    assert placed == []


def test_a_capped_target_still_counts_the_creates_it_could_accept() -> None:
    placed: list[Any] = []
    guard = _guard(GuardPolicy(live=True, max_creates=1), placed)
    guard(_create())
    with pytest.raises(CreateCapReached, match="--max-creates 1 reached"):
        guard(_create())
    assert placed == [{"kind": "job"}, {"kind": "job"}]


def test_an_answer_that_says_nothing_of_the_body_has_it_not_placed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from modelarts_kit_contracts.core.envelopes import Envelopes
    from modelarts_kit_contracts.server.api_map import ApiMap
    from modelarts_kit_contracts.server.choices import choices_made

    placed: list[Any] = []
    monkeypatch.setattr(Envelopes, "place", lambda self, op, body: placed.append(body))
    api = ApiMap.from_spec()
    create = api.create.operation_id
    for status in (401, 404, 429, 500):
        assert choices_made(api, create, {"kind": "job", "unknown": 1}, status) == ()
    assert placed == []


def test_the_setup_is_kept_out_of_full_collections_during_the_block_only() -> None:
    import gc

    with collector.frozen() as freeze_more:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        made: list[list[int]] = [[]]  # a container made in the block, kept alive
        freeze_more()
        assert gc.get_freeze_count() > frozen, made
    assert gc.get_freeze_count() == 0


def test_a_process_that_froze_its_own_objects_keeps_them_frozen() -> None:
    import gc

    gc.freeze()
    try:
        own = gc.get_freeze_count()
        with collector.frozen() as freeze_more:
            assert gc.get_freeze_count() == own
            made: list[list[int]] = [[]]
            freeze_more()
            assert gc.get_freeze_count() == own, made  # the process's own freezes only
        assert gc.get_freeze_count() == own  # not unfrozen by the run
    finally:
        gc.unfreeze()


def test_full_collections_are_rarer_during_the_phases_only() -> None:
    import gc

    assert gc.get_threshold() == collector.PYTHON_THRESHOLDS
    with collector.full_passes_rarer():
        assert gc.get_threshold()[2] == collector.PHASES_OLDEST_THRESHOLD
    assert gc.get_threshold() == collector.PYTHON_THRESHOLDS


def test_a_process_that_set_its_own_thresholds_keeps_them() -> None:
    import gc

    own = (1000, 20, 30)
    gc.set_threshold(*own)
    try:
        with collector.full_passes_rarer():
            assert gc.get_threshold() == own
        assert gc.get_threshold() == own
    finally:
        gc.set_threshold(*collector.PYTHON_THRESHOLDS)
