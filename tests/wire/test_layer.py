"""The wire layer is the kit's bottom floor (#27): errors, wire JSON, signing, headers and
redaction live there once, import nothing of the kit, and every public name users had stays
importable where it was."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil

import modelarts_kit_wire
import pytest

from tests.fresh_process import printed_in_a_fresh_process

KIT_PACKAGES = (
    "modelarts_kit_spec",
    "modelarts_kit_contracts",
    "modelarts_kit_server",
    "modelarts_kit_publish",
    "modelarts_kit_sdk",
    "modelarts_kit_vendordocs",
    "modelarts_kit_generator",
)
# Where these lived before the wire layer took them: no shim is left behind.
MOVED = (
    "modelarts_kit_spec.errors",
    "modelarts_kit_spec.wirejson",
    "modelarts_kit_spec.signing",
    "modelarts_kit_contracts.core.redaction",
    "modelarts_kit_spec.recent",
)


@pytest.mark.parametrize("package", KIT_PACKAGES)
def test_every_public_name_of_a_package_top_level_resolves(package: str) -> None:
    module = importlib.import_module(package)
    missing = [name for name in getattr(module, "__all__", ()) if not hasattr(module, name)]
    assert missing == []


@pytest.mark.parametrize("module", MOVED)
def test_a_moved_module_is_not_left_as_a_shim(module: str) -> None:
    assert importlib.util.find_spec(module) is None


def test_the_wire_layer_loads_no_kit_package() -> None:
    modules = [
        info.name
        for info in pkgutil.iter_modules(modelarts_kit_wire.__path__, "modelarts_kit_wire.")
    ]
    assert {"modelarts_kit_wire.errors", "modelarts_kit_wire.redaction"} <= set(modules)
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.startswith('modelarts_')"
        " and not m.startswith('modelarts_kit_wire')))\n"
    )
    assert printed_in_a_fresh_process(code) == ["[]"]
