"""Evidence is a quote (issue 31): every documented or guidance rule quotes its page, and
`spec validate` checks each quote against the recorded page as the page reader reads it."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_spec import load_spec, read_ledger
from modelarts_kit_spec.pagetext import page_words, stands_in
from modelarts_kit_spec.paths import LEDGER_PATH, SOURCES_DIR, SPEC_PATH
from modelarts_kit_spec.schemamodel.derive import derive
from modelarts_kit_spec.schemamodel.page_evidence import unquoted_rules
from modelarts_kit_spec.schemamodel.rules import QUOTED, Strength

from tests.yaml_files import dump_yaml

JSON = Any
NAME = "/components/schemas/JobMetadata/properties/name"
CREATE_PAGE = "seeds/004_126c216e710dc1ec.txt"
NAME_RULE = "The value must contain 1 to 64 characters consisting of only digits, letters"
FLAVOR_TYPE = "/paths/~1v2~1{project_id}~1training-job-flavors/get/parameters/0/schema"


def test_every_documented_or_guidance_rule_of_the_curated_spec_quotes_its_page() -> None:
    model = load_spec().schema_model
    quoted = [rule for rule in model.listed if rule.strength in QUOTED]
    assert quoted
    assert [rule.cite() for rule in quoted if not rule.quotes] == []
    assert list(unquoted_rules(load_spec().document, SOURCES_DIR)) == []


def test_a_quote_taken_out_of_its_page_fails_naming_the_rule_the_page_and_the_quote(
    tmp_path: Path,
) -> None:
    sources = tmp_path / "sources"
    shutil.copytree(SOURCES_DIR, sources)
    page = sources / CREATE_PAGE
    text = page.read_text(encoding="utf-8")
    assert NAME_RULE in text
    page.write_text(text.replace(NAME_RULE, "The value is any text"), encoding="utf-8")
    found = list(unquoted_rules(load_spec().document, sources))
    named = {(rule.pointer, rule.keyword) for rule, _, _ in found}
    assert (NAME, "pattern") in named
    assert (NAME, "maxLength") in named
    _rule, quote, problem = next(
        f for f in found if (f[0].pointer, f[0].keyword) == (NAME, "pattern")
    )
    assert quote is not None
    assert quote.page == CREATE_PAGE
    assert CREATE_PAGE in problem
    assert NAME_RULE in problem
    # Every other quote still stands: only the rules of the changed words are named.
    assert all(q is not None and q.page == CREATE_PAGE for _, q, _ in found)


def _quote_problem_validate_names(document: JSON, tmp_path: Path) -> str:
    """``spec validate`` on ``document`` (exit 1 expected): its schema-model-quote line."""
    spec = tmp_path / "openapi.yaml"
    spec.write_text(dump_yaml(document, sort_keys=False, allow_unicode=True), "utf-8")
    shutil.copy(LEDGER_PATH, tmp_path / "ledger.yaml")
    result = CliRunner().invoke(cli, ["spec", "validate", "--spec", str(spec)])
    assert result.exit_code == 1, result.output
    return next(ln for ln in result.output.splitlines() if "schema-model-quote" in ln)


def test_spec_validate_exits_1_naming_a_quote_that_does_not_stand(tmp_path: Path) -> None:
    document = copy.deepcopy(load_spec().document)
    block = document["x-modelarts-schema-model"]["quotes"][NAME]
    block["pattern"] = [f"{CREATE_PAGE} | JobMetadata, row name | only letters, never digits"]
    line = _quote_problem_validate_names(document, tmp_path)
    assert NAME in line
    assert "pattern" in line
    assert CREATE_PAGE in line
    assert "only letters, never digits" in line


def test_the_page_reader_joins_wrapped_grid_cells() -> None:
    grid = """
   +------+----------------------------+
   | name | The value must contain 1   |
   |      | to 64 characters.          |
   +------+----------------------------+
   | kind | **job** by default         |
   +------+----------------------------+
"""
    words = page_words(grid)
    assert stands_in("The value must contain 1 to 64 characters.", words)
    assert stands_in("kind job by default", words)
    assert not stands_in("to 64 characters. kind", page_words("| to 64 |"))


def test_the_type_of_start_time_quotes_only_pages_that_print_an_integer() -> None:
    """The show pages 001 and 002 type status.start_time as String: no evidence of the
    integer the spec has; its type rule quotes the pages that print Long."""
    rule = load_spec().schema_model.rule_at(
        "/components/schemas/Status/properties/start_time", "type"
    )
    assert rule.strength is Strength.DOCUMENTED
    assert rule.quotes
    assert all(q.quote.endswith("Long") for q in rule.quotes)
    assert not any(q.page.startswith(("seeds/001", "seeds/002")) for q in rule.quotes)


def test_the_request_node_count_minimum_is_a_decision_not_the_create_page() -> None:
    model = load_spec().schema_model
    for holder in ("SpecResource", "TaskResource"):
        rule = model.rule_at(f"/components/schemas/{holder}/properties/node_count", "minimum")
        assert rule.strength is Strength.DECISION, rule.cite()
        assert not rule.quotes
        assert rule.ledger
        assert "ledger entry" in rule.cite()
        assert CREATE_PAGE not in rule.cite()


def test_the_derivation_is_a_library_function_of_document_ledger_and_pages() -> None:
    """docs update calls it on staged texts: a staged page wins over the recorded file."""
    document = load_spec().document
    derived = derive(document, read_ledger())
    assert derived.problems == ()
    assert derived.extension == document["x-modelarts-schema-model"]
    staged = (SOURCES_DIR / CREATE_PAGE).read_text(encoding="utf-8").replace(NAME_RULE, "Any.")
    changed = derive(document, read_ledger(), pages={CREATE_PAGE: staged})
    assert "pattern" not in changed.extension["quotes"][NAME]
    assert changed.extension["rules"] != derived.extension["rules"] or changed.problems


def test_enum_values_have_strengths_of_their_own() -> None:
    model = load_spec().schema_model
    strengths = {rule.value: rule.strength for rule in model.value_rules(FLAVOR_TYPE)}
    assert strengths == {
        "CPU": Strength.DOCUMENTED,
        "GPU": Strength.DOCUMENTED,
        "Ascend": Strength.SDK,
    }
    assert SPEC_PATH.is_file()


def test_a_replaced_page_is_quoted_in_its_new_revision(tmp_path: Path) -> None:
    """docs update: ``replaces`` points the inventories' rows at the new revision."""
    new = "seeds/004_next_revision.txt"
    text = (SOURCES_DIR / CREATE_PAGE).read_text(encoding="utf-8")
    derived = derive(
        load_spec().document,
        read_ledger(),
        pages={new: text.replace(NAME_RULE, "Names have 1 to 64 characters: letters, digits")},
        replaces={CREATE_PAGE: new},
    )
    (pattern,) = derived.extension["quotes"][NAME]["pattern"]
    assert pattern.startswith(f"{new} | JobMetadata, row name | Names have 1 to 64 characters")


def test_spec_validate_holds_a_parameter_rule_s_quote_to_its_page(tmp_path: Path) -> None:
    """The co-occurrence of events' start_time and end_time quotes its page like any rule."""
    document = copy.deepcopy(load_spec().document)
    events = document["paths"]["/v2/{project_id}/training-jobs/{training_job_id}/events"]["get"]
    [together] = events["x-modelarts-parameters"]["together"]
    together["quote"] = "Start time, which may be passed alone"
    line = _quote_problem_validate_names(document, tmp_path)
    assert "parameter rule" in line
    assert together["page"] in line
    assert "may be passed alone" in line
