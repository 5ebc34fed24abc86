"""Hostile specs: spec text never becomes code, and the generator never deletes what it
did not make.

Every string the generator reads from a spec is a slot below. Each test puts hostile
text (quotes, triple quotes, backslashes, newlines, template syntax, NUL, lone surrogates,
bidi marks, code that would create a canary file) into the slots and asserts: generation
succeeds or refuses with a GenerationError (exit 2 on the command line); the output
imports; the canary is never created; every docstring holds the text exactly (after the
documented normalisation: whitespace runs collapsed); literal values are exact.
"""

from __future__ import annotations

import ast
import copy
import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from modelarts_kit.main import cli
from modelarts_kit_generator import GenerationError, GeneratorOptions, generate, render_to
from modelarts_kit_generator.escaping import (
    _QUOTE_RUN,
    UnrepresentableText,
    _docstring_escape,
    _escape_char,
    _needs_escape,
    docstring_inline,
    docstring_lines,
    markdown_code,
    markdown_text,
    normalise_whitespace,
    python_string,
    toml_string,
)
from modelarts_kit_generator.manifest import MARKER

JSON = Any
Setter = Callable[[dict[str, Any], str], None]

CANARY_CODE = '"""; __import__("os").system("touch {canary}"); open("{canary}", "w"); """'


def base_spec() -> dict[str, Any]:
    """A small spec that reaches every place of the templates and the model plan."""
    thing = {
        "type": "object",
        "description": "A thing.",
        "title": "Thing",
        "properties": {
            "name": {
                "type": "string",
                "description": "Its name.",
                "pattern": "^a",
                "default": "a",
            },
            "kind": {"type": "string", "enum": ["x", "y"]},
            "other": {"type": "integer"},
        },
    }
    project = {"name": "project_id", "in": "path", "required": True, "schema": {"type": "string"}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Toy", "version": "1.0.0", "description": "The toy API."},
        "servers": [
            {
                "url": "https://{region}.example.com",
                "variables": {"region": {"default": "r1", "description": "The region."}},
            }
        ],
        "components": {
            "securitySchemes": {"token": {"type": "apiKey", "in": "header", "name": "X-Token"}},
            "schemas": {"Thing": thing},
        },
        "paths": {
            "/p/{project_id}/things": {
                "post": {
                    "operationId": "createThing",
                    "summary": "Create a thing.",
                    "description": "Creates it.",
                    "parameters": [{**project, "description": "The project."}],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}
                        },
                    },
                    "responses": {
                        "201": {
                            "description": "Created.",
                            "content": {
                                "application/json": {
                                    "schema": {"$ref": "#/components/schemas/Thing"}
                                }
                            },
                        },
                        "400": {"description": "Bad request."},
                    },
                }
            },
            "/p/{project_id}/things/{id}": {
                "get": {
                    "operationId": "showThing",
                    "summary": "Show a thing.",
                    "parameters": [
                        project,
                        {
                            "name": "id",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        },
                        {
                            "name": "q",
                            "in": "query",
                            "description": "A filter.",
                            "schema": {"type": "string", "enum": ["a", "b"]},
                        },
                    ],
                    "responses": {
                        "200": {
                            "description": "Found.",
                            "content": {
                                "application/json": {
                                    "schema": {"$ref": "#/components/schemas/Thing"}
                                }
                            },
                        }
                    },
                }
            },
        },
    }


def _at(*path: str | int) -> Setter:
    def set_value(spec: dict[str, Any], text: str) -> None:
        node: Any = spec
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = text

    return set_value


def _server_url(spec: dict[str, Any], text: str) -> None:
    spec["servers"][0]["url"] = "https://{region}.example.com/" + text


def _property_name(spec: dict[str, Any], text: str) -> None:
    properties = spec["components"]["schemas"]["Thing"]["properties"]
    properties[text] = properties.pop("other")


CREATE = ("paths", "/p/{project_id}/things", "post")
SHOW = ("paths", "/p/{project_id}/things/{id}", "get")
THING = ("components", "schemas", "Thing")
NAME = (*THING, "properties", "name")

