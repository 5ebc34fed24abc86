"""Every subcommand, given bad arguments, exits 2 with one ``error:`` line on stderr, no traceback.

Three kinds of bad argument, each tried on every command found by walking the command tree:
an unknown option, a value of the wrong type for every typed option (numbers, ranges, choices),
and a missing required argument. Then one bad value per command that only the library can judge
(a missing file, a malformed credential...), which goes through ``KitError``: a command without
such a case fails ``test_every_command_has_a_library_level_case`` until one is added below.
"""

from __future__ import annotations

import click
import pytest
from modelarts_kit_spec import LEDGER_PATH

from tests.cli.commands import ALL_COMMANDS, LEAF_COMMANDS, command_at
from tests.cli_support import REPO, Kit, KitResult

NAME = " ".join


def assert_one_line_usage_error(result: KitResult, *mentions: str) -> None:
    transcript = result.transcript()
    assert result.exit_code == 2, transcript
    assert result.exception is None, transcript
    assert "Traceback" not in result.stdout + result.stderr, transcript
    lines = result.stderr.splitlines()
    assert len(lines) == 1, transcript
    assert lines[0].startswith("error: "), transcript
    for mention in mentions:
        assert mention in lines[0], transcript


@pytest.mark.parametrize("path", LEAF_COMMANDS, ids=NAME)
def test_unknown_option(kit: Kit, path: tuple[str, ...]) -> None:
    result = kit(*path, "--no-such-option")
    assert_one_line_usage_error(result, "--no-such-option", f"modelarts-kit {NAME(path)} --help")
    assert result.stdout == ""


@pytest.mark.parametrize("path", [p for p in ALL_COMMANDS if p not in LEAF_COMMANDS], ids=NAME)
def test_unknown_subcommand(kit: Kit, path: tuple[str, ...]) -> None:
    assert_one_line_usage_error(kit(*path, "no-such-command"), "no-such-command")


_BAD_VALUE = "not-a-valid-value"


def _typed_options(path: tuple[str, ...]) -> list[str]:
    """Options whose value click checks: numbers, ranges and choices."""
    typed = (click.types.IntParamType, click.types.FloatParamType, click.Choice)
    return [
        max(param.opts, key=len)
        for param in command_at(path).params
        if isinstance(param, click.Option) and not param.is_flag and isinstance(param.type, typed)
    ]


TYPED = [(path, option) for path in LEAF_COMMANDS for option in _typed_options(path)]


@pytest.mark.parametrize(("path", "option"), TYPED, ids=[f"{NAME(p)} {o}" for p, o in TYPED])
def test_wrongly_typed_value(kit: Kit, path: tuple[str, ...], option: str) -> None:
    assert_one_line_usage_error(kit(*path, option, _BAD_VALUE), option, _BAD_VALUE)


REQUIRED = [
    path
    for path in LEAF_COMMANDS
    if any(p.required for p in command_at(path).params if not isinstance(p, click.Option))
]


@pytest.mark.parametrize("path", REQUIRED, ids=NAME)
def test_missing_required_argument(kit: Kit, path: tuple[str, ...]) -> None:
    # The line names the missing argument (as --help prints it), in whatever words click uses.
    first = next(p for p in command_at(path).params if p.required and isinstance(p, click.Argument))
    assert_one_line_usage_error(kit(*path), first.human_readable_name)


MISSING = "nope/missing.yaml"

# One bad value per command that the library (not click) refuses; the line must name it.
LIBRARY_CASES: dict[tuple[str, ...], tuple[list[str], str]] = {
    ("spec", "validate"): (["--spec", MISSING], MISSING),
    ("spec", "diff"): ([MISSING, MISSING], MISSING),
    ("spec", "rules"): (["--pointer", "/components/schemas/NoSuchSchema"], "NoSuchSchema"),
    ("docs", "extract"): ([MISSING], MISSING),
    ("docs", "diff"): ([MISSING], MISSING),
    ("docs", "compare"): ([MISSING, MISSING], MISSING),
    ("docs", "update"): ([MISSING], MISSING),
    ("generate",): (["--spec", MISSING, "--out", "{tmp}/out"], MISSING),
    ("publish",): (["--spec", MISSING, "--out", "{tmp}/out"], MISSING),
    ("serve",): (["--token", "two words"], "--token"),
    ("contract", "server"): (["--report", "xml:{tmp}/r.xml"], "xml:"),
    ("contract", "client"): (["--report", "xml:{tmp}/r.xml"], "xml:"),
    ("contract", "mock"): (["--scenario", MISSING], MISSING),
    ("contract", "proxy"): (["--upstream", "ftp://example.invalid"], "ftp://example.invalid"),
    ("sdk", "diff"): (["--wheel", "nope/missing.whl"], "nope/missing.whl"),
    ("sdk", "compare"): (["nope/missing.whl", "installed"], "nope/missing.whl"),
}


def test_every_command_has_a_library_level_case() -> None:
    missing = [NAME(p) for p in LEAF_COMMANDS if p not in LIBRARY_CASES]
    assert not missing, f"add a bad-argument case to LIBRARY_CASES for: {', '.join(missing)}"


@pytest.mark.parametrize("path", sorted(LIBRARY_CASES), ids=NAME)
def test_library_refusal(kit: Kit, path: tuple[str, ...]) -> None:
    arguments, mention = LIBRARY_CASES[path]
    result = kit(*path, *(a.replace("{tmp}", str(kit.tmp)) for a in arguments))
    assert_one_line_usage_error(result, mention)
    assert not (kit.tmp / "out").exists()


# A typo in a folder of an output path is refused; no folder is created (it once created
# /nonexistent/ at the filesystem root).
FOLDER_TYPOS: list[tuple[tuple[str, ...], list[str]]] = [
    (("contract", "server"), ["--report", "json:{tmp}/typo/deeper/r.json", "--dry-run"]),
    (("contract", "client"), ["--report", "junit:{tmp}/typo/deeper/r.xml"]),
    (("contract", "client"), ["--markdown", "{tmp}/typo/deeper/r.md"]),
    (("spec", "diff"), ["{spec}", "{spec}", "--out", "{tmp}/typo/deeper/diff.md"]),
    (("docs", "extract"), ["{page}", "--out", "{tmp}/typo/deeper/fields.json"]),
    (("serve",), ["--db", "{tmp}/typo/deeper/jobs.db", "--port", "0"]),
]


@pytest.mark.parametrize(
    ("path", "arguments"), FOLDER_TYPOS, ids=[NAME(p) for p, _ in FOLDER_TYPOS]
)
def test_an_output_in_a_missing_folder_is_refused(
    kit: Kit, path: tuple[str, ...], arguments: list[str]
) -> None:
    spec = str(LEDGER_PATH.parent / "openapi.yaml")
    page = str(REPO / "spec" / "sources" / "seeds" / "003_268fe6fc14cf50e2.txt")
    words = [a.replace("{tmp}", str(kit.tmp)).replace("{spec}", spec) for a in arguments]
    result = kit(*path, *(w.replace("{page}", page) for w in words))
    assert_one_line_usage_error(result, "<tmp>/typo/deeper", "does not exist")
    assert not (kit.tmp / "typo").exists()
