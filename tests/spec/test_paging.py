"""``x-modelarts-paging``: read once (``spec.meaning.paging``), every quote standing in its
page (``spec validate``, rule ``paging``), inconsistencies refused, changes compared by
``spec diff``."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from modelarts_kit_spec import SPEC_PATH, load_spec, parse_spec
from modelarts_kit_spec.diff import diff_documents
from modelarts_kit_spec.ledger import read_ledger
from modelarts_kit_spec.meaning import Role, meaning_problems
from modelarts_kit_spec.paging import OffsetCounts, TotalCounts
from modelarts_kit_spec.validate import validate_document

LIST_PAGE = "family/querying_a_training_job_list_2024-11.rst"


def _paging(document: Any, role: Role) -> Any:
    operation = load_spec().meaning.roles.get(role)
    assert operation is not None
    return document["paths"][operation.path][operation.method]["x-modelarts-paging"]


def test_the_curated_spec_pages_as_its_pages_say() -> None:
    spec = load_spec()
    listing = spec.meaning.paging.of("ListTrainingJobs")
    events = spec.meaning.paging.of("ListTrainingJobEvents")
    assert listing is not None
    assert events is not None
    assert (listing.location, listing.items, listing.offset.counts) == (
        "body",
        "items",
        OffsetCounts.PAGES,
    )
    assert (listing.limit.minimum, listing.limit.maximum, listing.limit.default) == (1, 50, None)
    assert listing.total is not None
    assert listing.total.counts is TotalCounts.ALL
    assert listing.matching is not None
    assert listing.matching.field == "count"
    assert listing.order is not None
    assert (listing.order.key, listing.order.direction) == (
        "create_time",
        "desc",
    )
    assert (events.location, events.items, events.offset.counts) == (
        "query",
        "events",
        OffsetCounts.ITEMS,
    )
    assert (events.limit.maximum, events.limit.default) == (100, 50)
    assert events.order is not None
    assert events.order.direction is None
    assert listing.offset.first_entry(3, 10) == 30
    assert events.offset.first_entry(3, 10) == 3
    assert all(q.page.startswith("family/") for q in (*listing.quotes, *events.quotes))


def test_a_quote_taken_out_of_its_page_fails_validate_naming_it() -> None:
    document = copy.deepcopy(load_spec().document)
    offset = _paging(document, Role.LIST)["offset"]
    offset["evidence"][0]["quote"] = "Number of records to skip before the first job."
    findings = validate_document(document, path=SPEC_PATH, ledger=read_ledger())
    paging = [f for f in findings if f.rule == "paging"]
    assert len(paging) == 1, findings
    assert "Number of records to skip before the first job." in paging[0].message
    assert LIST_PAGE in paging[0].message
    assert paging[0].pointer.endswith("/x-modelarts-paging")


@pytest.mark.parametrize(
    ("part", "key", "value", "words"),
    [
        ("offset", "counts", "rows", "counts must be items or pages"),
        ("limit", "maximum", 40, "disagrees with the schema's 50"),
        ("offset", "field", "start", "is not a field of the request"),
        ("offset", "evidence", [], "evidence must list"),
    ],
)
def test_an_inconsistent_paging_is_a_meaning_problem(
    part: str, key: str, value: Any, words: str
) -> None:
    document = copy.deepcopy(load_spec().document)
    _paging(document, Role.LIST)[part][key] = value
    problems = meaning_problems(parse_spec(document, SPEC_PATH))
    assert any(words in p.message for p in problems), problems


def test_spec_diff_compares_the_paging() -> None:
    old = load_spec().document
    new = copy.deepcopy(old)
    paging = _paging(new, Role.LIST)
    paging["offset"]["counts"] = "items"
    paging["order"]["direction"] = "asc"
    paging["count"]["counts"] = "all"
    _paging(new, Role.EVENTS)["limit"]["default"] = 20
    rules = sorted((c.rule, c.operation) for c in diff_documents(old, new))
    assert rules == [
        ("paging-count-changed", "ListTrainingJobs"),
        ("paging-default-changed", "ListTrainingJobEvents"),
        ("paging-offset-changed", "ListTrainingJobs"),
        ("paging-order-changed", "ListTrainingJobs"),
    ]
    assert diff_documents(old, copy.deepcopy(old)) == []
