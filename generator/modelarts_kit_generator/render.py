"""Render the IR to files: Jinja2 templates for the client, datamodel-code-generator for models.

The templates print what the IR decided: every spec-derived value arrives already escaped
for the file it is printed in (see :mod:`modelarts_kit_generator.escaping`); templates
have no filter that escapes or formats.
"""

from __future__ import annotations

import traceback
from pathlib import Path
from typing import Any

import jinja2
from modelarts_kit_wire.errors import KitError

from modelarts_kit_generator import cache
from modelarts_kit_generator.ir import ClientIR
from modelarts_kit_generator.lazymodels import split_models_into
from modelarts_kit_generator.manifest import MARKER, MARKER_TEXT, TEMPLATE_DIR
from modelarts_kit_generator.modelgen import add_to_classes, render_models

__all__ = ["TEMPLATE_DIR", "TemplateRenderError", "render_files"]

# Output file (relative to the output directory; {package} is the import package) ->
# template. models.py is not a template: datamodel-code-generator writes it, and the
# models only request bodies or one operation reach move to modules loaded on first use
# (ir.lazy_groups).
TEMPLATES: tuple[tuple[str, str], ...] = (
    ("pyproject.toml", "pyproject.toml.jinja"),
    ("README.md", "README.md.jinja"),
    ("{package}/__init__.py", "__init__.py.jinja"),
    ("{package}/py.typed", "py.typed.jinja"),
    ("{package}/errors.py", "errors.py.jinja"),
    ("{package}/auth.py", "auth.py.jinja"),
    ("{package}/_http.py", "_http.py.jinja"),
    ("{package}/_deadline.py", "_deadline.py.jinja"),
    ("{package}/_field_rules.py", "_field_rules.py.jinja"),
    ("{package}/client.py", "client.py.jinja"),
)
MODELS_FILE = "{package}/models.py"
# Rendered when the IR plans a show -> create copy (ir.copy).
COPY_TEMPLATE = ("{package}/_copy.py", "_copy.py.jinja")
# Rendered when the IR has iterators (ir.paging) and a follow helper (ir.follow).
PAGING_TEMPLATE = ("{package}/_paging.py", "_paging.py.jinja")
FOLLOW_TEMPLATE = ("{package}/_follow.py", "_follow.py.jinja")
# Not an output file: its macros print the code added to model classes.
MODEL_ADDITIONS_TEMPLATE = "_model_additions.py.jinja"


class TemplateRenderError(KitError):
    """A template failed to render; names the template and line."""

    def __init__(self, template: str, line: int | None, cause: jinja2.TemplateError) -> None:
        self.template = template
        self.line = line
        where = template if line is None else f"{template}:{line}"
        super().__init__(f"{where}: template error: {cause}")


def _template_line(exc: jinja2.TemplateError, template: str) -> int | None:
    """The template line of the failure (Jinja puts template frames in the traceback)."""
    line = getattr(exc, "lineno", None)
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename.endswith(template):
            line = frame.lineno
    return line if isinstance(line, int) else None


def environment(
    template_dir: Path = TEMPLATE_DIR, bytecode_dir: Path | None = None
) -> jinja2.Environment:
    """The Jinja environment; ``bytecode_dir`` keeps compiled templates between runs (Jinja
    checks each template's source, so an edited template is recompiled)."""
    bytecode_cache: jinja2.BytecodeCache | None = None
    if bytecode_dir is not None:
        try:
            bytecode_dir.mkdir(parents=True, exist_ok=True)
            bytecode_cache = jinja2.FileSystemBytecodeCache(str(bytecode_dir))
        except OSError:
            bytecode_cache = None  # an unwritable cache only costs speed
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir)),
        bytecode_cache=bytecode_cache,
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # the output is Python and TOML, not HTML
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    return env


def _model_additions(
    env: jinja2.Environment, ir: ClientIR
) -> tuple[dict[str, tuple[str, ...]], str]:
    """The code lines each model class gets (its field rules, the copy method), printed by
    the macros of :data:`MODEL_ADDITIONS_TEMPLATE`, and the import they need."""
    try:
        macros: Any = env.get_template(MODEL_ADDITIONS_TEMPLATE).module  # its macros
        additions = {
            name: tuple(str(macros.field_rules(rules)).splitlines())
            for name, rules in ir.field_rules.items()
        }
        if ir.copy is not None:
            method = str(macros.copy_method(ir.copy)).splitlines()
            additions[ir.copy.response_model] = (
                *additions.get(ir.copy.response_model, ()),
                *method,
            )
        imports = str(macros.field_rules_import()) if ir.field_rules else ""
    except jinja2.TemplateError as exc:
        line = _template_line(exc, MODEL_ADDITIONS_TEMPLATE)
        raise TemplateRenderError(MODEL_ADDITIONS_TEMPLATE, line, exc) from exc
    return additions, imports


def render_files(
    ir: ClientIR, template_dir: Path = TEMPLATE_DIR, *, use_cache: bool = True
) -> dict[str, str]:
    """Every output file's relative path and text, in a stable order."""
    cache_root = cache.cache_dir() if use_cache else None
    env = environment(template_dir, None if cache_root is None else cache_root / "jinja")
    package = ir.options.package
    files: dict[str, str] = {MARKER: MARKER_TEXT}
    optional = (
        *((COPY_TEMPLATE,) if ir.copy is not None else ()),
        *((PAGING_TEMPLATE,) if ir.paging else ()),
        *((FOLLOW_TEMPLATE,) if ir.follow is not None else ()),
    )
    for target, template in (*TEMPLATES, *optional):
        try:
            files[target.format(package=package)] = env.get_template(template).render(ir=ir)
        except jinja2.TemplateError as exc:
            raise TemplateRenderError(template, _template_line(exc, template), exc) from exc
    additions, imports = _model_additions(env, ir)
    models, lazy = split_models_into(
        add_to_classes(
            render_models(
                ir.model_schemas, ir.model_texts, header=ir.models_header, use_cache=use_cache
            ),
            additions,
            imports,
        ),
        {group.module: (group.models, group.header) for group in ir.lazy_groups},
        ir.eager_models,
    )
    files[MODELS_FILE.format(package=package)] = models
    for module, source in lazy.items():
        files[f"{package}/{module}.py"] = source
    return dict(sorted(files.items()))
