"""The ``modelarts_kit_spec`` package imports its names on first use (issue 17)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import modelarts_kit_spec
import pytest
from modelarts_kit_spec.lazy import module_of

from tests.fresh_process import printed_in_a_fresh_process


def test_every_public_name_resolves_from_the_module_that_defines_it() -> None:
    for name in modelarts_kit_spec.__all__:
        value = getattr(modelarts_kit_spec, name)
        home = modelarts_kit_spec._HOMES[name]
        module = sys.modules[module_of("modelarts_kit_spec", home)]
        assert getattr(module, name) is value, name
    assert set(modelarts_kit_spec._HOMES) == set(modelarts_kit_spec.__all__)
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        modelarts_kit_spec.nothing_here  # noqa: B018


def test_type_checkers_see_what_runtime_resolves() -> None:
    """The ``if TYPE_CHECKING:`` imports (what mypy and editors see) name each public name
    from the same module as ``_HOMES`` (what the program gets)."""
    tree = ast.parse(Path(modelarts_kit_spec.__file__).read_text(encoding="utf-8"))
    seen: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("modelarts_kit_"):
            for alias in node.names:
                seen[alias.asname or alias.name] = node.module or ""
    homes = {
        name: module_of("modelarts_kit_spec", home)
        for name, home in modelarts_kit_spec._HOMES.items()
    }
    assert seen == homes


def test_the_error_bases_are_the_wire_layers() -> None:
    """``KitError`` moved to the wire layer (#27); the spec's top level still names it, and
    the spec's own errors subclass it."""
    from modelarts_kit_wire import errors

    assert modelarts_kit_spec.KitError is errors.KitError
    assert modelarts_kit_spec.FindingsError is errors.FindingsError
    assert issubclass(modelarts_kit_spec.SpecError, errors.KitError)
    assert issubclass(modelarts_kit_spec.MeaningError, errors.KitError)


def test_the_error_base_and_the_spec_path_load_nothing_heavy() -> None:
    code = (
        "import sys\n"
        "from modelarts_kit_spec import KitError\n"
        "from modelarts_kit_spec import SPEC_PATH\n"
        "assert SPEC_PATH.name == 'openapi.yaml'\n"
        "print(sorted(m for m in ('yaml', 'jsonschema', 'modelarts_kit_spec.load',"
        " 'modelarts_kit_spec.meaning', 'modelarts_kit_spec.ledger') if m in sys.modules))\n"
    )
    assert printed_in_a_fresh_process(code) == ["[]"]
