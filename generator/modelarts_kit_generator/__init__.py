"""Spec -> intermediate representation -> typed Python client package (``generated/``).

The names below are imported on first use: ``generate --check`` answers from the
manifest (:mod:`modelarts_kit_generator.manifest`) without loading the IR, Jinja2 or the
spec loader.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from modelarts_kit_spec.lazy import lazy_attributes

if TYPE_CHECKING:
    from modelarts_kit_generator.ir import ClientIR, build_ir
    from modelarts_kit_generator.options import GeneratorOptions
    from modelarts_kit_generator.pipeline import (
        GenerationError,
        check,
        default_output,
        generate,
        render_to,
    )

__all__ = [
    "ClientIR",
    "GenerationError",
    "GeneratorOptions",
    "build_ir",
    "check",
    "default_output",
    "generate",
    "render_to",
]

_HOMES = {
    "ClientIR": "ir",
    "GeneratorOptions": "options",
    "build_ir": "ir",
    "GenerationError": "pipeline",
    "check": "pipeline",
    "default_output": "pipeline",
    "generate": "pipeline",
    "render_to": "pipeline",
}


__getattr__, __dir__ = lazy_attributes(__name__, _HOMES)
