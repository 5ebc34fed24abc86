"""The ``x-modelarts-schema-model`` extension (document root), as written in the spec.

It is compact: a rule it does not name is ``documented``, with the evidence of the page tables
that document its schema node (``pages``, derived from the pages by
``scripts/derive_schema_model.py``). ``rules`` names only the other rules::

    x-modelarts-schema-model:
      rules:
        /components/schemas/Output/properties/access_method:
          presence: {strength: sdk, ledger: [sdk-added-algorithm-outputs-access-method],
                     sdk: [3.1.219 Output]}
        /components/schemas/JobEngine:
          allOf: {strength: guidance, ledger: [guidance-engine-choose-one]}
      pages:
        /components/schemas/JobMetadata: ['seeds/004_126c216e710dc1ec.txt: JobMetadata']

:func:`read_extension` parses it (unknown shapes are skipped); :func:`extension_problems` says
what ``spec validate`` (rule ``schema-model``) finds wrong with it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from modelarts_kit_wire.pointers import escape_pointer_token

from modelarts_kit_spec.document import resolve_pointer
from modelarts_kit_spec.schemamodel.rules import (
    ARRAY_FORM,
    CHOICE_KEYWORDS,
    NULLABLE,
    PRESENCE,
    RULE_KEYWORDS,
    Evidence,
    Strength,
)
from modelarts_kit_spec.walker import json_types

if TYPE_CHECKING:
    from modelarts_kit_spec.ledger import Ledger

__all__ = [
    "EXTENSION_KEY",
    "Annotation",
    "Extension",
    "extension_problems",
    "is_rule_at",
    "read_extension",
]

JSON = Any
EXTENSION_KEY = "x-modelarts-schema-model"
GUIDANCE_KEY = "x-modelarts-guidance"
SOURCES_DIR = Path(__file__).resolve().parents[2] / "sources"


@dataclass(frozen=True)
class Annotation:
    """A rule the extension names: its strength and evidence (ledger ids, SDK models)."""

    pointer: str
    keyword: str
    strength: Strength
    ledger: tuple[str, ...]
    sdk: tuple[str, ...]  # "RELEASE Model"

    @property
    def evidence(self) -> tuple[Evidence, ...]:
        found: list[Evidence] = []
        for text in self.sdk:
            release, _, model = text.partition(" ")
            found.append(Evidence("sdk", release, model))
        found.extend(Evidence("ledger", "ledger.yaml", entry) for entry in self.ledger)
        return tuple(found)


@dataclass(frozen=True)
class Extension:
    annotations: Mapping[tuple[str, str], Annotation] = field(default_factory=dict)
    pages: Mapping[str, tuple[Evidence, ...]] = field(default_factory=dict)

    def pages_for(self, pointer: str) -> tuple[Evidence, ...]:
        """The page tables of the nearest node at or above ``pointer`` that has any, up to
        the nearest property: a table that documents an object does not state a field no
        row of it names."""
        current = pointer
        while True:
            if current in self.pages:
                return self.pages[current]
            if not current or is_property_pointer(current):
                return ()
            current = current.rsplit("/", 1)[0]


def is_property_pointer(pointer: str) -> bool:
    """Whether ``pointer`` names a property (``.../properties/NAME``)."""
    return pointer.rsplit("/", 2)[-2:-1] == ["properties"]


def _mapping(value: JSON) -> Mapping[str, JSON]:
    return value if isinstance(value, Mapping) else {}


def _strings(value: JSON) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    return ()


def page_evidence(text: str) -> Evidence:
    """``"seeds/FILE.txt: Table"`` as evidence."""
    where, _, what = text.partition(": ")
    return Evidence("page", where.strip(), what.strip())


def read_extension(document: JSON) -> Extension:
    raw = _mapping(_mapping(document).get(EXTENSION_KEY))
    annotations: dict[tuple[str, str], Annotation] = {}
    for pointer, keywords in _mapping(raw.get("rules")).items():
        for keyword, spec in _mapping(keywords).items():
            spec = _mapping(spec)
            try:
                strength = Strength(str(spec.get("strength")))
            except ValueError:
                continue  # reported by extension_problems
            annotations[(str(pointer), str(keyword))] = Annotation(
                str(pointer),
                str(keyword),
                strength,
                _strings(spec.get("ledger")),
                _strings(spec.get("sdk")),
            )
    pages = {
        str(pointer): tuple(page_evidence(text) for text in _strings(texts))
        for pointer, texts in _mapping(raw.get("pages")).items()
    }
    return Extension(annotations, pages)


def _is_rule_at_node(node: JSON, pointer: str, keyword: str) -> bool:
    if not isinstance(node, Mapping):
        return False
    if keyword == PRESENCE:
        return pointer.rsplit("/", 2)[-2:-1] == ["properties"]
    if keyword == NULLABLE:
        if "null" in json_types(node):
            return True
        branches = [*_strings_list(node.get("anyOf")), *_strings_list(node.get("oneOf"))]
        return any(isinstance(b, Mapping) and b.get("type") == "null" for b in branches)
    if keyword == "additionalProperties":
        return node.get(keyword) is False
    if keyword == ARRAY_FORM:
        return "array" in json_types(node) and len(json_types(node)) > 1
    return keyword in node and keyword in (*RULE_KEYWORDS, *CHOICE_KEYWORDS)


def is_rule_at(document: JSON, pointer: str, keyword: str) -> bool:
    """Whether ``keyword`` is a rule of the node at ``pointer`` in ``document``."""
    try:
        node = resolve_pointer(document, pointer)
    except KeyError:
        return False
    return _is_rule_at_node(node, pointer, keyword)


def _strings_list(value: JSON) -> list[JSON]:
    return list(value) if isinstance(value, list) else []


def extension_problems(
    document: JSON, ledger: Ledger | None, sources_dir: Path = SOURCES_DIR
) -> Iterator[tuple[str, str]]:
    """``(pointer, message)`` for everything wrong with the extension."""
    raw = _mapping(document).get(EXTENSION_KEY)
    where = "/" + EXTENSION_KEY
    if raw is None:
        return
    if not isinstance(raw, Mapping):
        yield where, f"{EXTENSION_KEY} must be a mapping with rules and pages"
        return
    for key in raw:
        if key not in ("rules", "pages"):
            yield f"{where}/{key}", f"unknown key {key!r} (known: rules, pages)"
    known = {entry.id: entry for entry in ledger.entries} if ledger is not None else None
    extension = read_extension(document)
    for pointer, keywords in _mapping(raw.get("rules")).items():
        for keyword, spec in _mapping(keywords).items():
            here = f"{where}/rules/{escape_pointer_token(pointer)}/{keyword}"
            strength = _mapping(spec).get("strength")
            if strength not in {s.value for s in Strength} or strength == Strength.DOCUMENTED:
                yield (
                    here,
                    (
                        f"strength {strength!r} is not one of guidance, sdk, example "
                        "(documented is the default: a rule not named here)"
                    ),
                )
            try:
                node = resolve_pointer(document, pointer)
            except KeyError:
                yield here, f"{pointer!r} does not resolve in the spec"
                continue
            if not _is_rule_at_node(node, pointer, keyword):
                yield here, f"{keyword!r} is not a rule of the node at {pointer}"
            for entry in _strings(_mapping(spec).get("ledger")):
                if known is not None and entry not in known:
                    yield here, f"ledger entry {entry!r} does not exist"
    for pointer, texts in _mapping(raw.get("pages")).items():
        here = f"{where}/pages/{escape_pointer_token(pointer)}"
        try:
            resolve_pointer(document, pointer)
        except KeyError:
            yield here, f"{pointer!r} does not resolve in the spec"
        for evidence in (page_evidence(text) for text in _strings(texts)):
            if not evidence.what or not (sources_dir / evidence.where).is_file():
                yield (
                    here,
                    (
                        f"{evidence.where!r} is not a page under spec/sources with a table "
                        "(rule: 'FOLDER/FILE: Table')"
                    ),
                )
    yield from _agreement_problems(document, extension, known)


def _agreement_problems(
    document: JSON, extension: Extension, known: Mapping[str, Any] | None
) -> Iterator[tuple[str, str]]:
    """The extension agrees with the markers and with the ledger, both ways."""
    from modelarts_kit_spec.walker import iter_schemas

    where = "/" + EXTENSION_KEY
    annotated = extension.annotations
    marked: set[tuple[str, str]] = set()
    for pointer, schema in iter_schemas(document):
        for keyword in _strings(schema.get(GUIDANCE_KEY)):
            marked.add((pointer, keyword))
            found = annotated.get((pointer, keyword))
            if found is None or found.strength is not Strength.GUIDANCE:
                yield (
                    pointer,
                    (f"guidance keyword {keyword!r} has no guidance rule in {EXTENSION_KEY}"),
                )
    for (pointer, keyword), annotation in annotated.items():
        if annotation.strength is Strength.GUIDANCE and (pointer, keyword) not in marked:
            yield (
                where,
                (
                    f"the guidance rule {keyword!r} at {pointer} is not listed in that node's "
                    f"{GUIDANCE_KEY}"
                ),
            )
    if known is None:
        return
    expected = dict(_ledger_rules(known))
    for (pointer, keyword, strength), entry_id in expected.items():
        found = annotated.get((pointer, keyword))
        if found is None or found.strength != strength or entry_id not in found.ledger:
            yield (
                where,
                (
                    f"ledger entry {entry_id} makes {keyword!r} at {pointer} a {strength} rule; "
                    f"{EXTENSION_KEY} does not say so"
                ),
            )
    claimed = {(p, k, s) for p, k, s in expected}
    for (pointer, keyword), annotation in annotated.items():
        if (pointer, keyword, annotation.strength.value) not in claimed:
            yield (
                where,
                (
                    f"the {annotation.strength} rule {keyword!r} at {pointer} has no ledger entry "
                    "that says so"
                ),
            )


def _ledger_rules(known: Mapping[str, Any]) -> Iterator[tuple[tuple[str, str, str], str]]:
    """``((pointer, keyword, strength), entry id)`` for every rule the ledger implies."""
    for entry_id, entry in known.items():
        rule = ledger_rule(entry.kind, entry_id, entry.expect)
        for keyword, strength in rule:
            yield (entry.pointer or "", keyword, strength), entry_id


def ledger_rule(kind: str, entry_id: str, expect: JSON) -> list[tuple[str, str]]:
    """The ``(keyword, strength)`` rules a ledger entry says are not documented.

    The ledger's vocabulary: a ``guidance`` entry lists its keywords in ``expect``; a
    ``presence`` entry whose id says ``sdk-added`` is a field only the SDK has, one whose id
    ends in ``-example`` a field only examples show; a ``nullable`` entry is a ``null`` only
    examples show; a ``type`` entry whose id ends in ``-example`` is an array form
    (``array-form``) only observed use shows, beside the documented type."""
    if kind == "guidance":
        return [(k, Strength.GUIDANCE.value) for k in _strings(_mapping(expect).get(GUIDANCE_KEY))]
    if kind == "presence" and entry_id.startswith("sdk-added-"):
        return [(PRESENCE, Strength.SDK.value)]
    if kind == "presence" and entry_id.endswith("-example"):
        return [(PRESENCE, Strength.EXAMPLE.value)]
    if kind == "nullable":
        return [(NULLABLE, Strength.EXAMPLE.value)]
    if kind == "type" and entry_id.endswith("-example"):
        return [(ARRAY_FORM, Strength.EXAMPLE.value)]
    return []
