"""The typed ledger's matching rules, shared by docs diff and sdk diff (one helper each)."""

from __future__ import annotations

from pathlib import Path

import pytest
from modelarts_kit_sdk.errors import SdkError
from modelarts_kit_sdk.evidence import load_sdk_evidence
from modelarts_kit_spec.ledger import parse_ledger
from modelarts_kit_vendordocs.drift import load_decisions
from modelarts_kit_vendordocs.errors import LedgerError

ENTRY = """\
  - id: {id}
    pointer: /components/schemas/Status/properties/start_time
    field: status.start_time
    side: {side}
    kind: type
    sources:
      - {{seed: 003.txt, table: Status, says: Long}}
      - {{sdk: "3.1.219", model: Status, attribute: start_time, says: int}}
    decision: {decision}
    expect: {{type: integer}}
    reason: the pages and the SDK agree
"""


def ledger_text(*, side: str = "response", decision: str = "integer", id: str = "x") -> str:
    return "entries:\n" + ENTRY.format(id=id, side=side, decision=decision)


def test_each_kind_of_evidence_settles_only_its_own_kind() -> None:
    (entry,) = parse_ledger(_yaml(ledger_text())).entries
    assert [s.says for s in entry.settling("page")] == ["Long"]
    assert [s.says for s in entry.settling("sdk")] == ["int"]
    (todo,) = parse_ledger(_yaml(ledger_text(decision="TODO"))).entries
    assert todo.settling("page") == todo.settling("sdk") == ()
    with pytest.raises(ValueError, match="evidence"):
        entry.settling("blog")


@pytest.mark.parametrize(
    ("text", "located"),
    [
        (ledger_text(side="sideways"), "/entries/0/side (x): side 'sideways'"),
        ("entries:\n  - just a string\n", "/entries/0: entry is not a mapping"),
    ],
)
def test_docs_diff_and_sdk_diff_refuse_a_ledger_with_one_message(
    tmp_path: Path, text: str, located: str
) -> None:
    path = tmp_path / "ledger.yaml"
    path.write_text(text, encoding="utf-8")
    problem = parse_ledger(_yaml(text), path).matching_problem()
    assert problem is not None
    assert problem.startswith(f"{path}: {located}")
    with pytest.raises(LedgerError) as docs:
        load_decisions(path, None)
    with pytest.raises(SdkError) as sdk:
        load_sdk_evidence(path)
    assert str(docs.value) == str(sdk.value) == problem


def test_a_missing_reason_does_not_keep_entries_from_matching(tmp_path: Path) -> None:
    text = ledger_text().replace("    reason: the pages and the SDK agree\n", "")
    assert parse_ledger(_yaml(text)).problems  # spec validate reports it
    assert parse_ledger(_yaml(text)).matching_problem() is None
    path = tmp_path / "ledger.yaml"
    path.write_text(text, encoding="utf-8")
    assert [e.says for e in load_sdk_evidence(path)] == ["int"]
    (decision,) = load_decisions(path, None)
    assert decision.recorded  # the page's "Long", as a comparison key


def _yaml(text: str) -> object:
    import yaml

    return yaml.safe_load(text)


def test_a_client_source_is_neither_page_nor_sdk_evidence() -> None:
    """A real client's traffic (``client``/``version``) is evidence of what the service
    accepts: it settles no page finding and no SDK finding, and reads back as written."""
    from modelarts_kit_spec.ledger import parse_ledger

    ledger = parse_ledger(
        {
            "entries": [
                {
                    "id": "with-client",
                    "pointer": "/components/schemas/X",
                    "field": "x",
                    "side": "request",
                    "kind": "constraint",
                    "operations": ["CreateTrainingJob"],
                    "sources": [
                        {"seed": "page.rst", "table": "Table 1", "says": "Integer"},
                        {"client": "modelarts-macli", "version": "0.2.0", "says": "item offsets"},
                    ],
                    "decision": "d",
                    "reason": "r",
                }
            ]
        }
    )
    (entry,) = ledger.entries
    client = entry.sources[1]
    assert (client.client, client.version, client.label) == (
        "modelarts-macli",
        "0.2.0",
        "modelarts-macli 0.2.0",
    )
    assert [s.seed for s in entry.settling("page")] == ["page.rst"]
    assert entry.settling("sdk") == ()
    assert client.to_json() == {
        "says": "item offsets",
        "client": "modelarts-macli",
        "version": "0.2.0",
    }
