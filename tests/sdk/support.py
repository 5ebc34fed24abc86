"""Hand-made SDK releases: model modules written like the vendor's, packed as real wheels."""

from __future__ import annotations

import re
import shutil
import zipfile
from importlib import metadata
from pathlib import Path

from modelarts_kit_sdk.sources import DISTRIBUTION, MODEL_PACKAGE

Models = dict[str, dict[str, str | tuple[str, str]]]  # class -> attribute -> type | (type, wire)


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def model_module(name: str, attributes: dict[str, str | tuple[str, str]]) -> str:
    """A model module shaped like the SDK's generated ones (literal dicts in the class body)."""
    types = {a: (t if isinstance(t, str) else t[0]) for a, t in attributes.items()}
    wires = {a: (a if isinstance(t, str) else t[1]) for a, t in attributes.items()}
    return (
        "# coding: utf-8\n\n"
        "from huaweicloudsdkcore.utils.http_utils import sanitize_for_serialization\n\n\n"
        f"class {name}:\n"
        "    sensitive_list = []\n\n"
        f"    openapi_types = {types!r}\n\n"
        f"    attribute_map = {wires!r}\n\n"
        "    def __init__(self):\n"
        "        raise RuntimeError('model code must not run')\n"
    )


def write_package(root: Path, models: Models) -> Path:
    """Write ``huaweicloudsdkmodelarts/v1/model`` with one module per class under ``root``."""
    package = root / MODEL_PACKAGE
    package.mkdir(parents=True)
    prefix = MODEL_PACKAGE.replace("/", ".")
    lines = ["# coding: utf-8", "", "from __future__ import absolute_import", ""]
    for name, attributes in models.items():
        stem = _snake(name)
        (package / f"{stem}.py").write_text(model_module(name, attributes), encoding="utf-8")
        lines.append(f"from {prefix}.{stem} import {name}")
    (package / "__init__.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def build_wheel(root: Path, version: str, out_dir: Path) -> Path:
    """Pack the ``huaweicloudsdkmodelarts`` tree under ``root`` as a wheel (not installed)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    wheel = out_dir / f"{DISTRIBUTION}-{version}-py3-none-any.whl"
    info = f"{DISTRIBUTION}-{version}.dist-info"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted((root / DISTRIBUTION).rglob("*.py")):
            archive.write(path, path.relative_to(root).as_posix())
        archive.writestr(
            f"{info}/METADATA",
            f"Metadata-Version: 2.1\nName: {DISTRIBUTION}\nVersion: {version}\n",
        )
        archive.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\n")
    return wheel


def fake_wheel(tmp_path: Path, models: Models, version: str = "0.0.1") -> Path:
    root = write_package(tmp_path / f"src-{version}", models)
    return build_wheel(root, version, tmp_path / "wheels")


def copy_installed(tmp_path: Path) -> Path:
    """A copy of the installed SDK's package tree (Python sources only) under a new root."""
    dist = metadata.distribution(DISTRIBUTION)
    source = Path(str(dist.locate_file(DISTRIBUTION)))
    root = tmp_path / "copy"
    shutil.copytree(source, root / DISTRIBUTION, ignore=shutil.ignore_patterns("__pycache__"))
    return root
