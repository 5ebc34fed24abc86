"""The mutation suite: the kit passes the correct reference server and kills every mutant.

Runs in-process (ASGI) with a CI-sized budget; the full-budget, real-HTTP kill table is
``benchmarks/mutants_kill_table.py``.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import settings
from modelarts_kit_contracts.core.findings import ExitCode, RunReport
from modelarts_kit_contracts.server.run import Budget, RunOptions, ServerTarget, run_server_contract
from modelarts_kit_contracts.transport_auth import Credentials
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN

from .mutants import LENIENT, MUTANTS, Mutant, mutated_app
from .mutants_optional_operations import FAMILY_MUTANTS
from .mutants_optional_scenarios import POWER_MUTANTS

# CI-sized: the coverage phase (about a thousand requests) is left to the benchmark.
CI_PHASES = ("examples", "fuzzing", "stateful")
CI_MAX_EXAMPLES = 3
SEED = 20261121


# A few seeds in CI (the hypothesis profile of tests/conftest.py says which run this is), one
# locally; benchmarks/mutants_kill_table.py --seeds tries at least twenty.
CI_SEEDS = (SEED, 1, 2) if settings().max_examples >= 100 else (SEED,)

# Locally, a mutant is run with the smallest run that kills it: the scenarios alone (every run
# has them; a fifth of a run with the engine's phases), except the mutants only the engine's
# phases kill. In CI every mutant gets every phase, as the correct servers always do.
ENGINE_KILLED = frozenset({"create_time_string", "node_metrics_strings", "text_plain_success"})
FULL_RUNS = settings().max_examples >= 100


def kill_phases(mutant: Mutant) -> tuple[str, ...]:
    return CI_PHASES if FULL_RUNS or mutant.name in ENGINE_KILLED else ()


def run_against(
    mutant: Mutant | None,
    seed: int = SEED,
    strictness: str = "lenient",
    phases: tuple[str, ...] = CI_PHASES,
) -> RunReport:
    options = RunOptions(
        credentials=Credentials(token=DEV_TOKEN),
        project_id=DEV_PROJECT_ID,
        other_project_id=DEV_PROJECT_ID[::-1],
        budget=Budget(max_examples=CI_MAX_EXAMPLES, seed=seed),
        phases=phases,
        final_phase_wait_s=5.0,
    )
    with mutated_app(mutant, strictness=strictness) as app:
        return run_server_contract(ServerTarget.asgi(app), options)


def test_at_least_twenty_independent_mutants() -> None:
    names = [m.name for m in MUTANTS]
    assert len(names) >= 20
    assert len(set(names)) == len(names)


@pytest.mark.parametrize(
    ("variant", "strictness"),
    [(None, "lenient"), (None, "strict"), (LENIENT, "lenient")],
    ids=["reference", "reference-strict", "lenient"],
)
@pytest.mark.parametrize("seed", CI_SEEDS)
def test_correct_servers_pass_without_false_positives(
    variant: Mutant | None, strictness: str, seed: int
) -> None:
    """The reference server at both ends (``--strictness lenient`` and ``strict``) and a
    correct but lenient variant (it ignores unknown fields and accepts both members of a
    choose-one pair, rules the spec states as guidance) pass."""
    report = run_against(variant, seed, strictness)
    assert report.errors == []
    assert report.failures == [], [f"{f.check}: {f.title}" for f in report.failures]
    assert report.exit_code is ExitCode.PASSED
    assert sum(t.passed for t in report.tallies.values()) > 100


# The mutants of the optional operations (issue 26): the check each new scenario kills it
# with, and the vendor page its evidence names.
LIST_PAGE = "page family/querying_a_training_job_list_2024-11.rst"
DELETE_PAGE = "page family/deleting_a_training_job_2024-11.rst"
EVENTS_PAGE = "page family/obtaining_the_events_of_a_training_job_2025-08.rst"
KILLED_BY = {
    "delete_keeps_listed": ("deleted_job_not_listed", DELETE_PAGE),
    "delete_twice_accepted": ("second_delete_rejected", DELETE_PAGE),
    "show_after_delete_200": ("deleted_job_unknown", DELETE_PAGE),
    "description_not_stored": (
        "description_visible",
        "page family/modifying_the_description_of_a_training_job_2024-11.rst",
    ),
    "list_pages_overlap": ("list_pages_consistent", LIST_PAGE),
    "list_pages_skip": ("list_pages_consistent", LIST_PAGE),
    "list_ignores_limit": ("list_pages_consistent", LIST_PAGE),
    "created_not_listed": ("created_job_listed", LIST_PAGE),
    "events_unordered": ("events_ordered", EVENTS_PAGE),
    "events_miss_transition": ("events_include_transitions", EVENTS_PAGE),
    "unknown_task_answered": (
        "unknown_task_refused",
        "page family/querying_the_logs_of_a_specified_task_in_a_given_training_job_preview",
    ),
}


# The mutants of issue 32: the scenario that kills each, and the page its evidence quotes.
FLAVORS_PAGE = "page family/obtaining_the_general_specifications_supported_by_a_training_job"
POWER_KILLED_BY = {
    "list_filters_ignored": ("list_filters_honoured", LIST_PAGE),
    "list_ascending_by_default": ("list_default_order", LIST_PAGE),
    "list_shows_other_projects": ("list_isolated", LIST_PAGE),
    "events_ignore_limit": ("events_paging_honoured", EVENTS_PAGE),
    "events_offset_counts_pages": ("events_paging_honoured", EVENTS_PAGE),
    "job_operations_any_project": ("job_operations_isolated", "page reference/error_codes.rst"),
    "description_cut_not_refused": (
        "description_limit_enforced",
        "page family/modifying_the_description_of_a_training_job_2024-11.rst",
    ),
    "metrics_values_as_text": (
        "task_outputs_conform",
        "page family/querying_the_running_metrics_of_a_specified_task_in_a_training_job",
    ),
    "flavors_filter_ignored": ("flavors_filter_honoured", FLAVORS_PAGE),
}
KILLED_BY.update(POWER_KILLED_BY)


# Mutants whose one fault shows at several places of one operation: one group, its count.
CREATE = "POST /v2/{project_id}/training-jobs"
GROUPED = {"error_without_code": ("invalid_job_rejected", CREATE)}
# Mutants of an answer's shape: the check that kills each, and the page its evidence quotes.
RESPONSE_KILLED_BY = {"error_without_code": ("vendor_error_body", "reference/response.rst")}
# Mutants killed by a sequence (create, terminate, show): the methods its curl lines send.
SEQUENCES = {"terminate_ignored": ("terminate_takes_effect", ("POST", "POST", "GET"))}


QUOTED = re.compile(r"(?:seeds|family|reference)/[^\s,;:]+[^\n]*?: \"[^\"]+\"|ledger entr")


def quotes_a_page(evidence: str) -> bool:
    """A page with a locator and its own words in quotes, or a ledger entry by name."""
    return QUOTED.search(evidence) is not None


def test_quoting_evidence_is_told_from_a_pointer_alone() -> None:
    quoted = (
        "enum at /components/schemas/Job/properties/kind (documented): seeds/004_1.txt, "
        'Request Parameters, row kind: "The default value is job"'
    )
    assert quotes_a_page(quoted)
    assert quotes_a_page("presence at /x (sdk): vendor SDK 3.1.219; ledger entry sdk-added-x")
    assert not quotes_a_page("spec /paths/~1v2~1{project_id}~1training-jobs/post")
    assert not quotes_a_page("page family/deleting_a_training_job_2024-11.rst")


def test_the_engine_killed_mutants_are_mutants() -> None:
    assert ENGINE_KILLED.issubset(m.name for m in MUTANTS)


def test_every_mutant_of_the_optional_operations_names_its_killer() -> None:
    assert set(KILLED_BY) == {name for name, *_ in (*FAMILY_MUTANTS, *POWER_MUTANTS)}


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_is_killed(mutant: Mutant) -> None:
    phases = kill_phases(mutant)
    report = run_against(mutant, phases=phases)
    assert report.errors == []
    assert report.exit_code is ExitCode.CONTRACT_VIOLATION, (
        f"{mutant.name} survived (phases {phases or 'none: the scenarios alone'}): {mutant.fault}"
    )
    assert all(f.title and f.message.startswith("expected") for f in report.failures)
    # Every verdict cites where its rule comes from (issue 23).
    assert all(f.evidence for f in report.failures), [
        f"{f.check}: {f.title}" for f in report.failures if not f.evidence
    ]
    # The kill quotes a page (page, locator, the page's words) or names the ledger entry,
    # never a spec pointer alone (issue 31 item 9).
    assert any(quotes_a_page(f.evidence) for f in report.failures), [
        f.evidence for f in report.failures
    ]
    # One fault, one failure per rule and operation, with the cases it stands for.
    groups = report.failure_groups()
    assert len({g.group for g in groups}) == len(groups)
    assert sum(g.cases for g in groups) >= len(groups)
    if mutant.name in GROUPED:
        check, operation = GROUPED[mutant.name]
        (group,) = [g for g in groups if g.group == (check, operation)]
        found = [f for f in report.failures if f.group == (check, operation)]
        assert len(found) > 1, "the fault no longer shows at several places"
        assert group.cases >= len(found)
    if mutant.name in SEQUENCES:
        # A stateful failure reproduces with every request of its sequence, in order.
        check, methods = SEQUENCES[mutant.name]
        (killer,) = [g for g in groups if g.check == check]
        sent = [
            line.split()[2] for line in killer.reproduce.splitlines() if line.startswith("curl")
        ]
        assert sent == list(methods), killer.reproduce
    if mutant.name in RESPONSE_KILLED_BY:
        check, page = RESPONSE_KILLED_BY[mutant.name]
        killers = [f for f in report.failures if f.check == check]
        assert any(page in f.evidence and quotes_a_page(f.evidence) for f in killers), [
            f.evidence for f in killers
        ]
    if mutant.name in KILLED_BY:
        check, page = KILLED_BY[mutant.name]
        killers = [f for f in report.failures if f.check == check]
        assert killers, [f"{f.check}: {f.title}" for f in report.failures]
        # Each names a vendor page of the operation it is about; one the page of the rule.
        assert all("page family/" in f.evidence for f in killers), [f.evidence for f in killers]
        assert any(page in f.evidence for f in killers), [f.evidence for f in killers]
    if mutant.name in POWER_KILLED_BY:
        # ... and quotes it: the page, where on it, and its words.
        check, page = POWER_KILLED_BY[mutant.name]
        killers = [f for f in report.failures if f.check == check]
        assert all(QUOTED.search(f.evidence) for f in killers), [f.evidence for f in killers]
        assert any(re.search(re.escape(page) + r'[\w./-]*, [^:"]+: "', f.evidence) for f in killers)
