"""``modelarts-kit spec rules``: every rule with its strength and evidence (issue 31 item 2)."""

from __future__ import annotations

import json

import pytest
from modelarts_kit_spec import load_spec
from modelarts_kit_spec.schemamodel.rules import QUOTED

from tests.cli_support import Kit

FLAVOR_TYPE = "/paths/~1v2~1{project_id}~1training-job-flavors/get/parameters/0/schema"
NODE_COUNT = "/components/schemas/SpecResource/properties/node_count"
KEYS = ["pointer", "rule", "value", "strength", "evidence", "ledger"]


def test_json_lists_every_rule_in_the_documented_shape(kit: Kit) -> None:
    result = kit("spec", "rules", "--json")
    assert result.exit_code == 0, result.transcript()
    rules = json.loads(result.stdout)["rules"]
    assert len(rules) == len(load_spec().schema_model.listed)
    assert all(list(rule) == KEYS for rule in rules)
    for rule in rules:
        if rule["strength"] in QUOTED:
            assert rule["evidence"], rule  # a page's words, never a bare pointer
            assert all(list(e) == ["page", "locator", "quote"] for e in rule["evidence"])
        else:
            assert rule["ledger"], rule  # sdk, example, decision: the ledger entry


def test_strength_per_enum_value_and_decisions(kit: Kit) -> None:
    result = kit("spec", "rules", "--json", "--pointer", FLAVOR_TYPE)
    values = {
        r["value"]: r["strength"] for r in json.loads(result.stdout)["rules"] if r["rule"] == "enum"
    }
    assert values == {"CPU": "documented", "GPU": "documented", "Ascend": "sdk"}
    decided = json.loads(kit("spec", "rules", "--json", "--strength", "decision").stdout)["rules"]
    minimum = next(r for r in decided if (r["pointer"], r["rule"]) == (NODE_COUNT, "minimum"))
    assert minimum == {
        "pointer": NODE_COUNT,
        "rule": "minimum",
        "value": 1,
        "strength": "decision",
        "evidence": [],
        "ledger": ["spec-resource-node-count-minimum"],
    }
    assert {r["strength"] for r in decided} == {"decision"}


def test_text_is_one_line_per_rule_and_a_summary(kit: Kit) -> None:
    result = kit("spec", "rules", "--pointer", NODE_COUNT)
    assert result.exit_code == 0, result.transcript()
    *lines, summary = result.stdout.splitlines()
    assert any(
        "minimum at" in ln and "ledger entry spec-resource-node-count-minimum" in ln for ln in lines
    )
    assert any('"node_count Yes Integer"' in ln for ln in lines)
    assert summary.startswith(f"{len(lines)} rule(s)")


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--pointer", "/components/schemas/NoSuchSchema"), "/components/schemas/NoSuchSchema"),
        (("--pointer", "components"), "components"),
        (("--strength", "firm"), "firm"),
    ],
)
def test_an_unknown_pointer_or_strength_is_exit_2_and_one_line(
    kit: Kit, args: tuple[str, ...], named: str
) -> None:
    result = kit("spec", "rules", *args)
    assert result.exit_code == 2, result.transcript()
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ")
    assert named in line
