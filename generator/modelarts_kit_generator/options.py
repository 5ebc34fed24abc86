"""The names a generated distribution is given (its own module so that the CLI and
``generate --check`` can read them without importing the IR)."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["GeneratorOptions"]


@dataclass(frozen=True)
class GeneratorOptions:
    """Names of the generated distribution; the defaults are the ModelArts client's."""

    package: str = "modelarts_training_client"
    distribution: str = "modelarts-training-client"
    client_name: str = "TrainingJobs"
    error_base: str = "ModelArtsError"

    def __post_init__(self) -> None:
        for label, value in (
            ("package", self.package),
            ("client_name", self.client_name),
            ("error_base", self.error_base),
        ):
            if not value.isidentifier():
                raise ValueError(f"{label}: {value!r} is not a Python identifier")
        if not re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?", self.distribution):
            raise ValueError(f"distribution: {self.distribution!r} is not a valid project name")
