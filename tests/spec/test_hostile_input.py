"""Hostile YAML/JSON and page input to every command that reads a spec, ledger or page.

Each command runs in a subprocess under a memory limit (``RLIMIT_AS``) and a timeout, so a
regression fails the test instead of exhausting the machine. Every attack must end in exit
2 with one ``error:`` line naming the file and no traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_spec import SpecError, load_spec
from modelarts_kit_spec.load import (
    MAX_DEPTH,
    MAX_INPUT_BYTES,
    MAX_NODES,
    InputError,
    parse_yaml_text,
    read_input_bytes,
    read_yaml,
)
from modelarts_kit_wire.errors import KitError

REPO = Path(__file__).resolve().parents[2]
SEED_PAGE = min((REPO / "spec" / "sources" / "seeds").glob("0*.txt"))  # in the repository
MEMORY_LIMIT = 1536 * 1024 * 1024  # far above a normal run, far below an alias bomb
TIMEOUT = 120


def alias_bomb() -> str:
    """Nine levels of nine aliases each: 0.3 KB that expands to 9**9 (387 million) values."""
    lines = ['a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for level in range(8):
        name, previous = chr(ord("b") + level), chr(ord("a") + level)
        lines.append(f"{name}: &{name} [{', '.join(['*' + previous] * 9)}]")
    return "\n".join(lines) + "\n"


def string_alias_bomb() -> str:
    """One 1 MB string aliased 2,000 times as descriptions: 1 MB of text, 2 GB expanded
    (few values: the value cap alone let it through)."""
    lines = ["x-text: &text " + "a" * 1_000_000, "x-descriptions:"]
    lines += ["  - {description: *text}"] * 2000
    return "\n".join(lines) + "\n"


# The attacks sit in a document that otherwise looks like a spec, so that no early check
# (``/openapi must be 3.x``) stops them before they are used.
HEAD = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\nentries: []\n"
JSON_HEAD = '{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "x": '
ATTACKS: dict[str, bytes | str] = {
    "alias bomb": HEAD + "x-bomb:\n" + textwrap.indent(alias_bomb(), "  "),
    "string alias bomb": HEAD + string_alias_bomb(),
    "3,000 levels of YAML": HEAD + "x-deep: " + "[" * 3000 + "]" * 3000 + "\n",
    "3,000 levels of JSON": JSON_HEAD + '{"a": ' * 3000 + "1" + "}" * 3000 + "}",
    "non-UTF-8": b"openapi: 3.1.0\ninfo: {title: caf\xe9, version: '1'}\n",
    "binary": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)),
    "/dev/zero": "/dev/zero",  # a path, not content
}
PAGE_ATTACKS = ("non-UTF-8", "binary", "/dev/zero")

# Each entry point: the command line, with {F} for the hostile file, {T} for a scratch dir.
ENTRY_POINTS: dict[str, tuple[list[str], tuple[str, ...]]] = {
    "spec validate --spec": (["spec", "validate", "--spec", "{F}"], tuple(ATTACKS)),
    "spec validate --ledger": (["spec", "validate", "--ledger", "{F}"], tuple(ATTACKS)),
    "spec diff OLD": (["spec", "diff", "{F}", "{SPEC}"], tuple(ATTACKS)),
    "spec diff NEW": (["spec", "diff", "{SPEC}", "{F}"], tuple(ATTACKS)),
    "generate --spec": (["generate", "--spec", "{F}", "--out", "{T}/out"], tuple(ATTACKS)),
    "publish --spec": (["publish", "--spec", "{F}", "--out", "{T}/out"], tuple(ATTACKS)),
    "publish --ledger": (["publish", "--ledger", "{F}", "--out", "{T}/out"], tuple(ATTACKS)),
    "docs extract": (["docs", "extract", "{F}"], PAGE_ATTACKS),
    "docs diff PAGE": (["docs", "diff", "{F}"], PAGE_ATTACKS),
    "docs diff --spec": (["docs", "diff", "{PAGE}", "--spec", "{F}"], tuple(ATTACKS)),
    "docs compare": (["docs", "compare", "{F}", "{PAGE}"], PAGE_ATTACKS),
    "contract mock --scenario": (
        ["contract", "mock", "--scenario", "{F}", "--max-requests", "1", "--max-time", "1"],
        tuple(ATTACKS),
    ),
}

RUNNER = textwrap.dedent(
    """
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    from click.testing import CliRunner
    from modelarts_kit.main import cli
    results = {{}}
    for name, arguments in json.loads(sys.argv[1]).items():
        result = CliRunner().invoke(cli, arguments)
        results[name] = [result.exit_code, result.output, repr(result.exception)]
    print(json.dumps(results))
    """
)


def write_attack(directory: Path, name: str) -> str:
    content = ATTACKS[name]
    if content == "/dev/zero":
        return "/dev/zero"
    path = directory / (name.replace(" ", "-").replace(",", "").replace("/", "") + ".yaml")
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return str(path)


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_every_attack_on_every_entry_point_is_one_line_exit_2(tmp_path: Path, entry: str) -> None:
    """Before: the alias bomb and /dev/zero exhausted memory (24 GB, MemoryError), 3,000
    levels raised RecursionError, the JSON one a traceback; pages were read whole."""
    template, attacks = ENTRY_POINTS[entry]
    cases = {}
    for attack in attacks:
        scratch = tmp_path / attack.replace(" ", "-").replace(",", "").replace("/", "")
        scratch.mkdir()
        hostile = write_attack(tmp_path, attack)
        cases[attack] = [
            part.format(F=hostile, T=scratch, SPEC=load_spec().path, PAGE=SEED_PAGE)
            for part in template
        ]
    completed = subprocess.run(
        [sys.executable, "-c", RUNNER.format(limit=MEMORY_LIMIT), json.dumps(cases)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    results = json.loads(completed.stdout.strip().splitlines()[-1])
    for attack, (code, output, exception) in results.items():
        where = f"{entry} / {attack}: {output[-500:]!r} {exception}"
        assert code == 2, where
        assert "Traceback" not in output, where
        errors = [line for line in output.splitlines() if line.startswith("error: ")]
        assert len(errors) == 1, where
        hostile = cases[attack][template.index("{F}")] if "{F}" in template else ""
        assert hostile in errors[0], where


def refused(text: str, source: str) -> str:
    """The kit's contract for input beyond a bound, whichever layer meets it first (our walk
    of the events, or the YAML library's own nesting limit): a ``KitError`` with exit 2 and
    one line that starts with the file's name. Returns the message."""
    with pytest.raises(KitError) as caught:
        parse_yaml_text(text, source)
    message = str(caught.value)
    assert caught.value.exit_code == 2, message
    assert "\n" not in message, message
    assert message.startswith(source), message
    return message


