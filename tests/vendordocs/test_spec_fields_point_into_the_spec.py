"""docs diff's view of the spec: every field points at the schema that declares it."""

from __future__ import annotations

from modelarts_kit_spec import load_spec
from modelarts_kit_vendordocs.extract import extract_page
from modelarts_kit_vendordocs.matching import _containers

from .support import ALL_SEEDS, SEEDS_DIR


def test_every_field_pointer_resolves_in_the_spec() -> None:
    """A field a oneOf branch brings in (``i18n_description.language`` through
    ``oneOf: [{$ref: I18nDescription}, ...]``) is where its branch declares it; a finding about
    it points there, so ``docs diff --propose`` can find the node (it pointed into nothing)."""
    spec = load_spec()
    pages = [extract_page(SEEDS_DIR / name) for name in ALL_SEEDS]
    pointers = {
        (field.path, field.pointer)
        for operation in spec.operations
        for (side, _), container in _containers(spec.walker, operation, pages).items()
        if side in ("request", "response")  # bodies: the walker's fields
        for field in container.fields.values()
    }
    assert ("language", "/components/schemas/I18nDescription/properties/language") in {
        (path.rsplit(".", 1)[-1], pointer) for path, pointer in pointers
    }
    for _, pointer in sorted(pointers):
        spec.at(pointer)  # KeyError names the token that does not resolve