# Slots whose text must appear (normalised) in a docstring of the output.
PROSE_SLOTS: dict[str, Setter] = {
    "info.title": _at("info", "title"),
    "info.version": _at("info", "version"),
    "info.description": _at("info", "description"),
    "servers[0].url": _server_url,
    "servers[0].variables.region.default": _at("servers", 0, "variables", "region", "default"),
    "servers[0].variables.region.description": _at(
        "servers", 0, "variables", "region", "description"
    ),
    "schema.description": _at(*THING, "description"),
    "property.description": _at(*NAME, "description"),
    "operation.summary": _at(*CREATE, "summary"),
    "operation.description": _at(*CREATE, "description"),
    "client parameter.description": _at(*CREATE, "parameters", 0, "description"),
    "query parameter.description": _at(*SHOW, "parameters", 2, "description"),
    "error response.description": _at(*CREATE, "responses", "400", "description"),
}
# Slots whose text must appear exactly as a string value in the output.
VALUE_SLOTS: dict[str, Setter] = {
    "schema enum value": lambda spec, text: _at(*THING, "properties", "kind", "enum")(
        spec,
        [text, "y"],  # type: ignore[arg-type]
    ),
    "query enum value": lambda spec, text: _at(*SHOW, "parameters", 2, "schema", "enum")(
        spec,
        [text, "b"],  # type: ignore[arg-type]
    ),
    "property name": _property_name,
}
# Slots that only must not break or inject (their text is transformed or validated).
OTHER_SLOTS: dict[str, Setter] = {
    "schema.title": _at(*THING, "title"),
    "property.pattern": _at(*NAME, "pattern"),
    "property.default": _at(*NAME, "default"),
    "success response.description": _at(*CREATE, "responses", "201", "description"),
    "security scheme header name": _at("components", "securitySchemes", "token", "name"),
    "operationId": lambda spec, text: _at(*SHOW, "operationId")(spec, "show" + text),
}
SLOTS = {**PROSE_SLOTS, **VALUE_SLOTS, **OTHER_SLOTS}


def hostile_spec(text: str, slots: list[str]) -> dict[str, Any]:
    spec = base_spec()
    for slot in slots:
        SLOTS[slot](spec, text)
    return spec


def _docstrings(tree: ast.Module) -> list[str]:
    """Every docstring: module, class, function and attribute docstrings."""
    found = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        for statement in body if isinstance(body, list) else []:
            if (
                isinstance(statement, ast.Expr)
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)
            ):
                found.append(statement.value.value)
    return found


def _strings(tree: ast.Module) -> set[str]:
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


Generated = tuple[dict[str, ast.Module], dict[str, str]]


def generate_hostile(tmp: Path, text: str, slots: list[str], canary: Path) -> Generated | str:
    """Generate from the hostile spec (in process, no cache; the package is imported by the
    generator's own verification). The refusal's message when the generator refused it."""
    spec_file = tmp / "spec.json"
    spec_file.write_text(json.dumps(hostile_spec(text, slots), ensure_ascii=False), "utf-8")
    out = tmp / "out"
    try:
        render_to(out, spec_file, GeneratorOptions(), use_cache=False)
    except GenerationError as exc:
        return str(exc)
    finally:
        assert not canary.exists(), "spec text was executed"
    sources = {
        path.relative_to(out).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(out.rglob("*"))
        if path.is_file()
    }
    trees = {name: ast.parse(text) for name, text in sources.items() if name.endswith(".py")}
    tomllib.loads(sources["pyproject.toml"])  # the TOML stays valid
    return trees, sources


def assert_text_is_held(
    text: str, slots: list[str], trees: dict[str, ast.Module], sources: dict[str, str]
) -> None:
    docstrings = [normalise_whitespace(doc) for tree in trees.values() for doc in _docstrings(tree)]
    strings = set().union(*(_strings(tree) for tree in trees.values()))
    expected = normalise_whitespace(text).rstrip(".")
    for slot in slots:
        if slot in PROSE_SLOTS and expected:
            assert any(expected in doc for doc in docstrings), (slot, text)
        if slot in VALUE_SLOTS:
            assert text in strings, (slot, text)
    # Nothing but the kit's own code calls anything: the hostile text never became a name.
    for tree in trees.values():
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        assert not names & {"__import__", "eval", "exec", "system", "this"}