def test_the_loader_bounds_in_process() -> None:
    """Asserts the kit's contract, not one parser's wording: PyYAML 6.0.4 (libyaml's own
    nesting limit) stops the 100,000-level YAML before our count does, with another message."""
    assert f"more than {MAX_NODES} values once aliases" in refused(alias_bomb(), "bomb.yaml")
    # Composing this (libyaml's composer recurses in C) crashed the interpreter.
    assert refused("a: " + "[" * 100_000 + "]" * 100_000, "deep.yaml").startswith("deep.yaml:1")
    # JSON, and YAML just past the bound, are always measured by the kit itself.
    depth_rule = f"nested deeper than {MAX_DEPTH}"
    assert depth_rule in refused("[" * 100_000 + "]" * 100_000, "deep.json")
    assert depth_rule in refused('{"a": ' * 3000 + "1" + "}" * 3000, "deep.json")
    assert depth_rule in refused("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "deep.json")
    assert depth_rule in refused("a: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH, "deep.yaml")
    assert parse_yaml_text("[" * MAX_DEPTH + "]" * MAX_DEPTH, "ok.json") is not None
    # An alias nested under others counts the depth of what it repeats.
    nested = "a: &a " + "[" * 100 + "]" * 100 + "\nb: " + "[" * 40 + "*a" + "]" * 40 + "\n"
    assert depth_rule in refused(nested, "alias-depth.yaml")
    with pytest.raises(InputError, match="larger than 1024 bytes"):
        read_input_bytes("/dev/zero", limit=1024)


def test_a_string_alias_bomb_is_refused_by_its_expanded_bytes() -> None:
    """Before: accepted (2,001 values), then 2 GB to whoever walked it."""
    with pytest.raises(
        InputError, match=rf"bomb.yaml:\d+: more than {MAX_INPUT_BYTES} bytes of values once"
    ):
        parse_yaml_text(string_alias_bomb(), "bomb.yaml")
    # The same text once, unaliased, is well inside the cap.
    assert parse_yaml_text(string_alias_bomb().replace("*text", "b"), "ok.yaml") is not None


def test_the_curated_spec_and_ledger_are_far_inside_the_bounds() -> None:
    for path in (load_spec().path, REPO / "spec" / "modelarts_kit_spec" / "ledger.yaml"):
        document = read_yaml(path)
        assert document


def test_json_text_yaml_1_1_refuses_is_read(tmp_path: Path) -> None:
    """Valid JSON with raw U+0085 and an escaped astral character (a surrogate pair)."""
    path = tmp_path / "spec.json"
    path.write_text('{"a": "\x85", "b": "\\ud83d\\ude00"}', encoding="utf-8")
    assert read_yaml(path) == {"a": "\x85", "b": "\U0001f600"}


def test_an_external_path_item_ref_is_refused(tmp_path: Path) -> None:
    """Before: ``paths: {/x: {$ref: other.yaml#/...}}`` loaded with the operation silently
    missing (generate wrote a client without it)."""
    document: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/x": {"$ref": "other.yaml#/paths/~1x"},
            "/y": {"$ref": "#/components/pathItems/Y"},
        },
        "components": {
            "pathItems": {
                "Y": {"get": {"operationId": "getY", "responses": {"200": {"description": "ok"}}}}
            }
        },
    }
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(
        SpecError, match=r"/paths/~1x/\$ref: 'other.yaml#/paths/~1x' is not a local"
    ):
        load_spec(path)
    del document["paths"]["/x"]
    path.write_text(json.dumps(document), encoding="utf-8")
    # A local path-item $ref is followed: its operation is there.
    assert [op.operation_id for op in load_spec(path).operations] == ["getY"]


