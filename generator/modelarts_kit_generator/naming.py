"""Name rules shared by the intermediate representation: spec words -> Python identifiers."""

from __future__ import annotations

import keyword
import re

__all__ = ["pascal_case", "python_identifier", "snake_case"]

# Word boundaries: "createTrainingJob", "HTTPServer", "training-job", "pet_id", "v2".
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+\d*|[A-Z]+\d*|\d+")


def _words(text: str) -> list[str]:
    return _WORD.findall(re.sub(r"[^A-Za-z0-9]+", " ", text))


def snake_case(text: str) -> str:
    """Any spelling (``createTrainingJob``, ``create-training-job``) -> ``create_training_job``."""
    return python_identifier("_".join(word.lower() for word in _words(text)))


def pascal_case(text: str) -> str:
    """``training_job`` / ``trainingJob`` -> ``TrainingJob`` (existing capitals are kept)."""
    name = "".join(word[:1].upper() + word[1:] for word in _words(text)) or "Value"
    return python_identifier("N" + name if name[0].isdigit() else name)


def python_identifier(name: str) -> str:
    """``name`` as a usable identifier: never empty, no keyword, no leading digit."""
    name = re.sub(r"\W", "_", name) or "value"
    if name[0].isdigit():
        name = "n" + name
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        name += "_"
    return name
