"""Spec -> IR -> files -> staging directory -> verified -> swapped into place.

A generation that fails at any step (bad spec, template error, code that does not pass
ruff, compile or import) leaves the output directory exactly as it was.

The output directory is replaced whole, so the generator only replaces a directory it
made itself: every output holds the marker file ``manifest.MARKER``. An existing,
non-empty directory without it is refused (nothing is touched) unless ``force`` is given;
even then a directory that is or holds the current working directory, the home directory
or the spec being read is refused.
"""

from __future__ import annotations

# The standard-library modules only a generation uses (subprocess, threads, tempfile,
# difflib...) are imported where they are used: `generate --check` answered from the
# manifest loads none of them.
import dataclasses
import gc
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from modelarts_kit_wire.errors import KitError

from modelarts_kit_generator import manifest
from modelarts_kit_generator.options import GeneratorOptions

if TYPE_CHECKING:
    import pydantic

    from modelarts_kit_generator.ir import ClientIR

__all__ = [
    "TEMPLATE_DIR",
    "GenerationError",
    "check",
    "check_output_directory",
    "default_output",
    "generate",
    "render_to",
    "up_to_date",
]

_REPO_ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_DIR = manifest.TEMPLATE_DIR


class GenerationError(KitError):
    """The client could not be generated; the message says which input and which rule."""


def default_output() -> Path:
    """``generated/`` of the repository this package runs from, else of the current directory."""
    if (_REPO_ROOT / "generator").is_dir() and (_REPO_ROOT / "pyproject.toml").is_file():
        return _REPO_ROOT / "generated"
    return Path.cwd() / "generated"


def check_output_directory(out: Path, spec_path: Path | None, *, force: bool) -> None:
    """Refuse to replace ``out`` unless it is absent, empty or made by the generator."""
    out = out.resolve()
    protected = [("the current directory", Path.cwd()), ("the home directory", Path.home())]
    if spec_path is not None:
        protected.append(("the spec", spec_path))
    for label, path in protected:
        path = path.resolve()
        if path == out or out in path.parents:
            raise GenerationError(
                f"{out}: refusing to replace a directory that is or holds {label} ({path}) "
                "(rule: --out must be a directory of its own; --force does not change this)"
            )
    try:
        if not out.exists():
            return
        if not out.is_dir():
            raise GenerationError(f"{out}: exists and is not a directory")
        if force or next(out.iterdir(), None) is None:
            return
        if (out / manifest.MARKER).is_file() or (out / manifest.MANIFEST_NAME).is_file():
            return
    except OSError as exc:
        raise GenerationError(f"{out}: cannot read: {exc.strerror or exc}") from exc
    raise GenerationError(
        f"{out}: not empty and not made by `modelarts-kit generate` (no {manifest.MARKER} "
        "file); nothing was touched. Choose a new or empty directory, or pass --force to "
        "replace it"
    )


def _load_ir(spec_path: Path | None, options: GeneratorOptions) -> ClientIR:
    from modelarts_kit_spec import SpecError, load_spec

    from modelarts_kit_generator.escaping import UnrepresentableText
    from modelarts_kit_generator.ir import build_ir

    try:
        return build_ir(load_spec(spec_path), options)
    except (SpecError, UnrepresentableText) as exc:
        raise GenerationError(f"spec: {exc}") from exc
    except KeyError as exc:
        raise GenerationError(f"spec: unresolvable reference: {exc.args[0]}") from exc


def _options(options: GeneratorOptions | None) -> GeneratorOptions:
    return options or GeneratorOptions()


def _manifest_inputs(
    spec_path: Path | None, options: GeneratorOptions, template_dir: Path
) -> dict[str, object]:
    from modelarts_kit_spec import SPEC_PATH

    path = spec_path or SPEC_PATH
    try:
        spec_bytes = path.read_bytes()
    except OSError as exc:
        raise GenerationError(f"{path}: cannot read: {exc.strerror}") from exc
    return manifest.inputs(spec_bytes, dataclasses.asdict(options), template_dir)


