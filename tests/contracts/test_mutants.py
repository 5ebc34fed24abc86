"""The mutation suite: the kit passes the correct reference server and kills every mutant.

Runs in-process (ASGI) with a CI-sized budget; the full-budget, real-HTTP kill table is
``benchmarks/mutants_kill_table.py``.
"""

from __future__ import annotations

import re
from contextlib import ExitStack
from unittest import mock

import pytest
from hypothesis import settings
from modelarts_kit_contracts.core.findings import ExitCode, RunReport
from modelarts_kit_contracts.server import run as server_run
from modelarts_kit_contracts.server.checks import SCENARIOS
from modelarts_kit_contracts.server.run import Budget, RunOptions, run_server_contract
from modelarts_kit_contracts.transport_auth import Credentials
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN

from .mutants import LENIENT, MUTANTS, Mutant, mutated_target
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

# ... and of the scenarios, the one that kills it with every assertion of test_mutant_is_killed
# (() for the engine-killed: no scenario; a mutant not listed gets them all). Found by running
# each mutant against each scenario alone, cheapest first; a run of all the scenarios costs
# about 1 s of CPU and 3.5 s of wall time (the events scenarios wait on the job's lifecycle),
# one of them 0.01 to 0.25 s. In CI every mutant gets every scenario. A listed scenario that no
# longer kills its mutant fails the test, locally: re-run the search, or drop the entry.
KILLING_SCENARIOS: dict[str, tuple[str, ...]] = {
    "create_200": ("project_isolation",),
    "terminate_200": ("terminate_lifecycle",),
    "show_201": ("create_then_show",),
    "create_time_string": (),
    "phase_lower_case": ("terminate_lifecycle",),
    "missing_job_id": ("project_isolation",),
    "node_metrics_strings": (),
    "error_without_code": ("invalid_job",),
    "name_unchecked": ("invalid_job",),
    "kind_enum_unchecked": ("invalid_job",),
    "action_type_unchecked": ("unsupported_action",),
    "metadata_required_unchecked": ("invalid_job",),
    "node_count_unchecked": ("invalid_job",),
    "terminate_twice": ("terminate_lifecycle",),
    "terminate_reports_running": ("terminate_lifecycle",),
    "not_persisted": ("deleted_unknown",),
    "another_job": ("project_isolation",),
    "project_leak": ("project_isolation",),
    "no_auth_accepted": ("credentials",),
    "any_token_accepted": ("credentials",),
    "auth_errors_text": ("credentials",),
    "text_plain_success": (),
    "validation_422": ("unknown_task",),
    "unknown_job_404": ("unknown_job",),
    "truncated_json": ("project_isolation",),
    "name_lower_cased": ("create_then_show",),
    "name_truncated": ("create_then_show",),
    "description_trimmed": ("create_then_show",),
    "description_truncated": ("create_then_show",),
    "description_nfc": ("create_then_show",),
    "environment_keys_upper": ("create_then_show",),
    "parameter_values_trimmed": ("create_then_show",),
    "delete_keeps_listed": ("deleted_not_listed",),
    "delete_twice_accepted": ("second_delete",),
    "show_after_delete_200": ("deleted_unknown",),
    "description_not_stored": ("description",),
    "list_pages_overlap": ("list_pages",),
    "list_pages_skip": ("list_pages",),
    "list_ignores_limit": ("list_pages",),
    "created_not_listed": ("created_listed",),
    "events_unordered": ("events_ordered",),
    "events_miss_transition": ("events_transitions",),
    "unknown_task_answered": ("unknown_task",),
    "list_filters_ignored": ("list_filters",),
    "list_ascending_by_default": ("list_order",),
    "list_shows_other_projects": ("list_isolation",),
    "events_ignore_limit": ("events_paging",),
    "events_offset_counts_pages": ("events_paging",),
    "job_operations_any_project": ("job_isolation",),
    "description_cut_not_refused": ("description_limit",),
    "metrics_values_as_text": ("task_outputs",),
    "flavors_filter_ignored": ("flavors_filter",),
}


def kill_phases(mutant: Mutant) -> tuple[str, ...]:
    return CI_PHASES if FULL_RUNS or mutant.name in ENGINE_KILLED else ()


def kill_scenarios(mutant: Mutant) -> tuple[str, ...] | None:
    """The scenarios of the mutant's local run (None: all of them)."""
    return None if FULL_RUNS else KILLING_SCENARIOS.get(mutant.name)


def run_against(
    mutant: Mutant | None,
    seed: int = SEED,
    strictness: str = "lenient",
    phases: tuple[str, ...] = CI_PHASES,
    scenarios: tuple[str, ...] | None = None,
) -> RunReport:
    """A run against the mutant; ``scenarios`` names the scenarios it drives (None: all)."""
    options = RunOptions(
        credentials=Credentials(token=DEV_TOKEN),
        project_id=DEV_PROJECT_ID,
        other_project_id=DEV_PROJECT_ID[::-1],
        budget=Budget(max_examples=CI_MAX_EXAMPLES, seed=seed),
        phases=phases,
        scenarios=scenarios != (),
        final_phase_wait_s=5.0,
    )
    driven = ScenariosDriven()
    with ExitStack() as stack:
        if scenarios:
            assert set(scenarios) <= {s.name for s in SCENARIOS}, scenarios
            chosen = tuple(s for s in SCENARIOS if s.name in scenarios)
            stack.enter_context(mock.patch.object(server_run, "SCENARIOS", chosen))
        target = stack.enter_context(mutated_target(mutant, strictness=strictness))
        report = run_server_contract(target, options, progress=driven)
    if scenarios:
        assert driven.names == list(scenarios), driven.names  # those, and no other
    return report


class ScenariosDriven:
    """A progress sink: the names of the scenarios the run drove to their end."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.in_scenarios = False

    def phase(self, name: str) -> None:
        self.in_scenarios = name == "modelarts scenarios"

    def advance(self, label: str) -> None:
        if self.in_scenarios:
            self.names.append(label)


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


def test_the_killing_scenarios_name_mutants_and_scenarios() -> None:
    assert set(KILLING_SCENARIOS) <= {m.name for m in MUTANTS}
    named = {name for names in KILLING_SCENARIOS.values() for name in names}
    assert named <= {s.name for s in SCENARIOS}
    assert {n for n, names in KILLING_SCENARIOS.items() if not names} == ENGINE_KILLED


def test_every_mutant_of_the_optional_operations_names_its_killer() -> None:
    assert set(KILLED_BY) == {name for name, *_ in (*FAMILY_MUTANTS, *POWER_MUTANTS)}


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_mutant_is_killed(mutant: Mutant) -> None:
    phases, scenarios = kill_phases(mutant), kill_scenarios(mutant)
    report = run_against(mutant, phases=phases, scenarios=scenarios)
    assert_killed(mutant, report, f"phases {phases or 'none'}, scenarios {scenarios or 'all'}")


def assert_killed(mutant: Mutant, report: RunReport, run: str) -> None:
    assert report.errors == []
    assert report.exit_code is ExitCode.CONTRACT_VIOLATION, (
        f"{mutant.name} survived ({run}): {mutant.fault}"
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
