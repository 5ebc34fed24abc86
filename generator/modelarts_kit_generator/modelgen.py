"""Pydantic v2 models through datamodel-code-generator: one in-process call, every option pinned.

The input is the model plan the IR decided (``components/schemas`` only, already split
into request and response models); datamodel-code-generator only translates it to code.
Options are pinned explicitly so a new default in a later release cannot change the
output silently.

Every model is emitted with ``defer_build=True``: pydantic then builds a model's validator
on its first use instead of at import, so importing the client does not pay for the ~100
request and response models a program may never touch (the generator still builds them
all once, in its verification step). datamodel-code-generator has no option for it, so
:func:`defer_validator_builds` adds the keyword to the code it returned, guided by its AST.
"""

from __future__ import annotations

import ast
import io
import json
import tempfile
import tokenize
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from modelarts_kit_wire.errors import KitError

from modelarts_kit_generator import cache
from modelarts_kit_generator.escaping import docstring_lines, python_string
from modelarts_kit_generator.schemas import DESCRIPTION_WIDTH, PLACEHOLDER

__all__ = [
    "ModelGenerationError",
    "add_to_classes",
    "check_models_source",
    "defer_validator_builds",
    "render_models",
    "substitute_texts",
]


LINE_LENGTH = 100


class ModelGenerationError(KitError):
    """datamodel-code-generator rejected the model plan."""


def render_models(
    schemas: Mapping[str, Any],
    texts: Mapping[str, str],
    *,
    header: str,
    use_cache: bool = True,
) -> str:
    """Return the source of the models module for ``schemas`` (name -> JSON Schema).

    ``texts`` maps each placeholder the model plan put where spec prose was (descriptions,
    titles) to that prose; datamodel-code-generator only ever sees the placeholders, and
    :func:`substitute_texts` prints the prose through the generator's own escaping.
    """
    if not use_cache or cache.cache_dir() is None:
        return _models_source(schemas, texts, header)
    key = cache.fingerprint("models", {"schemas": schemas, "texts": texts, "header": header})
    cached = cache.load(key)
    if cached is not None and "models.py" in cached:
        return cached["models.py"]
    output = _models_source(schemas, texts, header)
    cache.store(key, {"models.py": output})
    return output


def _models_source(schemas: Mapping[str, Any], texts: Mapping[str, str], header: str) -> str:
    if not schemas:
        # A spec whose operations carry no schema: a models module with no model
        # (datamodel-code-generator refuses an input without models).
        return f"{header}\n"
    source = substitute_texts(_run_datamodel_code_generator(schemas, header=header), texts)
    check_models_source(source)
    return source


