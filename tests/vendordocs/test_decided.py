"""A decided stub reaches the spec: the run after a person decides a ``docs update`` question
applies the decision (the entry's ``expect``) to the spec and ``generated/``, then asks
nothing more about it (issue 33 item 5)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_spec import parse_ledger
from modelarts_kit_spec.load import parse_yaml_text, read_yaml
from modelarts_kit_vendordocs.decided import apply_decisions

from .support import REPO, repository_copy

SPEC = """\
openapi: 3.1.0
info: {title: t, version: 1.0.0}
components:
  schemas:
    Job:
      type: object
      properties:
        description:
          type: string
          maxLength: 256
          description: Job description.
        kind:
          type: string
          anyOf:
            - enum: [job, hetero_job]
            - type: string
          description: Kind.
        meta: {$ref: '#/components/schemas/Meta'}
        tag: {type: string}
    Meta:
      type: object
      # a comment the edit keeps
      properties:
        name: {type: string}
"""


def _entry(pointer: str, expect: dict[str, Any], decision: str = "decided") -> dict[str, Any]:
    return {
        "id": f"e-{len(pointer)}-{len(str(expect))}",
        "pointer": pointer,
        "field": "f",
        "side": "request",
        "kind": "constraint",
        "sources": [{"seed": "p.txt", "table": "t", "says": "x"}],
        "decision": decision,
        "expect": expect,
        "reason": "test",
    }


def _apply(*entries: dict[str, Any]) -> tuple[Any, Any]:
    ledger = parse_ledger({"entries": list(entries)})
    result = apply_decisions(SPEC, ledger.entries, "openapi.yaml")
    return result, parse_yaml_text(result.text, "openapi.yaml")


JOB = "/components/schemas/Job/properties"


@pytest.mark.parametrize(
    ("pointer", "expect", "holds"),
    [
        (f"{JOB}/description", {"maxLength": 512}, ("description", "maxLength", 512)),
        (f"{JOB}/description", {"minLength": 1}, ("description", "minLength", 1)),
        (f"{JOB}/tag", {"maxLength": 64}, ("tag", "maxLength", 64)),  # written inline
        (f"{JOB}/description", {"type": "integer"}, ("description", "type", "integer")),
    ],
)
def test_a_decided_expectation_is_written_at_its_pointer(
    pointer: str, expect: dict[str, Any], holds: tuple[str, str, Any]
) -> None:
    result, document = _apply(_entry(pointer, expect))
    assert result.refused == ()
    assert len(result.applied) == 1
    name, key, value = holds
    assert document["components"]["schemas"]["Job"]["properties"][name][key] == value
    # only the lines that change: the rest of the file is as it was
    changed = set(result.text.splitlines()) - set(SPEC.splitlines())
    assert len(changed) == 1 or name == "tag", changed


def test_an_added_value_joins_the_open_enum_s_first_member() -> None:
    expect = {"anyOf": [{"enum": ["job", "hetero_job", "visualization_job"]}]}
    result, document = _apply(_entry(f"{JOB}/kind", expect))
    assert result.applied
    any_of = document["components"]["schemas"]["Job"]["properties"]["kind"]["anyOf"]
    assert any_of == [{"enum": ["job", "hetero_job", "visualization_job"]}, {"type": "string"}]


def test_a_ref_is_followed_as_spec_validate_reads_expect() -> None:
    result, document = _apply(_entry(f"{JOB}/meta", {"required": ["name"]}))
    assert result.applied
    assert document["components"]["schemas"]["Meta"]["required"] == ["name"]
    assert "$ref" in document["components"]["schemas"]["Job"]["properties"]["meta"]
    assert "# a comment the edit keeps" in result.text


def test_open_held_and_pointless_entries_are_left_alone() -> None:
    result, _ = _apply(
        _entry(f"{JOB}/description", {"maxLength": 512}, decision="TODO"),  # not decided
        _entry(f"{JOB}/description", {"maxLength": 256}),  # holds already
        _entry(f"{JOB}/description", {}),  # decided to keep the spec
    )
    assert (result.applied, result.refused, result.text) == ((), (), SPEC)


# --- end to end, through the CLI --------------------------------------------------------------

DESCRIBE = (
    REPO / "spec" / "sources" / "family" / "modifying_the_description_of_a_training_job_2024-11.rst"
)


def _run(spec: Path, page: Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["docs", "update", str(page), "--spec", str(spec)])
    return result.exit_code, result.output


def _decide(ledger: Path, entry_id: str, expect: str) -> None:
    """Decide the stub ``entry_id`` as a person does: edit its decision, expect and reason."""
    text = ledger.read_text(encoding="utf-8")
    start = text.index(f"- id: {entry_id}\n")
    end = text.find("\n- id: ", start + 1)
    end = len(text) if end < 0 else end
    block = text[start:end]
    block = re.sub(r"decision: TODO", "decision: 'the new limit binds: 512 characters'", block)
    block = re.sub(r"expect: \{\}", f"expect: {expect}", block)
    ledger.write_text(text[:start] + block + text[end:], encoding="utf-8")


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_the_next_docs_update_applies_a_decided_stub_then_asks_nothing(tmp_path: Path) -> None:
    spec = repository_copy(tmp_path / "repo")
    ledger = spec.parent / "ledger.yaml"
    text = DESCRIBE.read_text(encoding="utf-8")
    # Two limits in one sentence: ambiguous, so docs update asks (padded: the grid's width).
    written = "0 to 256 characters. The default value is **NULL**."
    page = tmp_path / "modifying_the_description_of_a_training_job_2026-01.rst"
    page.write_text(
        text.replace(written, "0 to 512 characters (256 shown).".ljust(len(written))),
        encoding="utf-8",
    )
    code, output = _run(spec, page)
    assert code == 1, output
    (stub,) = [e for e in read_yaml(ledger)["entries"] if e["decision"] == "TODO"]
    pointer = stub["pointer"]
    version = read_yaml(spec)["info"]["version"]
    _decide(ledger, stub["id"], "{maxLength: 512}")

    code, output = _run(spec, page)
    assert code == 0, output
    assert f"1 ledger decision(s) applied to the spec: {stub['id']}" in output
    document = read_yaml(spec)
    node = document
    for token in pointer.strip("/").split("/"):
        node = node[token]
    assert node["maxLength"] == 512
    assert document["info"]["version"] != version  # released: bumped, changelog, generated/
    client = spec.parents[2] / "generated" / "modelarts_training_client" / "__init__.py"
    assert f'__version__ = "{document["info"]["version"]}"' in client.read_text(encoding="utf-8")
    # The ledger's rules hold: decided, and what it expects is in the spec. (The rules on
    # quotes read the repository's own spec/sources, which lack this copy's new page.)
    valid = CliRunner().invoke(cli, ["spec", "validate", "--spec", str(spec), "--format", "json"])
    rules = {f["rule"] for f in json.loads(valid.output)["findings"]}
    assert not rules & {"ledger-entry", "ledger-todo", "ledger-pointer", "ledger-expect"}

    before = _tree(spec.parents[2])
    code, output = _run(spec, page)  # decided and applied: nothing more to ask or write
    assert code == 0, output
    assert "ledger decision(s) applied" not in output
    assert _tree(spec.parents[2]) == before
