"""The models module split for loading on first use: the classes only request bodies or
one operation reach move to their own modules (the IR's
:func:`~modelarts_kit_generator.ir.lazy.lazy_groups`), and ``models`` names them for type
checkers and loads them at first access (PEP 562 ``__getattr__``)."""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass

from modelarts_kit_generator.modelgen import DEFERRED_ROOT, ModelGenerationError

__all__ = ["LAZY_GETATTR", "split_models", "split_models_into"]


def split_models(
    source: str, lazy: Collection[str], *, lazy_module: str, lazy_header: str
) -> tuple[str, str | None]:
    """Split the models module into the one the package imports and ``lazy_module``, which
    holds the classes named in ``lazy`` and is loaded on first use (one group of
    :func:`split_models_into`). Returns ``(models source, lazy module source or None when
    nothing is lazy)``."""
    eager, modules = split_models_into(source, {lazy_module: (lazy, lazy_header)})
    return eager, modules.get(lazy_module)


def split_models_into(
    source: str,
    groups: Mapping[str, tuple[Collection[str], str]],
    eager: Collection[str] = (),
) -> tuple[str, dict[str, str]]:
    """Split the models module into the one the package imports and one module per group
    (``groups``: module name -> (the classes it holds, its docstring literal)), each loaded
    on first use. ``eager`` names classes the package imports: a group's classes may refer
    to them, and they never move (nor what only they reach).

    Each group must be closed downwards: no class outside it may refer to one of its
    classes (the IR's :func:`~modelarts_kit_generator.ir.lazy.lazy_groups` are). A lazy
    module keeps the source's imports (ruff removes the unused ones) and imports the other
    classes it refers to from ``models``; ``models`` names the lazy classes for type
    checkers (``TYPE_CHECKING``) and resolves them at first access (PEP 562
    ``__getattr__``), so ``from <package>.models import X`` works for every class as before.
    Returns ``(models source, {module name: its source})``, without the empty groups.
    """
    groups = {module: group for module, group in groups.items() if group[0]}
    if not groups:
        return source, {}
    parsed = _ParsedModels.of(source)
    planned = {name for names, _ in groups.values() for name in names}
    unknown = sorted(planned - parsed.classes)
    if unknown:
        raise ModelGenerationError(f"no model class to load lazily is named {unknown[0]!r}")
    refers = parsed.references()
    home = _homes(groups, refers, eager)
    eager_parts: list[str] = []
    lazy_parts: dict[str, list[str]] = {name: [] for name in groups}
    needed: dict[str, set[str]] = {name: set() for name in groups}
    for owner, text in parsed.statements():
        target = home.get(owner) if owner is not None else None
        if target is not None:
            lazy_parts[target].append(text)
            needed[target] |= refers.get(str(owner), set()) - set(home)
        else:
            eager_parts.append(text)
    models = (
        parsed.prelude
        + _type_checking_imports(groups, home)
        + "".join(eager_parts).rstrip("\n")
        + "\n"
        + _facade(parsed.classes, home)
    )
    sources = {
        name: _lazy_module(header, parsed.imports, needed[name], lazy_parts[name], home, name)
        for name, (_, header) in groups.items()
    }
    return models, sources


@dataclass(frozen=True)
class _ParsedModels:
    """The models module datamodel-code-generator wrote, read once: its lines, statements,
    the prelude above the first class (docstring, imports) and its imports alone."""

    lines: list[str]
    body: list[ast.stmt]
    first_code: int  # index of the first statement that is not an import or the docstring
    prelude_end: int  # line index where that statement (or its decorators) starts
    classes: frozenset[str]

    @classmethod
    def of(cls, source: str) -> _ParsedModels:
        try:
            module = ast.parse(source)
        except SyntaxError as exc:
            raise ModelGenerationError(f"generated models do not parse: {exc}") from exc
        body = module.body
        first_code = next(
            index
            for index, node in enumerate(body)
            if not isinstance(node, ast.Import | ast.ImportFrom)
            and not (index == 0 and isinstance(node, ast.Expr))
        )
        first = body[first_code]
        return cls(
            lines=source.splitlines(keepends=True),
            body=body,
            first_code=first_code,
            prelude_end=first.lineno - 1 - len(getattr(first, "decorator_list", [])),
            classes=frozenset(node.name for node in body if isinstance(node, ast.ClassDef)),
        )

    @property
    def prelude(self) -> str:
        return "".join(self.lines[: self.prelude_end])

    @property
    def imports(self) -> str:
        return "".join(
            "".join(self.lines[node.lineno - 1 : node.end_lineno])
            for node in self.body[: self.first_code]
            if isinstance(node, ast.Import | ast.ImportFrom)
        )

    def references(self) -> dict[str, set[str]]:
        """Each class's (or its statements') references to other model classes."""
        refers: dict[str, set[str]] = {}
        for node in self.body[self.first_code :]:
            owner = _statement_owner(node)
            if owner is not None:
                names = {item.id for item in ast.walk(node) if isinstance(item, ast.Name)}
                refers.setdefault(owner, set()).update(names & self.classes)
        return refers

    def statements(self) -> Iterator[tuple[str | None, str]]:
        """Every statement after the prelude, as ``(owner class or None, its text)``; the
        text runs from the end of the previous statement, blank lines and comments included."""
        start = self.prelude_end
        for node in self.body[self.first_code :]:
            assert node.end_lineno is not None
            yield _statement_owner(node), "".join(self.lines[start : node.end_lineno])
            start = node.end_lineno


