"""Query and header parameters in the schema model (issue 31 item 5): empty values,
parameters passed together, formats stated in prose; and a default value that closes no list.
"""

from __future__ import annotations

import pytest
from modelarts_kit_spec import load_spec
from modelarts_kit_spec.schemamodel import MUST_ACCEPT, MUST_REJECT
from modelarts_kit_spec.schemamodel.parameters import (
    given_values,
    parameter_breaks,
    together_of,
)

EVENTS = "ListTrainingJobEvents"
PAGE = "family/obtaining_the_events_of_a_training_job_2025-08.rst"


def breaks(envelope: str, query: str, operation: str = EVENTS) -> list[tuple[str, str, str]]:
    spec = load_spec()
    pairs = [tuple(part.partition("=")[::2]) for part in query.split("&") if part]
    given = given_values(pairs, keep_empty=envelope == MUST_ACCEPT)  # type: ignore[arg-type]
    found = parameter_breaks(spec.envelope(envelope), spec.operation(operation), "query", given)
    return [(b.name, b.rule, b.strength) for b in found]


def test_start_and_end_time_are_passed_together_as_the_page_says() -> None:
    spec = load_spec()
    [together] = together_of(spec, spec.operation(EVENTS))
    assert together.names == ("start_time", "end_time")
    assert together.quote.page == PAGE
    text = (spec.path.parents[2] / "spec" / "sources" / PAGE).read_text(encoding="utf-8")
    assert together.quote.quote in text  # the page's own words
    for envelope in (MUST_REJECT, MUST_ACCEPT):
        assert breaks(envelope, "end_time=1669711991259") == [
            ("start_time", "together", "documented")
        ]
        assert breaks(envelope, "start_time=1&end_time=2") == []


@pytest.mark.parametrize(
    ("query", "refused_in_must_accept"),
    [
        ("level=", {"level"}),
        ("level=&pattern=", {"level"}),
        ("source=&order=", {"source", "order"}),
    ],
)
def test_an_empty_value_is_not_given_in_must_reject_and_a_value_in_must_accept(
    query: str, refused_in_must_accept: set[str]
) -> None:
    assert breaks(MUST_REJECT, query) == []
    assert {name for name, _, _ in breaks(MUST_ACCEPT, query)} == refused_in_must_accept


def test_an_empty_filter_lies_between_the_envelopes() -> None:
    assert breaks(MUST_REJECT, "level=") == []
    assert breaks(MUST_ACCEPT, "level=") == [("level", "enum", "documented")]
    assert breaks(MUST_REJECT, "flavor_type=", "ShowTrainingJobFlavors") == []


def test_a_time_in_prose_format_is_guidance() -> None:
    """Type String; the example sends epoch milliseconds: must-accept only."""
    assert breaks(MUST_REJECT, "start_time=yesterday&end_time=today") == []
    assert breaks(MUST_ACCEPT, "start_time=yesterday&end_time=today") == [
        ("start_time", "pattern", "guidance"),
        ("end_time", "pattern", "guidance"),
    ]


def test_int32_bounds_bind_every_reader_of_an_envelope() -> None:
    for envelope in (MUST_REJECT, MUST_ACCEPT):
        assert breaks(envelope, f"offset={2**40}") == [("offset", "maximum", "documented")]


def test_a_default_value_names_a_value_but_closes_no_list() -> None:
    """seeds/004 kind: "The default value is job" (issue 31): the closed enum is a decision."""
    rule = load_spec().schema_model.rule_at("/components/schemas/Job/properties/kind", "enum")
    assert str(rule.strength) == "decision"
