"""The page quotes the scenarios of the nine further operations stand on (issue 32).

Paging rules are the spec's (``x-modelarts-paging``, read through ``spec.meaning.paging``).
The rules below are behaviours a page states in prose and no schema holds (a filter's
operator, a flavor filter, a description's length, what an answer carries, an unknown job);
each is the page's own words, where they stand (``tests/contracts/test_scenario_quotes.py``
holds every one to its page under ``spec/sources``).
"""

from __future__ import annotations

from modelarts_kit_spec.quotes import Quote

__all__ = [
    "DESCRIPTION_LENGTH",
    "FILTERS",
    "FILTER_OPERATORS",
    "FLAVOR_TYPE",
    "JOB_NOT_FOUND",
    "LOGS_CONTENT",
    "LOGS_URL",
    "METRICS_VALUE",
    "QUOTES",
    "cite",
]

LIST_PAGE = "family/querying_a_training_job_list_2024-11.rst"
FLAVORS_PAGE = "family/obtaining_the_general_specifications_supported_by_a_training_job_2024-11.rst"
DESCRIBE_PAGE = "family/modifying_the_description_of_a_training_job_2024-11.rst"
METRICS_PAGE = (
    "family/querying_the_running_metrics_of_a_specified_task_in_a_training_job_2024-11.rst"
)
PREVIEW_PAGE = (
    "family/querying_the_logs_of_a_specified_task_in_a_given_training_job_preview_2024-11.rst"
)
URL_PAGE = "family/querying_the_logs_of_a_specified_task_in_a_training_job_obs_link_2024-11.rst"
ERRORS_PAGE = "reference/error_codes.rst"

FILTERS = Quote(
    LIST_PAGE, "Table 2 Request body parameters, row filters", "Filters for querying jobs."
)
FILTER_OPERATORS = Quote(
    LIST_PAGE,
    "Table 3 filters, row operator",
    "The options are between (range), like (similar), in (included), and not (not).",
)
FLAVOR_TYPE = Quote(
    FLAVORS_PAGE,
    "Table 2 Query Parameters, row flavor_type",
    "If this parameter is not specified, all flavors will be obtained.",
)
DESCRIPTION_LENGTH = Quote(
    DESCRIBE_PAGE,
    "Table 2 Request body parameters, row description",
    "Training job description, which consists of 0 to 256 characters.",
)
METRICS_VALUE = Quote(
    METRICS_PAGE,
    "Table 3 metrics, row value",
    "Value of a running metric. An average value is collected every minute.",
)
LOGS_CONTENT = Quote(PREVIEW_PAGE, "Table 2 Response body parameters, row content", "Log content.")
LOGS_URL = Quote(
    URL_PAGE, "Table 3 Response body parameters, row obs_url", "Temporary OBS URL of logs."
)
JOB_NOT_FOUND = Quote(
    ERRORS_PAGE, "Error Codes, row 400 ModelArts.2775", "Training job (ID: %s) not found."
)

QUOTES = (
    FILTERS,
    FILTER_OPERATORS,
    FLAVOR_TYPE,
    DESCRIPTION_LENGTH,
    METRICS_VALUE,
    LOGS_CONTENT,
    LOGS_URL,
    JOB_NOT_FOUND,
)


def cite(*quotes: Quote, head: str = "") -> str:
    """An evidence line: ``head`` (the spec's pointer and operation), then each quote."""
    cited = "; ".join(q.cite() for q in quotes)
    return f"{head}; {cited}" if head else cited
