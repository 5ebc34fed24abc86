"""The three forms of documented values the vendor writes besides plain bullet lists, read in
every page format (web text, reStructuredText, pipe tables; English and Chinese): a bold
paragraph introducing a value, "If **x** is specified" bullets, and inline "The value can be:
A: ..., B: ..." lists. Each case edits a seed page the way a later revision words the field."""

from __future__ import annotations

import pytest
from modelarts_kit_vendordocs import extract_text

from .support import SEED_000, SEED_001, SEED_002, SEED_003, SEED_004, edit, seed_text

_KIND_000 = "Training job type, which is job by default. Options:\n\n  • job: training job\n"
_KIND_002 = "-  **autosearch_job**: Auto search job"
_MODE_000 = (
    "  • max: A larger metric value is preferred.\n\n"
    "  • min: A smaller metric value is preferred.\n"
)
_MODE_001 = "  • max 指定时表示指标值越大越好;\n\n  • min 指定时表示指标值越小越好。\n"
_MODE_002_MAX = "-  **max**: A larger metric value indicates better performance.  |"
_MODE_002_MIN = "-  **min**: A smaller metric value indicates better performance. |"
_POLICY_002 = "Resource flavor of a training job. Options: **regular**                 |"


def same_width(old: str, new: str) -> tuple[str, str]:
    """An edit inside a grid-table cell: the new text padded to the old width."""
    assert len(new) <= len(old), f"{new!r} is wider than the cell"
    tail = "|" if old.endswith("|") else ""
    body = new.removesuffix("|").rstrip()
    return old, body.ljust(len(old) - len(tail)) + tail


CASES = [
    # A bold paragraph: the value stands on its own below the introduction.
    (
        "bold paragraph, web text",
        SEED_000,
        [
            (
                _KIND_000,
                "Training job type, which is job by default.\n\n"
                "visualization_job: visualization job\n",
            )
        ],
        "kind",
        ["job", "visualization_job"],
    ),
    (
        "bold paragraph below a list, web text",
        SEED_000,
        [(_KIND_000, _KIND_000 + "\nvisualization_job: visualization job\n")],
        "kind",
        ["job", "visualization_job"],
    ),
    (
        "bold paragraph, Chinese web text",
        SEED_001,
        [("  • edge_job 边缘作业。\n", "  • edge_job 边缘作业。\n\nvisualization_job: 可视化\n")],
        "kind",
        ["job", "hetero_job", "autosearch_job", "mrs_job", "edge_job", "visualization_job"],
    ),
    (
        "bold paragraph, reStructuredText",
        SEED_002,
        [same_width(_KIND_002, "**visualization_job**: Vis. job")],
        "kind",
        # edge_job: the region-tagged item after mrs_job ("[- **edge_job**: ...] (tag:...)")
        ["job", "hetero_job", "mrs_job", "edge_job", "visualization_job"],
    ),
    (
        "bold paragraph, pipe",
        SEED_004,
        [
            (
                "Training job type, which is job by default. Options:\n|",
                "Training job type, which is **job** by default.\n"
                "**visualization_job**: visualization job |",
            )
        ],
        "kind",
        ["job", "visualization_job"],
    ),
    # "If **x** is specified" bullets.
    (
        "if-specified bullets, web text",
        SEED_003,
        [
            (
                _MODE_000,
                "  • If max is specified, a larger metric value is preferred.\n\n"
                "  • If min is specified, a smaller metric value is preferred.\n",
            )
        ],
        "algorithm.policies.auto_search.reward_attrs[].mode",
        ["max", "min"],
    ),
    (
        "if-specified bullets, Chinese web text",
        SEED_001,
        [(_MODE_001, "  • 指定为max时表示指标值越大越好;\n\n  • 指定为min时表示越小越好。\n")],
        "algorithm.policies.auto_search.reward_attrs[].mode",
        ["max", "min"],
    ),
    (
        "if-specified bullets, reStructuredText",
        SEED_002,
        [
            same_width(_MODE_002_MAX, "-  If **max** is specified, a larger value is better."),
            same_width(_MODE_002_MIN, "-  If **min** is specified, a smaller value is better."),
        ],
        "algorithm.policies.auto_search.reward_attrs[].mode",
        ["max", "min"],
    ),
    (
        "if-specified bullets, pipe",
        SEED_004,
        [
            (
                "mode |\nString |\nSearch mode.\n|",
                "mode |\nString |\nSearch mode.\n- If **max** is specified, larger is better.\n"
                "- If **min** is specified, smaller is better. |",
            )
        ],
        "algorithm.policies.auto_search.reward_attrs[].mode",
        ["max", "min"],
    ),
    # Inline "The value can be: A: ..., B: ..." lists, glosses with commas in them.
    (
        "inline value-led list, web text",
        SEED_000,
        [
            (
                "The value can be regular, indicating the standard mode.",
                "The value can be: regular: the standard mode, which is the default, "
                "detached: the detached mode.",
            )
        ],
        "spec.resource.policy",
        ["regular", "detached"],
    ),
    (
        "inline value-led list, Chinese web text",
        SEED_001,
        [
            (
                "训练作业资源规格模式,可选值如下: “regular”。",
                "训练作业资源规格模式,取值可以为: regular: 标准模式,默认, detached: 分离模式。",
            )
        ],
        "spec.resource.policy",
        ["regular", "detached"],
    ),
    (
        "inline value-led list, reStructuredText",
        SEED_002,
        [
            same_width(
                _POLICY_002, "The value can be: **regular**: standard, **detached**: detached."
            )
        ],
        "spec.resource.policy",
        ["regular", "detached"],
    ),
    (
        "inline value-led list, pipe",
        SEED_004,
        [
            (
                "Resource flavor mode of a training job. The value is regular. |",
                "Resource flavor mode. The value can be: **regular**: standard, the default, "
                "**detached**: detached mode. |",
            )
        ],
        "spec.resource.policy",
        ["regular", "detached"],
    ),
]


@pytest.mark.parametrize(
    ("seed", "edits", "path", "values"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_documented_values_in_every_form_and_format(
    seed: str, edits: list[tuple[str, str]], path: str, values: list[str]
) -> None:
    text = seed_text(seed)
    for old, new in edits:
        text = edit(text, old, new)
    inventory = extract_text(f"edited-{seed}", text)
    found = [e.field for e in inventory.fields if e.path == path and e.side == "response"]
    # The Chinese terminate page does not print the table above reward_attrs: its rows are
    # read all the same, in a table no field points to.
    *_, parent, name = ["", *path.replace("[]", "").split(".")]
    unattached = [f for t in inventory.unattached if t.name == parent for f in t.fields]
    found += [f for f in unattached if f.name == name]
    assert found, f"{path} is not on the edited page"
    assert found[-1].enum == values


@pytest.mark.parametrize(
    "description",
    [
        "Number of nodes.\nMinimum: 1",
        "Engine version. If engine_id is specified, leave this parameter blank.",
        "Training job type. The default value is job, indicating a training job.",
        "Training job type.\nNote: the type cannot be changed.",
    ],
)
def test_prose_that_resembles_the_forms_lists_no_values(description: str) -> None:
    from modelarts_kit_vendordocs.enums import extract_enum
    from modelarts_kit_vendordocs.types import parse_type

    assert extract_enum(description, parse_type("String")) == []
