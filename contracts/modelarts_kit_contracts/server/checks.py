"""The ModelArts checks: every rule of our own, registered in one place.

Two kinds of check report into the same :class:`~modelarts_kit_contracts.core.RunReport`,
both registered in the one check registry (:mod:`modelarts_kit_contracts.core.registry`,
product ``server``):

- **response checks** look at one exchange (request + response). They run on every response
  schemathesis gets (registered as schemathesis custom checks by
  :mod:`~modelarts_kit_contracts.server.schemathesis_adapter`) and on every response of the
  scenarios below.
- **scenario checks** drive a short conversation with the server themselves (create -> show ->
  terminate -> terminate, cross-project reads, requests without credentials) through a
  :class:`Probe`, which the runner gives them.

Every response check is a small named function decorated with ``@check`` returning a
:class:`~modelarts_kit_contracts.core.Finding` (a one-line title and "expected ... / got ..."),
or ``None`` when the rule holds; the outcomes the scenarios record are registered with
``declare``. Titles and meanings live there, once; :data:`SCENARIOS` lists the drivers.

The three operations are the ones the spec's ``x-modelarts-role`` names (:class:`ApiMap`, from
``spec.meaning.roles``); the job id and phase fields, the final and terminable phases and the
accepted error codes come from the spec's meaning too, never from hard-coded paths, component
names, phases or codes.

Each concept has its module: :mod:`.api_map` (``Role``, ``ApiMap``), :mod:`.response_checks`,
:mod:`.probe` (the ``Probe`` protocol), :mod:`.bodies` and :mod:`.breaks` (body synthesis), and
the scenario drivers by property in :mod:`.scenarios` (lifecycle, rejection, access). This
module is the registry's entry: importing it registers every check.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.core import declare
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_contracts.server.bodies import echo_values
from modelarts_kit_contracts.server.probe import Probe, ProbeResponse
from modelarts_kit_contracts.server.response_checks import response_checks
from modelarts_kit_contracts.server.scenarios.access import (
    credentials_required,
    invisible_from_other_project,
)
from modelarts_kit_contracts.server.scenarios.catalogue import flavors_filter_honoured
from modelarts_kit_contracts.server.scenarios.deletion import (
    deleted_job_unknown,
    second_delete_rejected,
)
from modelarts_kit_contracts.server.scenarios.description import (
    description_limit_enforced,
    description_visible,
)
from modelarts_kit_contracts.server.scenarios.events import (
    events_include_transitions,
    events_ordered,
    events_paging_honoured,
)
from modelarts_kit_contracts.server.scenarios.job_isolation import job_operations_isolated
from modelarts_kit_contracts.server.scenarios.lifecycle import (
    create_then_show_returns_sent,
    job_ids_unique,
    terminate_lifecycle,
)
from modelarts_kit_contracts.server.scenarios.list_queries import (
    list_default_order,
    list_filters_honoured,
    list_isolated,
)
from modelarts_kit_contracts.server.scenarios.listing import (
    created_job_listed,
    deleted_job_not_listed,
    list_pages_consistent,
)
from modelarts_kit_contracts.server.scenarios.rejection import (
    guidance_not_enforced,
    invalid_job_rejected,
    unknown_job_documented_error,
    unsupported_action_rejected,
)
from modelarts_kit_contracts.server.scenarios.tasks import (
    task_outputs_conform,
    unknown_task_refused,
)
from modelarts_kit_contracts.server.scenarios.waiting import ScenarioSteps

__all__ = [
    "SCENARIOS",
    "ApiMap",
    "Probe",
    "ProbeResponse",
    "Role",
    "Scenario",
    "echo_values",
    "response_checks",
]


@dataclass(frozen=True)
class Scenario:
    """A scenario driver and the checks it reports. A driver that waits is a generator: it
    yields its waits, and the other scenarios run meanwhile (scenarios/waiting.py)."""

    name: str
    run: Callable[[Probe], ScenarioSteps[None] | None]
    reports: tuple[str, ...] = field(default=())


SCENARIOS: tuple[Scenario, ...] = (
    # First: they wait for the seconds their job's phases need, while the others run.
    Scenario("events_ordered", events_ordered, ("events_ordered",)),
    Scenario("events_transitions", events_include_transitions, ("events_include_transitions",)),
    Scenario("events_paging", events_paging_honoured, ("events_paging_honoured",)),
    Scenario("create_then_show", create_then_show_returns_sent, ("create_then_show_returns_sent",)),
    Scenario("unique_ids", job_ids_unique, ("job_ids_unique",)),
    Scenario(
        "terminate_lifecycle",
        terminate_lifecycle,
        (
            "terminate_accepted_phase",
            "terminate_takes_effect",
            "second_terminate_rejected",
            "final_phase_not_terminable",
        ),
    ),
    Scenario("unknown_job", unknown_job_documented_error, ("unknown_job_documented_error",)),
    Scenario("credentials", credentials_required, ("credentials_required",)),
    Scenario("project_isolation", invisible_from_other_project, ("invisible_from_other_project",)),
    Scenario("invalid_job", invalid_job_rejected, ("invalid_job_rejected",)),
    Scenario("unsupported_action", unsupported_action_rejected, ("unsupported_action_rejected",)),
    Scenario("guidance", guidance_not_enforced, ("guidance_not_enforced",)),
    # The optional operations (issue 26): each is not applicable where the spec lacks its role.
    Scenario("created_listed", created_job_listed, ("created_job_listed",)),
    Scenario("deleted_not_listed", deleted_job_not_listed, ("deleted_job_not_listed",)),
    Scenario("deleted_unknown", deleted_job_unknown, ("deleted_job_unknown",)),
    Scenario("second_delete", second_delete_rejected, ("second_delete_rejected",)),
    Scenario("description", description_visible, ("description_visible",)),
    Scenario("list_pages", list_pages_consistent, ("list_pages_consistent",)),
    Scenario("unknown_task", unknown_task_refused, ("unknown_task_refused",)),
    # The nine further operations checked with power (issue 32): one property each, each
    # failure quoting its page; they share a few jobs the run creates (scenarios/shared.py).
    Scenario("list_filters", list_filters_honoured, ("list_filters_honoured",)),
    Scenario("list_order", list_default_order, ("list_default_order",)),
    Scenario("list_isolation", list_isolated, ("list_isolated",)),
    Scenario("job_isolation", job_operations_isolated, ("job_operations_isolated",)),
    Scenario("description_limit", description_limit_enforced, ("description_limit_enforced",)),
    Scenario("task_outputs", task_outputs_conform, ("task_outputs_conform",)),
    Scenario("flavors_filter", flavors_filter_honoured, ("flavors_filter_honoured",)),
)

# The outcomes the scenarios record (their drivers are above): title and meaning, once.
for _name, _title, _meaning in (
    (
        "create_then_show_returns_sent",
        "create or show does not return exactly what was sent",
        "create and show return exactly what was sent (values drawn over the allowed space: "
        "max/min-length mixed-case names, max-length non-ASCII descriptions, unusual parameter "
        "names and environment keys)",
    ),
    ("job_ids_unique", "two created jobs share an id", "every created job gets a new id"),
    (
        "terminate_takes_effect",
        "an accepted terminate did not terminate the job",
        "after an accepted terminate, show reports the stopping phase or one after it",
    ),
    (
        "second_terminate_rejected",
        "a second terminate of the same job was accepted",
        "terminating a job twice gives a documented not-terminable error (409 ModelArts.2796)",
    ),
    (
        "final_phase_not_terminable",
        "a job in a final phase was terminated",
        "a job in a final phase cannot be terminated (documented not-terminable error)",
    ),
    (
        "unknown_job_documented_error",
        "show/terminate of an unknown job: not the documented error",
        "show/terminate of an unknown job give a documented not-found error (400 ModelArts.2775)",
    ),
    (
        "credentials_required",
        "a request without valid credentials was not refused",
        "requests without or with invalid credentials get 401/403",
    ),
    (
        "invisible_from_other_project",
        "a job is reachable from another project",
        "a job cannot be seen or terminated from another project",
    ),
    (
        "invalid_job_rejected",
        "a create body breaking an enforced constraint was not rejected",
        "a create body breaking one enforced constraint gets a documented invalid-parameter "
        "error (any code the spec lists for it)",
    ),
    (
        "guidance_not_enforced",
        "a body breaking only a guidance rule was judged (never fails)",
        "bodies breaking only rules the spec marks x-modelarts-guidance may be accepted or "
        "refused: the server's choice, reported as an observation, never a failure",
    ),
    (
        "unsupported_action_rejected",
        "an unsupported action_type was not rejected",
        "an action_type outside the enum gets a documented unsupported-action or "
        "invalid-parameter error, and the job keeps running",
    ),
    (
        "created_job_listed",
        "a created job is not listed",
        "a job just created is on the list (list)",
    ),
    (
        "deleted_job_not_listed",
        "a deleted job is still listed",
        "a job whose delete was accepted is no longer on the list (list, delete)",
    ),
    (
        "deleted_job_unknown",
        "a deleted job can still be shown",
        "after an accepted delete, show gives the documented not-found error (delete)",
    ),
    (
        "second_delete_rejected",
        "a second delete of the same job was accepted",
        "deleting a job twice gives the documented not-found error (delete)",
    ),
    (
        "description_visible",
        "a changed description is not what show returns",
        "after an accepted change of description, show returns the new one exactly (describe)",
    ),
    (
        "list_pages_consistent",
        "pages of a list overlap, skip or exceed their limit",
        "walking the list page by page gives each job once, in order, at most limit per page, "
        "offset counting what x-modelarts-paging says (the list page: pages) (list)",
    ),
    (
        "events_ordered",
        "the events of a job are not in time order",
        "a job's events are in time order, one way or the other (the order chosen is observed) "
        "(events)",
    ),
    (
        "events_include_transitions",
        "the events miss a transition the job went through",
        "events that name phases name every phase show saw the job enter (events naming no "
        "phase: an observation) (events)",
    ),
    (
        "list_filters_honoured",
        "a list filter is not honoured",
        "each documented operator on each key of the list page's example: every job listed "
        "meets the filter, and a job of the run that meets it is listed (list)",
    ),
    (
        "list_default_order",
        "the list is not in its default order",
        "without sort_by and order, the list is in the order x-modelarts-paging states "
        "(create_time, descending) (list)",
    ),
    (
        "list_isolated",
        "another project's list shows or counts this project's jobs",
        "another project's list holds none of this project's jobs, and its total and count "
        "do not change when a job is created here (list)",
    ),
    (
        "events_paging_honoured",
        "the events page is not the one its offset and limit name",
        "the events' limit and offset are honoured as x-modelarts-paging says; the order "
        "asked for is observed (the page leaves it open) (events)",
    ),
    (
        "job_operations_isolated",
        "an operation on another project's job was not refused",
        "events, logs, metrics, describe and delete of a job through another project's path "
        "get a 4xx, and the job is untouched (events, logs-preview, logs-url, metrics, "
        "describe, delete)",
    ),
    (
        "description_limit_enforced",
        "a description beyond the page's limit was not refused",
        "a description longer than the page's limit gets a documented error, and the job "
        "keeps its description (describe)",
    ),
    (
        "task_outputs_conform",
        "logs or metrics of a task break their schema",
        "logs preview, logs URL and metrics of a task the job has are answered, each valid "
        "for its success schema (logs-preview, logs-url, metrics)",
    ),
    (
        "flavors_filter_honoured",
        "the flavors filter is not honoured",
        "each documented flavor type answers the flavors of that type, all of them (flavors)",
    ),
    (
        "unknown_task_refused",
        "logs or metrics of an unknown task were not refused",
        "logs preview, logs URL and metrics of a task the job does not have get a documented "
        "error (logs-preview, logs-url, metrics)",
    ),
):
    declare(_name, product="server", title=_title, meaning=_meaning)