def _run_datamodel_code_generator(schemas: Mapping[str, Any], *, header: str) -> str:
    from datamodel_code_generator import LiteralType, PythonVersion, generate
    from datamodel_code_generator.enums import (
        DataModelType,
        InputFileType,
        OpenAPIScope,
        StrictTypes,
    )

    document = {
        "openapi": "3.1.0",
        "info": {"title": "models", "version": "0"},
        "paths": {},
        "components": {"schemas": dict(schemas)},
    }
    with warnings.catch_warnings(), tempfile.TemporaryDirectory() as settings:
        # datamodel-code-generator reads formatter settings from the nearest pyproject.toml
        # of the current directory; a private one makes the output independent of where
        # generation runs.
        Path(settings, "pyproject.toml").write_text(
            f"[tool.ruff]\nline-length = {LINE_LENGTH}\n", encoding="utf-8"
        )
        # Deprecation notices about future defaults: every option below is pinned.
        warnings.simplefilter("ignore", FutureWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            output = generate(
                json.dumps(document, sort_keys=False, ensure_ascii=False),
                input_file_type=InputFileType.OpenAPI,
                openapi_scopes=[OpenAPIScope.Schemas],
                output_model_type=DataModelType.PydanticV2BaseModel,
                target_python_version=PythonVersion.PY_311,
                # ruff formats the whole package afterwards; formatting twice costs time.
                formatters=[],
                builtin_format_line_length=LINE_LENGTH,
                settings_path=Path(settings),
                disable_timestamp=True,
                enable_version_header=False,
                enable_command_header=False,
                custom_file_header=header,
                # Strict scalars: "5" never becomes 5 and 5 never becomes "5".
                strict_types=[
                    StrictTypes.str,
                    StrictTypes.int,
                    StrictTypes.bool,
                    StrictTypes.bytes,
                ],
                strict_nullable=True,
                enum_field_as_literal=LiteralType.All,
                use_one_literal_as_default=False,
                field_constraints=True,
                use_annotated=True,
                use_union_operator=True,
                use_standard_collections=True,
                use_schema_description=True,
                use_field_description=True,
                use_default_kwarg=False,
                snake_case_field=False,
                allow_population_by_field_name=True,
                allow_extra_fields=False,
                collapse_root_models=False,
                reuse_model=False,
                # Dependencies first: without postponed annotations a model must follow the
                # models it names.
                keep_model_order=False,
                capitalise_enum_members=False,
                use_title_as_name=False,
                use_double_quotes=True,
                use_exact_imports=False,
                # Annotations evaluated at class creation are cheaper at import than strings
                # pydantic would have to evaluate one by one.
                disable_future_imports=True,
                use_generic_container_types=False,
                use_unique_items_as_set=False,
                use_subclass_enum=False,
                use_specialized_enum=False,
                use_type_alias=False,
                use_frozen_field=False,
                enable_faux_immutability=False,
                openapi_include_info_version=False,
                wrap_string_literal=False,
            )
        except Exception as exc:  # datamodel-code-generator raises many types; cause kept
            raise ModelGenerationError(f"datamodel-code-generator failed: {exc}") from exc
    if not isinstance(output, str):
        raise ModelGenerationError(
            f"datamodel-code-generator returned {type(output).__name__}, expected one module"
        )
    return defer_validator_builds(output)


_MODEL_BASES = frozenset({"BaseModel", "RootModel"})


def _is_model_class(node: ast.stmt) -> bool:
    if not isinstance(node, ast.ClassDef):
        return False
    for base in node.bases:
        named = base.value if isinstance(base, ast.Subscript) else base
        if isinstance(named, ast.Name) and named.id in _MODEL_BASES:
            return True
    return False


def _config_call(model: ast.ClassDef) -> ast.Call | None:
    """The ``ConfigDict(...)`` call of ``model_config = ConfigDict(...)``, if the class has one."""
    for statement in model.body:
        if (
            isinstance(statement, ast.Assign)
            and [getattr(target, "id", None) for target in statement.targets] == ["model_config"]
            and isinstance(statement.value, ast.Call)
            and isinstance(statement.value.func, ast.Name)
            and statement.value.func.id == "ConfigDict"
        ):
            return statement.value
    return None


DEFERRED_ROOT = "_DeferredRootModel"
DEFERRED_ROOT_SOURCE = f"""
_RootT = TypeVar("_RootT")


class {DEFERRED_ROOT}(RootModel[_RootT]):
    \"\"\"``RootModel`` whose parametrizations also defer their validator builds.\"\"\"

    model_config = ConfigDict(defer_build=True)


"""
DEFERRED_ROOT_IMPORTS = "from typing import TypeVar\n\nfrom pydantic import ConfigDict\n"


def defer_validator_builds(source: str) -> str:
    """``source`` with every top-level model building its validator on first use.

    A model with a ``ConfigDict(...)`` gets ``defer_build=True`` first in that call; a model
    without one (a root model) gets ``model_config = ConfigDict(defer_build=True)`` after
    its docstring. A root model's base ``RootModel[X]`` is a class pydantic creates, and
    builds, when the module runs, with ``RootModel``'s own config; such bases become
    ``_DeferredRootModel[X]``, a generic root model that defers too (defined once, before
    the first model). The result is formatted by ruff afterwards, so only positions matter.
    """
    try:
        module = ast.parse(source)
    except SyntaxError as exc:
        raise ModelGenerationError(
            f"datamodel-code-generator output does not parse: {exc}"
        ) from exc
    lines = source.splitlines(keepends=True)
    # (line index, column, text, characters replaced) edits, applied bottom-up so
    # positions stay valid.
    edits: list[tuple[int, int, str, int]] = []
    defines_deferred_root = any(
        isinstance(node, ast.ClassDef) and node.name == DEFERRED_ROOT for node in module.body
    )
    rebased = False
    for node in module.body:
        if not isinstance(node, ast.ClassDef) or not _is_model_class(node):
            continue
        for base in node.bases:
            if (
                node.name != DEFERRED_ROOT
                and isinstance(base, ast.Subscript)
                and isinstance(base.value, ast.Name)
                and base.value.id == "RootModel"
            ):
                assert base.value.end_col_offset is not None
                width = base.value.end_col_offset - base.value.col_offset
                edits.append((base.value.lineno - 1, base.value.col_offset, DEFERRED_ROOT, width))
                rebased = True
        call = _config_call(node)
        if call is not None:
            if any(keyword.arg == "defer_build" for keyword in call.keywords):
                continue
            assert call.func.end_lineno is not None
            assert call.func.end_col_offset is not None
            # Right after "ConfigDict(": the keyword leads, the existing ones follow.
            edits.append(
                (call.func.end_lineno - 1, call.func.end_col_offset + 1, "defer_build=True, ", 0)
            )
            continue
        first = node.body[0]
        documented = (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
        )
        anchor = first.end_lineno if documented else first.lineno - 1
        assert anchor is not None
        indent = " " * first.col_offset
        edits.append((anchor, 0, f"{indent}model_config = ConfigDict(defer_build=True)\n", 0))
    if not edits:
        return source
    for line, column, text, replaced in sorted(edits, reverse=True):
        if line == len(lines):
            lines.append("")
        lines[line] = lines[line][:column] + text + lines[line][column + replaced :]
    patched = "".join(lines)
    first_class = next(n for n in module.body if isinstance(n, ast.ClassDef))
    before, after = _split_at_line(
        patched, first_class.lineno - 1 - len(first_class.decorator_list)
    )
    if rebased and not defines_deferred_root:
        # ruff sorts and merges the imports afterwards.
        return before + DEFERRED_ROOT_IMPORTS + DEFERRED_ROOT_SOURCE + after
    if not _imports_config_dict(module):
        return before + "from pydantic import ConfigDict\n\n\n" + after
    return patched


def add_to_classes(source: str, additions: Mapping[str, tuple[str, ...]], imports: str) -> str:
    """``source`` with the code lines the IR decided for each model class appended to its
    body (``additions``: class name -> lines, indented as in a class body by this function),
    and ``imports`` (import statements) after the module's imports. ruff formats the result
    and removes what a module does not use."""
    if not additions:
        return source
    try:
        module = ast.parse(source)
    except SyntaxError as exc:
        raise ModelGenerationError(f"generated models do not parse: {exc}") from exc
    lines = source.splitlines(keepends=True)
    classes = {node.name: node for node in module.body if isinstance(node, ast.ClassDef)}
    unknown = sorted(set(additions) - set(classes))
    if unknown:
        raise ModelGenerationError(f"no model class to extend is named {unknown[0]!r}")
    edits: list[tuple[int, str]] = []
    for name, code in additions.items():
        node = classes[name]
        assert node.end_lineno is not None
        indent = " " * node.body[0].col_offset
        edits.append(
            (node.end_lineno, "".join(f"{indent}{line}\n" if line else "\n" for line in code))
        )
    last_import = max(
        (
            node.end_lineno or 0
            for node in module.body
            if isinstance(node, ast.Import | ast.ImportFrom)
        ),
        default=0,
    )
    edits.append((last_import, imports))
    for line, text in sorted(edits, key=lambda edit: edit[0], reverse=True):
        lines.insert(line, text)
    return "".join(lines)


def _imports_config_dict(module: ast.Module) -> bool:
    return any(
        isinstance(node, ast.ImportFrom)
        and node.module == "pydantic"
        and any(alias.name == "ConfigDict" and alias.asname is None for alias in node.names)
        for node in module.body
    )


def _split_at_line(text: str, index: int) -> tuple[str, str]:
    lines = text.splitlines(keepends=True)
    return "".join(lines[:index]), "".join(lines[index:])


def substitute_texts(source: str, texts: Mapping[str, str]) -> str:
    """Replace each string literal that holds only a placeholder with the spec text it
    stands for: a docstring (triple-quoted) gets escaped docstring lines, any other
    literal gets :func:`~modelarts_kit_generator.escaping.python_string`. A placeholder
    anywhere else (inside a longer literal, in a comment or a name) is an error."""
    if not texts:
        return source
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    edits: list[tuple[int, int, str]] = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError) as exc:
        raise ModelGenerationError(
            f"datamodel-code-generator output does not parse: {exc}"
        ) from exc
    for token in tokens:
        if token.type != tokenize.STRING or PLACEHOLDER.search(token.string) is None:
            continue
        value = ast.literal_eval(token.string)
        key = value.strip() if isinstance(value, str) else ""
        if key not in texts:
            raise ModelGenerationError(
                f"datamodel-code-generator printed spec text where it was not expected: "
                f"{token.string[:80]!r}"
            )
        start = offsets[token.start[0] - 1] + token.start[1]
        end = offsets[token.end[0] - 1] + token.end[1]
        if token.string.startswith(('"""', "'''")):
            indent = " " * token.start[1]
            body = "".join(
                f"{indent}{line}\n" if line else "\n"
                for line in docstring_lines(texts[key], DESCRIPTION_WIDTH)
            )
            replacement = f'"""\n{body}{indent}"""'
        else:
            replacement = python_string(texts[key])
        edits.append((start, end, replacement))
    for start, end, replacement in sorted(edits, reverse=True):
        source = source[:start] + replacement + source[end:]
    leftover = PLACEHOLDER.search(source)
    if leftover is not None:
        raise ModelGenerationError(
            f"datamodel-code-generator printed spec text outside a string: {leftover.group()}"
        )
    return source