def render_to(
    directory: Path,
    spec_path: Path | None = None,
    options: GeneratorOptions | None = None,
    template_dir: Path = TEMPLATE_DIR,
    *,
    use_cache: bool = True,
) -> list[str]:
    """Render, format and verify the package into ``directory`` (which must be empty or
    absent), with its manifest. Returns the relative paths written.

    With ``use_cache``, a package whose rendered sources were formatted and verified
    before is taken from the cache (see :mod:`modelarts_kit_generator.cache`).
    """
    with _cycle_collection_paused():
        return _render_to(directory, spec_path, options, template_dir, use_cache=use_cache)


@contextmanager
def _cycle_collection_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for one generation.

    A generation allocates millions of short-lived objects (datamodel-code-generator's
    parse, pydantic building ~100 model classes twice) that reference counting frees;
    meanwhile the collector's passes keep re-scanning a heap that holds both libraries,
    about a tenth of a cold generation's CPU time, to reclaim ~7 MB. The collector's
    previous state is restored afterwards (it then collects as usual)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _render_to(
    directory: Path,
    spec_path: Path | None,
    options: GeneratorOptions | None,
    template_dir: Path,
    *,
    use_cache: bool,
) -> list[str]:
    from modelarts_kit_generator import cache
    from modelarts_kit_generator.modelgen import ModelGenerationError
    from modelarts_kit_generator.render import TemplateRenderError, render_files

    options = _options(options)
    ir = _load_ir(spec_path, options)
    try:
        files = render_files(ir, template_dir, use_cache=use_cache)
    except TemplateRenderError as exc:
        raise GenerationError(str(exc)) from exc
    except ModelGenerationError as exc:
        raise GenerationError(str(exc)) from exc
    use_cache = use_cache and cache.cache_dir() is not None
    key = cache.fingerprint("package", files) if use_cache else ""
    finished = cache.load(key) if use_cache else None
    if finished is not None and finished.keys() == files.keys():
        _write(directory, finished)
    else:
        _format_and_verify(directory, files, ir.options.package)
        if use_cache:
            cache.store(
                key, {name: (directory / name).read_text(encoding="utf-8") for name in files}
            )
    inputs = _manifest_inputs(spec_path, options, template_dir)
    written = {name: (directory / name).read_bytes() for name in files}
    _write(directory, {manifest.MANIFEST_NAME: manifest.render(inputs, written)})
    return [*files, manifest.MANIFEST_NAME]