def test_code_in_any_spec_string_is_never_executed(tmp_path: Path) -> None:
    """The issue's attack in every slot at once (one generation, which imports the output).
    Before the fix, info.version, the server URL, server variables and parameter
    descriptions ran the command during generation; info.title broke the TOML."""
    canary = tmp_path / "canary"
    text = CANARY_CODE.format(canary=canary)
    slots = [slot for slot in SLOTS if slot != "security scheme header name"]
    result = generate_hostile(tmp_path, text, slots, canary)
    assert not isinstance(result, str), f"refused: {result}"
    assert_text_is_held(text, slots, *result)


def test_a_header_name_that_is_not_an_http_token_is_refused(tmp_path: Path) -> None:
    canary = tmp_path / "canary"
    text = f'X"; import os; os.system("touch {canary}"); x="'
    result = generate_hostile(tmp_path, text, ["security scheme header name"], canary)
    assert isinstance(result, str)
    assert result.startswith("spec: /components/securitySchemes/token/name: ")
    assert "is not an HTTP header name (rule: RFC 9110 token characters only)" in result


HOSTILE_PIECES = (
    '"',
    '"""',
    "'''",
    "\\",
    "\\n",
    "\n",
    "\r\n",
    "\t",
    "{{ ir }}",
    "{% if x %}",
    "{#",
    "\x00",
    "\u202e",
    "\u200f",
    "\u2028",
    "# comment",
    "`",
    "|",
    "<b>",
    "*_",
    '"; import os; x = "',
    CANARY_CODE,
)
hostile_text = st.lists(
    st.one_of(st.sampled_from(HOSTILE_PIECES), st.text(max_size=12)), min_size=1, max_size=8
).map("".join)
# Property examples each generate a package (~0.2 s): few, but every slot each time.
PROPERTY_EXAMPLES = 40 if settings().max_examples >= 100 else 12


@settings(
    max_examples=PROPERTY_EXAMPLES, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=hostile_text)
def test_arbitrary_text_in_every_slot_is_held_or_refused(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    tmp = tmp_path_factory.mktemp("hostile")
    canary = tmp / "canary"
    text = text.replace(CANARY_CODE, CANARY_CODE.format(canary=canary))
    # The header name is validated (an HTTP token), so it only ever holds safe text; the
    # parametrised test above covers its refusal.
    slots = [s for s in SLOTS if s != "security scheme header name"]
    if text in ("name", "kind"):
        slots.remove("property name")  # would collide with a sibling, not a hostile case
    result = generate_hostile(tmp, text, slots, canary)
    event("refused" if isinstance(result, str) else "generated")
    if isinstance(result, str):
        # The one refusal a text in these slots may cause: a pattern must be a regex.
        assert "/pattern: " in result
        assert "is not a valid regular expression" in result
        return
    assert_text_is_held(text, slots, *result)


@pytest.mark.parametrize("operation_id", ['"""', "-", "\u4e2d\u6587"])
def test_an_operation_id_without_letters_is_refused(tmp_path: Path, operation_id: str) -> None:
    """Before: ``"0"`` or ``"-"`` gave a model the client could not import (a traceback)."""
    spec = base_spec()
    spec["paths"]["/p/{project_id}/things/{id}"]["get"]["operationId"] = operation_id
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(json.dumps(spec), encoding="utf-8")
    with pytest.raises(GenerationError, match=r"operationId: .* has no ASCII letter or digit"):
        render_to(tmp_path / "out", spec_file, GeneratorOptions(), use_cache=False)


# -- the escaping functions themselves ---------------------------------------------------

any_text = st.text(st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF))


@given(any_text)
def test_python_string_is_a_literal_of_exactly_the_text(text: str) -> None:
    literal = python_string(text)
    assert ast.literal_eval(literal) == text
    literal.encode("utf-8")  # writable as UTF-8 source


