"""A path parameter the must-accept envelope refuses makes no case one a server must accept.

Found by `benchmarks/seeds_no_false_positives.py` (seed 0, default budget, the reference server's
strict end): schemathesis drew the job id ``at least one`` for a valid-data case (a constant it
harvests, outside the ids' pattern, which the ledger decided), the strict end refused it, and
``valid_request_accepted`` failed a correct server.
"""

from __future__ import annotations

from types import SimpleNamespace

from modelarts_kit_contracts.core.envelopes import Placement
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_contracts.server.schemathesis_adapter import parameters_placement
from modelarts_kit_server import DEV_PROJECT_ID
from modelarts_kit_spec.meaning import Role

JOB_ID = "3faf5c03-aaa1-4cbe-879d-24b05d997347"


def _case(api: ApiMap, job_id: str) -> SimpleNamespace:
    return SimpleNamespace(
        query={},
        headers={},
        path_parameters={api.project_param: DEV_PROJECT_ID, api.job_param: job_id},
    )


def test_a_job_id_outside_the_pattern_is_no_must_accept_case() -> None:
    api = ApiMap.from_spec()
    describe = api.operation(Role.DESCRIBE).operation_id
    assert parameters_placement(api, describe, _case(api, JOB_ID)) is Placement.MUST_ACCEPT
    placed = parameters_placement(api, describe, _case(api, "at least one"))
    assert placed is not Placement.MUST_ACCEPT


def test_path_parameters_are_placed_by_the_envelopes() -> None:
    api = ApiMap.from_spec()
    show = api.show.operation_id
    path = {api.project_param: DEV_PROJECT_ID, api.job_param: "at least one"}
    assert api.envelopes.place_parameters(show, [], {}, path) is not Placement.MUST_ACCEPT
    assert api.envelopes.place_parameters(show, [], {}) is Placement.MUST_ACCEPT