def _write(directory: Path, files: dict[str, str]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for relative, text in files.items():
        target = directory / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")


def _ruff_command() -> list[str]:
    """The ruff executable (the binary itself: a Python wrapper would cost a startup)."""
    try:
        from ruff.__main__ import find_ruff_bin  # type: ignore[import-untyped]
    except ImportError:
        return [sys.executable, "-m", "ruff"]
    return [str(find_ruff_bin())]


def _ruff(directory: Path, *arguments: str) -> None:
    import subprocess

    config = directory / "pyproject.toml"
    command = [*_ruff_command(), *arguments, "--no-cache", "--config", str(config), str(directory)]
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise GenerationError(f"cannot run ruff ({command[0]}): {exc.strerror or exc}") from exc
    if result.returncode != 0:
        output = (result.stdout + result.stderr).replace(str(directory) + os.sep, "").strip()
        raise GenerationError(
            f"generated code fails `ruff {arguments[0]}` (exit {result.returncode}):\n"
            + (output or "(ruff printed nothing)")
        )


def _sources(directory: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in sorted(directory.rglob("*.py"))}


def _format(directory: Path) -> None:
    """Format, then lint with fixes (import order, modern syntax), then format again only if
    a fix changed anything. Settings come from the rendered pyproject.toml, so the result
    does not depend on where generation runs."""
    # No --quiet for format: it would also silence the error (a file ruff cannot parse).
    _ruff(directory, "format")
    formatted = _sources(directory)
    _ruff(directory, "check", "--fix", "--quiet")
    if _sources(directory) != formatted:
        _ruff(directory, "format")


def _format_and_verify(directory: Path, files: dict[str, str], package: str) -> None:
    """Write ``files`` to ``directory`` and format them there while, at the same time, the
    same files are imported and every validator built from a private copy.

    ruff runs as its own process, so the two overlap on a second core (about the cost of
    ruff saved from every cold generation). Verifying the rendered rather than the
    formatted bytes is sound because ruff's formatter keeps the AST and its fixes are the
    safe ones; the formatted files are still compiled afterwards.
    """
    import tempfile
    from concurrent.futures import ThreadPoolExecutor

    _write(directory, files)
    with tempfile.TemporaryDirectory(prefix="modelarts-kit-verify-") as temp:
        unformatted = Path(temp)
        _write(unformatted, files)
        with ThreadPoolExecutor(max_workers=1) as pool:
            formatting = pool.submit(_format, directory)
            try:
                _verify(unformatted, package)
            finally:
                formatted = formatting.exception()
        if formatted is not None:
            raise formatted
    for name in files:
        if name.endswith(".py"):
            try:
                compile((directory / name).read_bytes(), name, "exec", dont_inherit=True)
            except SyntaxError as exc:
                raise GenerationError(f"formatted code does not compile: {exc}") from exc


def _verify(directory: Path, package: str) -> None:
    """Import the package under a private name, resolve every name it exports (which loads
    the modules it loads on first access), compile any module that did not reach, and build
    every model's validator (the models defer that to first use, so a schema pydantic cannot
    build would otherwise surface only in a user's program)."""
    import importlib.util
    import uuid

    import pydantic  # only a verification needs it (a cached result does not)

    package_dir = directory / package
    alias = f"_modelarts_kit_verify_{uuid.uuid4().hex}"
    spec = importlib.util.spec_from_file_location(
        alias, package_dir / "__init__.py", submodule_search_locations=[str(package_dir)]
    )
    if spec is None or spec.loader is None:
        raise GenerationError(f"{package_dir}: cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    writes_bytecode = sys.dont_write_bytecode
    sys.dont_write_bytecode = True  # no __pycache__ in the output
    try:
        spec.loader.exec_module(module)
        # The request-body models load on first access: their classes are built below too.
        for name in getattr(module, "__all__", ()):
            getattr(module, name)
        loaded = {
            name: sys.modules[name]
            for name in sorted(sys.modules)
            if name == alias or name.startswith(alias + ".")
        }
        for path in sorted(package_dir.rglob("*.py")):
            parts = path.relative_to(package_dir).with_suffix("").parts
            dotted = (
                ".".join((alias, *parts[:-1]))
                if parts[-1] == "__init__"
                else ".".join((alias, *parts))
            )
            if dotted not in loaded:
                compile(path.read_text(encoding="utf-8"), str(path.relative_to(directory)), "exec")
        _build_validators(
            value
            for name, loaded_module in loaded.items()
            for value in vars(loaded_module).values()
            if isinstance(value, type)
            and issubclass(value, pydantic.BaseModel)
            and value.__module__ == name
        )
    except SyntaxError as exc:
        raise GenerationError(f"generated code does not compile: {exc}") from exc
    except GenerationError:
        raise
    except Exception as exc:  # any import or build failure means broken output; cause kept
        raise GenerationError(
            f"generated package does not import: {type(exc).__name__}: {exc}"
        ) from exc
    finally:
        sys.dont_write_bytecode = writes_bytecode
        for name in [n for n in sys.modules if n == alias or n.startswith(alias + ".")]:
            del sys.modules[name]


def _build_validators(models: Iterable[type[pydantic.BaseModel]]) -> None:
    """Build the validator of every model no other model contains: building one builds the
    schema of every model it contains, so each schema is built (and checked) once without
    rebuilding shared parts for every model."""
    import typing

    import pydantic
    import pydantic_core

    candidates = list(models)
    contained: set[type[pydantic.BaseModel]] = set()
    for model in candidates:
        pending = [field.annotation for field in model.model_fields.values()]
        while pending:
            annotation = pending.pop()
            if isinstance(annotation, type) and issubclass(annotation, pydantic.BaseModel):
                contained.add(annotation)
            pending.extend(typing.get_args(annotation))
    for model in candidates:
        if model not in contained:
            try:
                model.model_rebuild(force=True)
            except pydantic.PydanticUserError as exc:
                raise GenerationError(
                    f"generated model {model.__name__} does not build: {exc}"
                ) from exc
            except pydantic_core.SchemaError as exc:
                raise GenerationError(
                    f"generated model {model.__name__} does not build: {exc}"
                ) from exc


@contextmanager
def _staging(parent: Path) -> Iterator[Path]:
    import shutil
    import tempfile

    parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".generate-staging-", dir=parent))
    try:
        yield staging
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def generate(
    out: Path,
    spec_path: Path | None = None,
    options: GeneratorOptions | None = None,
    template_dir: Path = TEMPLATE_DIR,
    *,
    use_cache: bool = True,
    force: bool = False,
) -> list[str]:
    """Generate into ``out`` atomically: staging, verify, then swap.

    ``out`` must be absent, empty or made by the generator (see
    :func:`check_output_directory`); ``force`` replaces any other directory."""
    out = out.resolve()
    check_output_directory(out, spec_path, force=force)
    try:
        with _staging(out.parent) as staging:
            rendered = staging / "package"
            files = render_to(rendered, spec_path, options, template_dir, use_cache=use_cache)
            backup = staging / "previous"
            if out.exists():
                os.replace(out, backup)
            try:
                os.replace(rendered, out)
            except OSError:
                if backup.exists():
                    os.replace(backup, out)
                raise
    except OSError as exc:
        raise GenerationError(f"{out}: cannot write: {exc.strerror or exc}") from exc
    return files


