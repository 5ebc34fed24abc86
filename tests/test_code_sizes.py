"""Sizes of the product code (#37 item 5): no file, module or template over 700 lines, no
function over 100 lines. A file or function that grows past them is split into named parts
before it lands; the few functions still over the limit are listed with their size today, and
the list only shrinks (an entry that fits again, or grew, fails)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.product_code import ROOT, product_files

MAX_FILE_LINES = 700
MAX_FUNCTION_LINES = 100
# Left for their owners to split (areas other engineers were changing in the same session):
# (file, qualified function) -> its length when listed. Remove an entry once it is split.
KNOWN_LONG_FUNCTIONS: dict[tuple[str, str], int] = {
    ("spec/modelarts_kit_spec/diff_meaning.py", "_Compare.lifecycle"): 124,
    ("spec/modelarts_kit_spec/meaning.py", "_Reader.lifecycle"): 105,
    ("vendordocs/modelarts_kit_vendordocs/matching.py", "compare_operation"): 131,
}


def _line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def function_lengths(source: str) -> dict[str, int]:
    """Every function's and method's length in lines (decorators excluded), by qualified
    name (``Class.method``, ``outer.inner``)."""
    lengths: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = prefix + child.name
                assert child.end_lineno is not None
                lengths[name] = child.end_lineno - child.lineno + 1
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return lengths


def _long_functions() -> dict[tuple[str, str], int]:
    return {
        (path.relative_to(ROOT).as_posix(), name): length
        for path in product_files((".py",))
        for name, length in function_lengths(path.read_text(encoding="utf-8")).items()
        if length > MAX_FUNCTION_LINES
    }


def test_no_product_file_is_over_700_lines() -> None:
    long_files = {
        path.relative_to(ROOT).as_posix(): lines
        for path in product_files()
        if (lines := _line_count(path)) > MAX_FILE_LINES
    }
    assert long_files == {}


def test_no_product_function_is_over_100_lines_but_the_listed_ones() -> None:
    assert _long_functions() == KNOWN_LONG_FUNCTIONS


def test_the_product_code_is_found() -> None:
    files = product_files()
    assert len(files) > 200
    assert ROOT / "generator/modelarts_kit_generator/templates/_http.py.jinja" in files


def test_the_function_measure_counts_nested_functions_and_methods() -> None:
    body = "\n".join(f"        x = {i}" for i in range(101))
    source = f"class A:\n    def m(self):\n{body}\n\ndef f():\n    def g():\n        pass\n"
    lengths = function_lengths(source)
    assert lengths["A.m"] == 102
    assert lengths["f"] == 3
    assert lengths["f.g"] == 2
