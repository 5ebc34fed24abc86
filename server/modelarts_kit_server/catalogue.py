"""The catalogue of training flavors and engines, from the spec's embedded examples.

The flavors page and the engines page each show a list of what the service offers in their
example responses; the spec embeds those examples (OpenAPI ``examples`` of the operations whose
roles are ``flavors`` and ``engines``), and :func:`load_catalogue` reads them from there, so a
spec edit changes the catalogue. The flavors and engines operations answer from it
(:meth:`Catalogue.flavors_of_type`), and a server started with ``ServerSettings.catalogue``
(``serve --catalogue``) validates a created job's ``spec.resource.flavor_id`` and
``algorithm.engine`` against it (:meth:`Catalogue.has_flavor`, :meth:`Catalogue.has_engine`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from modelarts_kit_spec import Operation, Spec
from modelarts_kit_spec.meaning import Role

__all__ = ["Catalogue", "load_catalogue", "response_examples"]

FLAVOR_ID = "flavor_id"
FLAVOR_TYPE = "flavor_type"
ENGINE_ID = "engine_id"
ENGINE_NAME = "engine_name"
ENGINE_VERSION = "engine_version"


def response_examples(spec: Spec, operation: Operation) -> Iterator[Any]:
    """The example values embedded in the operation's success response (JSON media type)."""
    response = spec.deref(spec.at(operation.success.pointer))
    content = response.get("content") if isinstance(response, Mapping) else None
    media = content.get("application/json") if isinstance(content, Mapping) else None
    if not isinstance(media, Mapping):
        return
    if "example" in media:
        yield media["example"]
    for example in (media.get("examples") or {}).values():
        example = spec.deref(example)
        if isinstance(example, Mapping) and "value" in example:
            yield example["value"]


def _entries(spec: Spec, operation: Operation | None, key: str) -> tuple[Mapping[str, Any], ...]:
    """The objects carrying ``key`` in the lists of the operation's examples, first of each."""
    if operation is None:
        return ()
    found: dict[str, Mapping[str, Any]] = {}
    for example in response_examples(spec, operation):
        lists = example.values() if isinstance(example, Mapping) else ()
        for value in lists:
            for item in value if isinstance(value, list) else ():
                if isinstance(item, Mapping) and isinstance(item.get(key), str):
                    found.setdefault(item[key], item)
    return tuple(found.values())


@dataclass(frozen=True)
class Catalogue:
    flavors: tuple[Mapping[str, Any], ...]
    engines: tuple[Mapping[str, Any], ...]

    def flavors_of_type(self, flavor_type: str | None) -> list[Mapping[str, Any]]:
        """The flavors of ``flavor_type`` (any case), or all of them for None."""
        if flavor_type is None:
            return list(self.flavors)
        wanted = flavor_type.casefold()
        return [f for f in self.flavors if str(f.get(FLAVOR_TYPE, "")).casefold() == wanted]

    def has_flavor(self, flavor_id: str) -> bool:
        return any(flavor.get(FLAVOR_ID) == flavor_id for flavor in self.flavors)

    def has_engine(self, engine: Mapping[str, Any]) -> bool:
        """Whether a job's engine is offered: its id, else its name (and version if given)."""
        if ENGINE_ID in engine:
            return any(item.get(ENGINE_ID) == engine[ENGINE_ID] for item in self.engines)
        name, version = engine.get(ENGINE_NAME), engine.get(ENGINE_VERSION)
        return any(
            item.get(ENGINE_NAME) == name
            and (version is None or item.get(ENGINE_VERSION) == version)
            for item in self.engines
        )


def load_catalogue(spec: Spec) -> Catalogue:
    """The flavors and engines of the spec's examples (empty where it has no such operation)."""
    roles = spec.meaning.roles
    return Catalogue(
        flavors=_entries(spec, roles.get(Role.FLAVORS), FLAVOR_ID),
        engines=_entries(spec, roles.get(Role.ENGINES), ENGINE_ID),
    )