def up_to_date(
    out: Path,
    spec_path: Path | None = None,
    options: GeneratorOptions | None = None,
    template_dir: Path = TEMPLATE_DIR,
) -> bool:
    """True when ``out``'s manifest shows it is what generation would write: the inputs
    hash as it records and so does every file (nothing rendered, no spec loaded)."""
    inputs = _manifest_inputs(spec_path, _options(options), template_dir)
    return manifest.up_to_date(out, inputs)


def check(
    out: Path,
    spec_path: Path | None = None,
    options: GeneratorOptions | None = None,
    template_dir: Path = TEMPLATE_DIR,
    *,
    use_cache: bool = True,
) -> str:
    """Diff ``out`` against what generation would write; "" when they match.

    With ``use_cache``, ``out``'s manifest answers first: when the inputs and every file
    hash as it records, nothing is rendered. Otherwise (and always without ``use_cache``)
    the package is rendered to a temporary directory and diffed file by file (see
    :mod:`modelarts_kit_generator.manifest`).
    """
    options = _options(options)
    if use_cache and up_to_date(out, spec_path, options, template_dir):
        return ""
    import difflib
    import tempfile

    with tempfile.TemporaryDirectory(prefix="modelarts-kit-check-") as temp:
        rendered = Path(temp) / "package"
        render_to(rendered, spec_path, options, template_dir, use_cache=use_cache)
        expected, actual = manifest.read_tree(rendered), manifest.read_tree(out)
    label = out.name
    chunks: list[str] = []
    for name in sorted(expected.keys() | actual.keys()):
        old, new = actual.get(name), expected.get(name)
        if old == new:
            continue
        fromfile = f"a/{label}/{name}" if old is not None else "/dev/null"
        tofile = f"b/{label}/{name}" if new is not None else "/dev/null"
        lines = list(
            difflib.unified_diff(
                [] if old is None else old.decode("utf-8", "replace").splitlines(keepends=True),
                [] if new is None else new.decode("utf-8", "replace").splitlines(keepends=True),
                fromfile=fromfile,
                tofile=tofile,
            )
        )
        # An empty file added or removed has no lines to diff; its header still tells.
        chunks.extend(lines or [f"--- {fromfile}\n", f"+++ {tofile}\n"])
    return "".join(line if line.endswith("\n") else line + "\n" for line in chunks)
