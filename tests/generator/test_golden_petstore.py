"""The Petstore client as a golden record, file by file, as openapi-python-client keeps its own.

``golden/petstore/`` is the generator's whole output for ``fixtures/petstore.yaml`` (a public
document unlike the ModelArts spec), committed. It is type-checked with the rest of ``tests/``
(``mypy --strict``) and linted by ruff; this test regenerates it and fails on any difference,
printing a unified diff per file. After an intended generator change, rewrite it with
``pytest tests/generator/test_golden_petstore.py --snapshot-update`` (syrupy's switch, the same
as for every other snapshot) or ``MODELARTS_KIT_UPDATE_GOLDEN=1``, and review the diff.

``.modelarts-kit-manifest.json`` is left out: it records hashes of the generator's own source,
which change with any refactoring that leaves the client alone. (The generator's manifest of
output hashes is what ``generate --check`` trusts; this record is the check that does not.)
"""

from __future__ import annotations

import difflib
import os
import shutil
from pathlib import Path

import pytest
from modelarts_kit_generator import GeneratorOptions, generate

FIXTURES = Path(__file__).parent / "fixtures"
GOLDEN = Path(__file__).parent / "golden" / "petstore"
LEFT_OUT = {".modelarts-kit-manifest.json"}
OPTIONS = GeneratorOptions(
    package="petstore_client",
    distribution="petstore-client",
    client_name="Petstore",
    error_base="PetstoreError",
)


def _files(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(root.rglob("*"))
        if path.is_file()
        and path.relative_to(root).as_posix() not in LEFT_OUT
        # Tools' caches (__pycache__, .ruff_cache, .mypy_cache) are not the generator's output.
        and not any(
            part == "__pycache__" or part.startswith(".")
            for part in path.relative_to(root).parent.parts
        )
    }


def _update_requested(config: pytest.Config) -> bool:
    return bool(config.getoption("--snapshot-update")) or bool(
        os.environ.get("MODELARTS_KIT_UPDATE_GOLDEN")
    )


def test_petstore_client_matches_the_golden_record(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    out = tmp_path / "petstore"
    generate(out, FIXTURES / "petstore.yaml", OPTIONS)
    generated = _files(out)
    if _update_requested(request.config):
        shutil.rmtree(GOLDEN, ignore_errors=True)
        for name, text in generated.items():
            (GOLDEN / name).parent.mkdir(parents=True, exist_ok=True)
            (GOLDEN / name).write_text(text, encoding="utf-8")
    golden = _files(GOLDEN)
    assert sorted(generated) == sorted(golden), "the generator writes other files than the record"
    diffs = [
        "".join(
            difflib.unified_diff(
                golden[name].splitlines(keepends=True),
                generated[name].splitlines(keepends=True),
                fromfile=f"golden/petstore/{name}",
                tofile=f"generated/{name}",
            )
        )
        for name in sorted(golden)
        if golden[name] != generated[name]
    ]
    assert not diffs, "the Petstore client differs from its golden record:\n" + "\n".join(diffs)