# What generated models may refer to: names imported from these modules, the module's own
# classes, and these builtins. Anything else (``__import__``, ``eval``, ``open``, a module
# named by a spec) means spec text escaped into code, and the output is refused before it
# is ever imported.
_ALLOWED_MODULES = frozenset(
    {
        "__future__",
        "collections.abc",
        "datetime",
        "decimal",
        "enum",
        "ipaddress",
        "pathlib",
        "pydantic",
        "re",
        "typing",
        "typing_extensions",
        "uuid",
    }
)
_ALLOWED_BUILTINS = frozenset(
    {"bool", "bytes", "dict", "float", "frozenset", "int", "list", "object", "set", "str"}
    | {"tuple", "type"}
)


def _type_variable(node: ast.stmt) -> str | None:
    """The name ``node`` declares if it is exactly ``NAME = TypeVar("NAME")`` (the generic
    base :data:`DEFERRED_ROOT_SOURCE` needs one), else None."""
    if (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(target := node.targets[0], ast.Name)
        and isinstance(call := node.value, ast.Call)
        and isinstance(call.func, ast.Name)
        and call.func.id == "TypeVar"
        and not call.keywords
        and len(call.args) == 1
        and isinstance(argument := call.args[0], ast.Constant)
        and argument.value == target.id
    ):
        return target.id
    return None


