"""Pydantic v2 models through datamodel-code-generator: one in-process call, every option pinned.

The input is the model plan the IR decided (``components/schemas`` only, already split
into request and response models); datamodel-code-generator only translates it to code.
Options are pinned explicitly so a new default in a later release cannot change the
output silently.
"""

from __future__ import annotations

import json
import tempfile
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from modelarts_kit_generator import cache

__all__ = ["ModelGenerationError", "render_models"]


LINE_LENGTH = 100


class ModelGenerationError(Exception):
    """datamodel-code-generator rejected the model plan."""


def render_models(
    schemas: Mapping[str, Any], *, title: str, header: str, use_cache: bool = True
) -> str:
    """Return the source of the models module for ``schemas`` (name -> JSON Schema)."""
    if not use_cache or cache.cache_dir() is None:
        return _run_datamodel_code_generator(schemas, title=title, header=header)
    key = cache.fingerprint("models", {"schemas": schemas, "title": title, "header": header})
    cached = cache.load(key)
    if cached is not None and "models.py" in cached:
        return cached["models.py"]
    output = _run_datamodel_code_generator(schemas, title=title, header=header)
    cache.store(key, {"models.py": output})
    return output


def _run_datamodel_code_generator(schemas: Mapping[str, Any], *, title: str, header: str) -> str:
    from datamodel_code_generator import LiteralType, PythonVersion, generate
    from datamodel_code_generator.enums import (
        DataModelType,
        InputFileType,
        OpenAPIScope,
        StrictTypes,
    )

    document = {
        "openapi": "3.1.0",
        "info": {"title": title, "version": "0"},
        "paths": {},
        "components": {"schemas": dict(schemas)},
    }
    with warnings.catch_warnings(), tempfile.TemporaryDirectory() as settings:
        # datamodel-code-generator reads formatter settings from the nearest pyproject.toml
        # of the current directory; a private one makes the output independent of where
        # generation runs.
        Path(settings, "pyproject.toml").write_text(
            f"[tool.ruff]\nline-length = {LINE_LENGTH}\n", encoding="utf-8"
        )
        # Deprecation notices about future defaults: every option below is pinned.
        warnings.simplefilter("ignore", FutureWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            output = generate(
                json.dumps(document, sort_keys=False, ensure_ascii=False),
                input_file_type=InputFileType.OpenAPI,
                openapi_scopes=[OpenAPIScope.Schemas],
                output_model_type=DataModelType.PydanticV2BaseModel,
                target_python_version=PythonVersion.PY_311,
                # ruff formats the whole package afterwards; formatting twice costs time.
                formatters=[],
                builtin_format_line_length=LINE_LENGTH,
                settings_path=Path(settings),
                disable_timestamp=True,
                enable_version_header=False,
                enable_command_header=False,
                custom_file_header=header,
                # Strict scalars: "5" never becomes 5 and 5 never becomes "5".
                strict_types=[
                    StrictTypes.str,
                    StrictTypes.int,
                    StrictTypes.bool,
                    StrictTypes.bytes,
                ],
                strict_nullable=True,
                enum_field_as_literal=LiteralType.All,
                use_one_literal_as_default=False,
                field_constraints=True,
                use_annotated=True,
                use_union_operator=True,
                use_standard_collections=True,
                use_schema_description=True,
                use_field_description=True,
                use_default_kwarg=False,
                snake_case_field=False,
                allow_population_by_field_name=True,
                allow_extra_fields=False,
                collapse_root_models=False,
                reuse_model=False,
                keep_model_order=True,
                capitalise_enum_members=False,
                use_title_as_name=False,
                use_double_quotes=True,
                use_exact_imports=False,
                disable_future_imports=False,
                use_generic_container_types=False,
                use_unique_items_as_set=False,
                use_subclass_enum=False,
                use_specialized_enum=False,
                use_type_alias=False,
                use_frozen_field=False,
                enable_faux_immutability=False,
                openapi_include_info_version=False,
                wrap_string_literal=False,
            )
        except Exception as exc:  # datamodel-code-generator raises many types; cause kept
            raise ModelGenerationError(f"datamodel-code-generator failed: {exc}") from exc
    if not isinstance(output, str):
        raise ModelGenerationError(
            f"datamodel-code-generator returned {type(output).__name__}, expected one module"
        )
    return output