@given(any_text, st.integers(min_value=10, max_value=100))
def test_docstring_lines_hold_the_normalised_text(text: str, width: int) -> None:
    lines = docstring_lines(text, width)
    for context in ('"""{}"""', '"""x {} x"""', '"""\n    {}\n    """'):
        source = context.format("\n".join(lines))
        source.encode("utf-8")
        value = ast.literal_eval(source)
        assert normalise_whitespace(text) in normalise_whitespace(value)
    inline = docstring_inline(text)
    assert normalise_whitespace(ast.literal_eval(f'"""{inline}"""')) == normalise_whitespace(text)


def _docstring_escape_by_character(line: str) -> str:
    """The definition of a docstring line's escaping, one character at a time (what
    ``_docstring_escape`` does without its one-call fast path for printable lines)."""
    text = "".join(
        _escape_char(char) if _needs_escape(char) else char for char in line.replace("\\", "\\\\")
    )
    return _QUOTE_RUN.sub('\\\\"', text)


@given(any_text)
def test_docstring_escape_fast_path_agrees_with_the_definition(text: str) -> None:
    assert _docstring_escape(text) == _docstring_escape_by_character(text)


def test_printable_characters_never_need_escaping() -> None:
    # Every code point: the fast path trusts str.isprintable() to imply "no escape".
    assert not [c for c in map(chr, range(0x110000)) if c.isprintable() and _needs_escape(c)]


@given(any_text)
def test_toml_string_holds_the_text_or_refuses_a_surrogate(text: str) -> None:
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        with pytest.raises(UnrepresentableText, match=r"^/info/title: .*lone surrogate"):
            toml_string(text, "/info/title")
        return
    assert tomllib.loads(f"x = {toml_string(text, '/info/title')}")["x"] == text


@given(any_text)
def test_markdown_stays_on_one_line_without_markup(text: str) -> None:
    try:
        prose = markdown_text(text, "/info/title")
        code = markdown_code(text, "/paths")
    except UnrepresentableText:
        assert any(0xD800 <= ord(c) <= 0xDFFF for c in text)
        return
    for rendered in (prose, code):
        assert "\n" not in rendered
        assert "\r" not in rendered
    assert "<" not in prose.replace("\\<", "")
    assert "|" not in code.replace("\\|", "")


# -- datamodel-code-generator's extensions never pass through ----------------------------

EXTENSIONS = {
    "x-python-type": "this.s",
    "x-python-import": {"module": "this", "name": "s"},
    "customTypePath": "this.s",
    "customBasePath": "this.Base",
    "x-enum-varnames": ["__import__"],
    "x-python-unserializable": True,
    "$id": "https://evil.example.com/x.json",
}


@pytest.mark.parametrize(("key", "value"), sorted(EXTENSIONS.items()))
def test_datamodel_code_generator_extensions_are_dropped(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], key: str, value: JSON
) -> None:
    """Before: ``x-python-type: this.s`` made generation import ``this`` (the Zen of Python
    was printed) and then fail."""
    spec = base_spec()
    for node in (
        spec["components"]["schemas"]["Thing"],
        spec["components"]["schemas"]["Thing"]["properties"]["name"],
        spec["components"]["schemas"]["Thing"]["properties"]["kind"],
    ):
        node[key] = copy.deepcopy(value)
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(json.dumps(spec), encoding="utf-8")
    render_to(tmp_path / "out", spec_file, GeneratorOptions(), use_cache=False)
    models = (tmp_path / "out" / "modelarts_training_client" / "models.py").read_text()
    assert "this" not in {
        alias.name.split(".")[0]
        for node in ast.walk(ast.parse(models))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    } | {node.module for node in ast.walk(ast.parse(models)) if isinstance(node, ast.ImportFrom)}
    assert "Beautiful is better than ugly" not in capfd.readouterr().out


