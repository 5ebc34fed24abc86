"""The product code of the repository, for tests that hold every package to one rule (sizes,
one pointer escaping): the kit's packages, their templates and assets, never data (the spec,
the ledger, pages), tests, scripts, benchmarks or the generated client (``generated/`` is
checked by ``generate --check``)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT_PACKAGES = (
    "cli/modelarts_kit",
    "contracts/modelarts_kit_contracts",
    "generator/modelarts_kit_generator",
    "publish/modelarts_kit_publish",
    "sdk/modelarts_kit_sdk",
    "server/modelarts_kit_server",
    "spec/modelarts_kit_spec",
    "vendordocs/modelarts_kit_vendordocs",
    "wire/modelarts_kit_wire",
)
PRODUCT_SUFFIXES = (".py", ".jinja", ".j2", ".js", ".css", ".html")


def product_files(suffixes: tuple[str, ...] = PRODUCT_SUFFIXES) -> list[Path]:
    """Every file of the product packages whose name ends with one of ``suffixes``."""
    return sorted(
        path
        for package in PRODUCT_PACKAGES
        for path in (ROOT / package).rglob("*")
        if path.is_file() and path.name.endswith(suffixes) and "__pycache__" not in path.parts
    )