def _homes(
    groups: Mapping[str, tuple[Collection[str], str]],
    refers: Mapping[str, set[str]],
    eager: Collection[str],
) -> dict[str, str]:
    """The lazy module each moved class goes to. datamodel-code-generator adds classes of
    its own (numbered variants of a union): they go where the classes that use them go, by
    the same rule as the IR's."""
    home: dict[str, str] = {}
    for name, (lazy, _) in groups.items():
        moved = _only_reached_from(set(lazy), refers, set(eager)) - {DEFERRED_ROOT}
        kept = sorted(set(lazy) - moved)
        if kept:
            raise ModelGenerationError(
                f"model {kept[0]!r} was planned to load lazily, but a model outside its "
                "group refers to it (rule: what the package imports never needs a lazy module, "
                "and a lazy module never needs another)"
            )
        home.update(dict.fromkeys(moved, name))
    return home


def _type_checking_imports(groups: Iterable[str], home: Mapping[str, str]) -> str:
    """``models`` names the lazy classes for type checkers only."""
    listed = "".join(
        f"    from .{name} import (\n"
        + "".join(f"        {cls},\n" for cls in sorted(c for c, h in home.items() if h == name))
        + "    )\n"
        for name in groups
    )
    return f"from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n{listed}\n"


def _facade(classes: Collection[str], home: Mapping[str, str]) -> str:
    """The end of ``models``: every class in ``__all__``, the lazy ones loaded on access."""
    exported = "".join(f'    "{name}",\n' for name in sorted(set(classes) - {DEFERRED_ROOT}))
    lazy_map = "".join(f'    "{cls}": "{home[cls]}",\n' for cls in sorted(home))
    return (
        f"\n\n__all__ = [\n{exported}]\n\n"
        "# Loaded on first access, with the module that holds them: the models of one\n"
        "# operation (or only request bodies use them) and nothing the package imports needs.\n"
        f"_LAZY_MODELS: dict[str, str] = {{\n{lazy_map}}}\n\n\n"
        f"{LAZY_GETATTR}"
    )


def _lazy_module(
    header: str,
    imports: str,
    needed: Collection[str],
    parts: list[str],
    home: Mapping[str, str],
    name: str,
) -> str:
    """A lazy module's source: its docstring, the models' imports, the classes of ``models``
    it refers to, its classes and its ``__all__``."""
    own_imports = "".join(f"    {cls},\n" for cls in sorted(needed))
    return (
        f"{header}\n\n{imports}"
        + (f"\nfrom .models import (\n{own_imports})\n" if needed else "")
        + "".join(parts).rstrip("\n")
        + "\n\n__all__ = [\n"
        + "".join(f'    "{cls}",\n' for cls in sorted(c for c, h in home.items() if h == name))
        + "]\n"
    )


LAZY_GETATTR = '''def __getattr__(name: str) -> object:
    """A model of ``_LAZY_MODELS``, loaded with its module on first access (PEP 562)."""
    module = _LAZY_MODELS.get(name)
    if module is not None:
        from importlib import import_module

        value: object = getattr(import_module("." + module, __package__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY_MODELS})
'''


def _only_reached_from(
    roots: set[str], refers: Mapping[str, set[str]], avoid: Collection[str] = ()
) -> set[str]:
    """What ``roots`` reach in ``refers`` (name -> names it refers to) that nothing else
    reaches, never going through a class of ``avoid``."""

    def reach(names: set[str], avoid: Collection[str] = ()) -> set[str]:
        found: set[str] = set()
        pending = list(names)
        while pending:
            name = pending.pop()
            if name not in found:
                found.add(name)
                pending.extend(n for n in refers.get(name, ()) if n not in avoid)
        return found

    from_roots = reach(roots, avoid)
    return from_roots - reach(set(refers) - from_roots)


def _statement_owner(node: ast.stmt) -> str | None:
    """The class a top-level statement belongs to: its own name for a class, the class of
    ``X.model_rebuild()``; None for anything else (type variables, the deferred base)."""
    if isinstance(node, ast.ClassDef):
        return node.name
    if (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and isinstance(node.value.func.value, ast.Name)
    ):
        return node.value.func.value.id
    return None
