"""Which fields of a request object may or must appear together: the spec's
``not: {required: [...]}`` (``Excludes``) and ``dependentRequired`` (``Requires``), which
pydantic's schema has no keyword for. A request model lists its rules as
``_field_rules = field_rules_validator(...)``; breaking one is a validation error at that
object, naming the fields and where the spec states the rule (``guidance at ...`` for
guidance: what the service may accept anyway; ``UncheckedBody`` sends such a body as it is)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pydantic
from pydantic_core import PydanticCustomError

__all__ = ["Excludes", "Requires", "field_rules_validator", "given_fields"]


@dataclass(frozen=True)
class Excludes:
    """The ``fields`` are never all given together."""

    fields: tuple[str, ...]
    citation: str

    def broken_by(self, given: frozenset[str]) -> str | None:
        if not all(name in given for name in self.fields):
            return None
        if len(self.fields) == 1:
            return f"{self.fields[0]} must not be given ({self.citation})"
        together = " and ".join(self.fields)
        return f"{together} must not be given together ({self.citation})"

    def to_drop(self, given: frozenset[str]) -> str | None:
        """The field to leave out so that ``given`` follows the rule (the first one stays)."""
        return self.fields[-1] if self.broken_by(given) is not None else None


@dataclass(frozen=True)
class Requires:
    """When ``fields[0]`` is given, ``fields[1:]`` are given too."""

    fields: tuple[str, ...]
    citation: str

    def broken_by(self, given: frozenset[str]) -> str | None:
        if self.fields[0] not in given:
            return None
        missing = [name for name in self.fields[1:] if name not in given]
        if not missing:
            return None
        return f"{self.fields[0]} is given, so {', '.join(missing)} must be too ({self.citation})"

    def to_drop(self, given: frozenset[str]) -> str | None:
        """The field to leave out so that ``given`` follows the rule."""
        return self.fields[0] if self.broken_by(given) is not None else None


def given_fields(model: pydantic.BaseModel) -> frozenset[str]:
    """The wire names of the fields given to ``model`` (``null`` counts: the key is there)."""
    declared = type(model).model_fields
    names = {declared[name].alias or name for name in model.model_fields_set if name in declared}
    names.update(model.model_extra or {})
    return frozenset(names)


def field_rules_validator(*rules: Excludes | Requires) -> Any:
    """A model validator (after the fields) refusing a model that breaks one of ``rules``."""

    def check(model: Any) -> Any:
        # A root model (a choice between shapes) holds the object the rules are about.
        target = model.root if isinstance(model, pydantic.RootModel) else model
        if isinstance(target, pydantic.BaseModel):
            given = given_fields(target)
            for rule in rules:
                broken = rule.broken_by(given)
                if broken is not None:
                    # The message is a context value: spec names may hold braces.
                    raise PydanticCustomError("field_rule", "{rule}", {"rule": broken})
        return model

    return pydantic.model_validator(mode="after")(check)