# Each command that reads a revision, with {R} for the hostile revision, {O} for the out dir.
REVISION_ENTRY_POINTS: dict[str, list[str]] = {
    "spec diff OLD": ["spec", "diff", "git:{R}:x", "{SPEC}"],
    "spec diff NEW": ["spec", "diff", "{SPEC}", "git:{R}:x"],
    "publish --previous git:REV:PATH": ["publish", "--previous", "git:{R}:x", "--out", "{O}"],
    "publish --previous TAG": ["publish", "--previous={R}", "--out", "{O}"],
}


@pytest.mark.parametrize("entry", sorted(REVISION_ENTRY_POINTS))
def test_a_revision_never_becomes_an_option_of_git(tmp_path: Path, entry: str) -> None:
    """Before: ``git:--output=PATH:x`` ran ``git show --output=PATH:x``, which wrote the
    spec's history into ``PATH:x`` (any path), and the error blamed the document."""
    written = tmp_path / "written"
    revision = f"--output={written}"
    arguments = [
        part.format(R=revision, SPEC=load_spec().path, O=tmp_path / "out")
        for part in REVISION_ENTRY_POINTS[entry]
    ]
    result = CliRunner().invoke(cli, arguments)
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ")
    assert f"revision '{revision}' starts with '-'" in line
    assert sorted(tmp_path.iterdir()) == []  # no file at any path, no out dir either