def test_models_that_would_import_anything_else_are_refused() -> None:
    from modelarts_kit_generator.modelgen import ModelGenerationError, check_models_source

    check_models_source("from pydantic import BaseModel\n\n\nclass A(BaseModel):\n    x: int\n")
    check_models_source('from typing import TypeVar\n\n_T = TypeVar("_T")\n')
    for hostile in (
        "import os\n",
        'from typing import TypeVar\n\n_T = TypeVar("other")\nx: list[_T]\n',
        'from typing import TypeVar\n\n_T = TypeVar("_T", bound=__import__("os"))\n',
        'from typing import TypeVar\n\n_T = TypeVar("_T")\nTypeVar.__call__\n',
        "_T = TypeVar('_T')\n",
        "from this import s\n",
        "x = __import__('os')\n",
        "from pydantic import BaseModel\nBaseModel.__subclasses__()\n",
        "y = (lambda: 1)()\n",
    ):
        with pytest.raises(ModelGenerationError):
            check_models_source(hostile)


# -- --out never deletes what the user owns ----------------------------------------------


def test_generate_refuses_a_directory_it_did_not_make(tmp_path: Path) -> None:
    """Before: ``generate --out DIR`` replaced DIR whole, and ``--out .`` wiped the current
    directory."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("years of work", encoding="utf-8")
    result = CliRunner().invoke(cli, ["generate", "--out", str(mine)])
    assert result.exit_code == 2
    assert "not made by `modelarts-kit generate`" in result.output
    assert "--force" in result.output
    assert [p.name for p in mine.iterdir()] == ["thesis.tex"]


def test_generate_refuses_the_current_directory_even_with_force(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for arguments in (["--out", "."], ["--out", ".", "--force"], ["--out", "..", "--force"]):
        result = CliRunner().invoke(cli, ["generate", *arguments])
        assert result.exit_code == 2, arguments
        assert "current directory" in result.output
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_generate_replaces_its_own_output_and_force_replaces_any(tmp_path: Path) -> None:
    out = tmp_path / "client"
    generate(out, use_cache=True)
    assert (out / MARKER).is_file()
    (out / "stale.txt").write_text("old output", encoding="utf-8")
    generate(out, use_cache=True)  # its own directory: replaced whole
    assert not (out / "stale.txt").exists()
    other = tmp_path / "other"
    other.mkdir()
    (other / "x").write_text("x", encoding="utf-8")
    with pytest.raises(GenerationError):
        generate(other, use_cache=True)
    generate(other, use_cache=True, force=True)
    assert (other / MARKER).is_file()
    assert not (other / "x").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    generate(empty, use_cache=True)
    assert (empty / MARKER).is_file()


@pytest.mark.parametrize("out", ["/proc/modelarts-kit-x", "/proc/self/nonexistent/x"])
def test_generate_into_an_unwritable_place_is_one_line(out: str) -> None:
    result = CliRunner().invoke(cli, ["generate", "--out", out])
    assert result.exit_code == 2
    assert result.output.startswith("error: ")
    assert len(result.output.splitlines()) == 1
    assert "Traceback" not in result.output


def test_a_ruff_format_failure_names_ruffs_message(tmp_path: Path) -> None:
    """Before: ``ruff format --quiet`` printed nothing on a file it cannot parse, so the
    error was "generated code fails `ruff format`:" and no reason (a spec whose header name
    held a quote did that). No spec string can break the output now (see above), so the
    formatting step is given a broken file directly."""
    from modelarts_kit_generator.pipeline import _format

    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nline-length = 100\n", "utf-8")
    (tmp_path / "broken.py").write_text("x = (\n", encoding="utf-8")
    with pytest.raises(
        GenerationError, match=r"fails `ruff format` \(exit 2\):\n.*Failed to parse"
    ):
        _format(tmp_path)


# -- structurally broken specs: refused on one line, nothing written ---------------------


def _unknown_type(spec: dict[str, Any]) -> None:
    spec["components"]["schemas"]["Thing"]["properties"]["other"]["type"] = "strung"


def _unknown_type_in_a_list(spec: dict[str, Any]) -> None:
    spec["components"]["schemas"]["Thing"]["properties"]["other"]["type"] = ["integer", "nul"]


def _template_without_parameter(spec: dict[str, Any]) -> None:
    spec["paths"]["/p/{project_id}/things/{id}"]["get"]["parameters"] = []


def _parameter_not_in_template(spec: dict[str, Any]) -> None:
    item = spec["paths"].pop("/p/{project_id}/things/{id}")
    spec["paths"]["/p/{project_id}/things/{thing_id}"] = item


STRUCTURE_BREAKS = [
    pytest.param(
        _unknown_type,
        "/components/schemas/Thing/properties/other/type: type 'strung' is not a JSON Schema type",
        "schema-type",
        id="unknown type",
    ),
    pytest.param(
        _unknown_type_in_a_list,
        "/components/schemas/Thing/properties/other/type: type 'nul' is not a JSON Schema type",
        "schema-type",
        id="unknown type in a list",
    ),
    pytest.param(
        _template_without_parameter,
        "/paths/~1p~1{project_id}~1things~1{id}/get: path '/p/{project_id}/things/{id}' has "
        "{id} but no path parameter 'id' is declared",
        "path-parameter-declared",
        id="template parameter not declared (empty parameters)",
    ),
    pytest.param(
        _parameter_not_in_template,
        "declared path parameter 'id' is not in the path template '/p/{project_id}/things/"
        "{thing_id}'",
        "path-parameter-declared",
        id="declared parameter not in the template",
    ),
]


@pytest.mark.parametrize(("breaking", "says", "rule"), STRUCTURE_BREAKS)
def test_a_structurally_broken_spec_is_refused_on_one_line(
    tmp_path: Path, breaking: Callable[[dict[str, Any]], None], says: str, rule: str
) -> None:
    """Before: ``type: strung`` and a ``{param}`` nobody declares were generated into a client."""
    spec = base_spec()
    breaking(spec)
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(json.dumps(spec), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["generate", "--spec", str(spec_file), "--out", str(out), "--no-cache"]
    )
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.output.splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"error: spec: {spec_file}: ")
    assert says in lines[0]
    assert f"(rule: {rule})" in lines[0]
    assert "Traceback" not in result.output
    assert not out.exists()


def _without_schemas(inline: bool) -> dict[str, Any]:
    """A valid spec with no ``components.schemas``: one answer schema written inline, or
    no schema at all (an answer without content)."""
    answer: dict[str, Any] = (
        {
            "description": "ok",
            "content": {
                "application/json": {
                    "schema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}
                }
            },
        }
        if inline
        else {"description": "no content"}
    )
    status = "200" if inline else "204"
    return {
        "openapi": "3.1.0",
        "info": {"title": "Tiny", "version": "1.0.0"},
        "servers": [{"url": "https://tiny.example.com"}],
        "paths": {"/v1/ping": {"get": {"operationId": "Ping", "responses": {status: answer}}}},
    }


@pytest.mark.parametrize("inline", [True, False], ids=["inline-schema", "no-schema"])
def test_a_spec_without_components_schemas_generates_a_client_that_works(
    tmp_path: Path, inline: bool
) -> None:
    """Issue 34 item 6: "generated code does not compile" (an empty ``from .models import
    ()``), then datamodel-code-generator's "Models not found"."""
    import importlib
    import sys

    import httpx

    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(_without_schemas(inline)))
    out = tmp_path / "tiny"
    result = CliRunner().invoke(
        cli, ["generate", "--no-cache", "--spec", str(spec), "--out", str(out),
              "--package", "tiny_client", "--distribution", "tiny-client"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    for module in out.rglob("*.py"):
        compile(module.read_bytes(), str(module), "exec", dont_inherit=True)
    sys.path.insert(0, str(out))
    try:
        tiny = importlib.import_module("tiny_client")
        answer = httpx.Response(200, json={"ok": True}) if inline else httpx.Response(204)
        transport = httpx.MockTransport(lambda request: answer)
        with tiny.TrainingJobsClient(transport=transport) as client:
            pinged = client.ping()
        assert (pinged.ok if inline else pinged) == (True if inline else None)
    finally:
        sys.path.remove(str(out))
        for name in [n for n in sys.modules if n.split(".")[0] == "tiny_client"]:
            del sys.modules[name]
