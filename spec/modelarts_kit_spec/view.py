"""What the spec's layers read of a loaded spec (:class:`SpecView`), so that they need not
import :class:`~modelarts_kit_spec.load.Spec`, the package's front, which imports them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from modelarts_kit_spec.document import JSON
from modelarts_kit_spec.operation import Operation

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

    from modelarts_kit_spec.walker import SchemaWalker

__all__ = ["SpecView"]


class SpecView(Protocol):
    """The parts of a :class:`~modelarts_kit_spec.load.Spec` the meaning and schema-model
    layers use: the document, its operations, pointers, the walker and validators."""

    @property
    def path(self) -> Path: ...

    @property
    def document(self) -> JSON: ...

    @property
    def operations(self) -> tuple[Operation, ...]: ...

    @property
    def walker(self) -> SchemaWalker: ...

    def at(self, pointer: str) -> JSON: ...

    def validator(self, schema: JSON) -> Draft202012Validator: ...