def check_models_source(source: str) -> None:
    """Refuse models code that does anything but declare models (see ``_ALLOWED_MODULES``)."""
    try:
        module = ast.parse(source)
    except SyntaxError as exc:
        raise ModelGenerationError(f"generated models do not parse: {exc}") from exc
    known = set(_ALLOWED_BUILTINS)
    for node in module.body:
        if isinstance(node, ast.ImportFrom | ast.Import):
            modules = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [alias.name for alias in node.names]
            )
            for name in modules:
                if name not in _ALLOWED_MODULES:
                    raise ModelGenerationError(
                        f"generated models import {name!r} (rule: only "
                        f"{', '.join(sorted(_ALLOWED_MODULES))})"
                    )
            known.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ClassDef):
            known.add(node.name)
        elif (declared := _type_variable(node)) is not None:
            known.add(declared)
    for item in ast.walk(module):
        if isinstance(item, ast.Name) and isinstance(item.ctx, ast.Load) and item.id not in known:
            raise ModelGenerationError(
                f"generated models line {item.lineno} refer to {item.id!r}, which is not a "
                "model, an allowed import or a plain type (rule: models only declare models)"
            )
        if isinstance(item, ast.Attribute) and item.attr.startswith("_"):
            raise ModelGenerationError(
                f"generated models line {item.lineno} use attribute {item.attr!r} "
                "(rule: models only declare models)"
            )
        if isinstance(item, ast.Lambda | ast.NamedExpr | ast.Await | ast.Yield | ast.YieldFrom):
            raise ModelGenerationError(
                f"generated models line {item.lineno} hold a {type(item).__name__} "
                "(rule: models only declare models)"
            )
