"""``docs compare`` on documented values: what a revision really changed in a field's values,
whatever form the page writes them in, and a spelling fix as one change of its own."""

from __future__ import annotations

from modelarts_kit_vendordocs import extract_text
from modelarts_kit_vendordocs.pagediff import PageChange, compare_pages

from .support import SEED_002, edit, seed_text
from .test_enum_forms import same_width

_KIND = "response 202 kind"
_MODE = "response 202 algorithm.policies.auto_search.reward_attrs.mode"
_PARAM_TYPE = "response 202 algorithm.policies.auto_search.search_params.param_type"


def _value_changes(new_text: str) -> list[PageChange]:
    old = extract_text(SEED_002, seed_text(SEED_002))
    new = extract_text(f"new-{SEED_002}", new_text)
    changes = compare_pages(old, new).changes
    return [c for c in changes if c.kind.startswith("enum-value")]


def test_a_value_introduced_by_a_bold_paragraph_is_added_and_nothing_is_lost() -> None:
    # The revision rewords the list: job becomes the default named in the introduction,
    # autosearch_job makes way for visualization_job, written as a bold paragraph.
    text = seed_text(SEED_002)
    text = edit(
        text,
        *same_width(
            "Training job type, which is **job** by default. Options:" + " " * 46 + "|",
            "Training job type, which is **job** by default.",
        ),
    )
    text = edit(text, *same_width("-  **job**: Training job", ""))
    text = edit(
        text, *same_width("-  **autosearch_job**: Auto search job", "**visualization_job**: Vis.")
    )
    changes = _value_changes(text)
    assert [(c.kind, c.where, c.old, c.new) for c in changes] == [
        ("enum-value-added", _KIND, "", "visualization_job"),
        ("enum-value-removed", _KIND, "autosearch_job", ""),
    ]


def test_if_specified_bullets_keep_their_values() -> None:
    text = seed_text(SEED_002)
    for value, rest in (("max", "larger"), ("min", "smaller")):
        old = next(
            line.split("| ", 3)[-1]
            for line in text.splitlines()
            if f"-  **{value}**: A {rest} metric value" in line
        )
        text = edit(text, *same_width(old, f"-  If **{value}** is specified, {rest} is better."))
    assert [c for c in _value_changes(text) if c.where == _MODE] == []


def test_a_spelling_fix_is_one_change_of_its_own_kind() -> None:
    text = edit(
        seed_text(SEED_002),
        *same_width(
            "-  **discreate**: The parameter is a discrete value.      |",
            "-  **discrete**: The parameter is a discrete value.",
        ),
    )
    changes = [c for c in _value_changes(text) if c.where == _PARAM_TYPE]
    assert [(c.kind, c.old, c.new) for c in changes] == [
        ("enum-value-respelled", "discreate", "discrete")
    ]


def test_different_values_are_not_taken_for_a_spelling_fix() -> None:
    text = edit(
        seed_text(SEED_002),
        *same_width(
            "-  **discreate**: The parameter is a discrete value.      |",
            "-  **categorical**: The parameter is a category.",
        ),
    )
    changes = [c for c in _value_changes(text) if c.where == _PARAM_TYPE]
    assert sorted((c.kind, c.old, c.new) for c in changes) == [
        ("enum-value-added", "", "categorical"),
        ("enum-value-removed", "discreate", ""),
    ]
