"""Spec -> intermediate representation -> typed Python client package (``generated/``)."""

from modelarts_kit_generator.ir import ClientIR, GeneratorOptions, build_ir
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
