"""The published spec generates with the field's usual tools, and their models keep open enums
open: datamodel-code-generator (``Literal[...] | str``) and openapi-python-client (a union of the
documented-values enum and ``str``). OpenAPI Generator is checked by hand (JVM start-up is too
slow for the suite; the command is in the README, "Using the published spec with other tools")."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from modelarts_kit_spec import SPEC_PATH


@pytest.fixture(scope="module")
def datamodel_module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from datamodel_code_generator import LiteralType, generate
    from datamodel_code_generator.enums import DataModelType, InputFileType

    out = tmp_path_factory.mktemp("dmcg") / "dmcg_models.py"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # notices about future defaults
        generate(
            SPEC_PATH.read_text(encoding="utf-8"),
            input_file_type=InputFileType.OpenAPI,
            output=out,
            output_model_type=DataModelType.PydanticV2BaseModel,
            enum_field_as_literal=LiteralType.All,
            use_union_operator=True,
        )
    return out


def test_datamodel_code_generator_gives_literal_or_str(datamodel_module: Path) -> None:
    source = datamodel_module.read_text(encoding="utf-8")
    assert "flavor_type: Literal['CPU', 'GPU', 'Ascend'] | str | None" in source
    sys.path.insert(0, str(datamodel_module.parent))
    try:
        models = importlib.import_module("dmcg_models")
    finally:
        sys.path.remove(str(datamodel_module.parent))
    status = models.Status.model_validate(
        {"phase": "Running", "secondary_phase": "SomethingNew", "duration": 1}
    )
    assert status.secondary_phase == "SomethingNew"
    flavor = models.FlavorDetail.model_validate({"flavor_type": "QPU"})
    assert flavor.flavor_type == "QPU"


@pytest.mark.slow
def test_openapi_python_client_generates_and_keeps_enums_open(tmp_path: Path) -> None:
    out = tmp_path / "opc"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(SPEC_PATH),
            "--output-path",
            str(out),
            "--meta",
            "none",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Unable to parse" not in result.stdout + result.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        models = importlib.import_module("opc.models")
    finally:
        sys.path.remove(str(tmp_path))
    detail = models.FlavorDetail.from_dict({"flavor_type": "QPU"})
    assert detail.flavor_type == "QPU"  # an unknown value is kept
    known = models.FlavorDetail.from_dict({"flavor_type": "GPU"})
    assert str(getattr(known.flavor_type, "value", known.flavor_type)) == "GPU"
    enum_names = [name for name in dir(models) if name.startswith("FlavorDetailFlavorType")]
    assert enum_names, dir(models)
    documented = {member.value for member in getattr(models, enum_names[0])}
    assert documented == {"CPU", "GPU", "Ascend"}
    # environments is anyOf [map, list of maps] without an outer type (issue 35): one class
    # per shape (the map, the list's item); `type: [object, array]` beside it made six.
    environment_modules = sorted((out / "models").glob("job_algorithm_environments*.py"))
    assert [path.stem for path in environment_modules] == [
        "job_algorithm_environments_type_0",
        "job_algorithm_environments_type_1_item",
    ]
