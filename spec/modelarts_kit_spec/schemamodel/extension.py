"""The ``x-modelarts-schema-model`` extension (document root), as written in the spec.

It is compact and derived (:func:`modelarts_kit_spec.schemamodel.derive.derive`): a rule it does
not name is ``documented``, with the page's words for it (``quotes``; the tables they stand in
are its page evidence, or an older spec's ``pages``). ``rules`` names only the other rules::

    x-modelarts-schema-model:
      rules:
        /components/schemas/Output/properties/access_method:
          presence: {strength: sdk, ledger: [sdk-added-algorithm-outputs-access-method],
                     sdk: [3.1.219 Output]}
        /components/schemas/JobEngine:
          allOf: {strength: guidance, ledger: [guidance-engine-choose-one]}
      pages:
        /components/schemas/JobMetadata: ['seeds/004_126c216e710dc1ec.txt: JobMetadata']
      quotes:
        /components/schemas/JobMetadata/properties/name:
          '*': ['seeds/004_126c216e710dc1ec.txt | JobMetadata, row name | name Yes String']
          maxLength: ['seeds/004_126c216e710dc1ec.txt | JobMetadata, row name | The value
                      must contain 1 to 64 characters consisting of ...']
      values:
        /paths/~1v2~1{project_id}~1training-job-flavors/get/parameters/0/schema:
          Ascend: {strength: sdk, ledger: [flavors-query-flavor-type-values]}

``quotes`` are the pages' words per node and rule keyword (``'*'``: every rule of the node
no other key names; an ``enum`` maps each documented value to its quotes); ``values`` names
the enum values that are not ``documented`` (the enum's other values are).

:func:`read_extension` parses it (unknown shapes are skipped); :func:`extension_problems` says
what ``spec validate`` (rule ``schema-model``) finds wrong with it.
"""

from __future__ import annotations

import re
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
    Quote,
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


# Which quote keys answer a keyword, in order (``'*'``: the node's row, every rule of it).
QUOTE_KEYS: Mapping[str, tuple[str, ...]] = {
    "type": ("type", "*"),
    "format": ("format", "type", "*"),
    PRESENCE: ("*",),
    NULLABLE: ("nullable", "*"),
    ARRAY_FORM: ("*",),
    "additionalProperties": ("additionalProperties", "*"),
}
ANY = "*"

QuoteBlock = Mapping[str, tuple[Quote, ...] | Mapping[str, tuple[Quote, ...]]]


@dataclass(frozen=True)
class Extension:
    annotations: Mapping[tuple[str, str], Annotation] = field(default_factory=dict)
    pages: Mapping[str, tuple[Evidence, ...]] = field(default_factory=dict)
    quotes: Mapping[str, QuoteBlock] = field(default_factory=dict)
    values: Mapping[str, Mapping[str, Annotation]] = field(default_factory=dict)

    def quotes_for(self, pointer: str, keyword: str) -> tuple[Quote, ...]:
        """The quotes of the nearest node at or above ``pointer`` (up to the nearest property
        or parameter) that has any for ``keyword``; an enum's are all its values' quotes."""
        keys = QUOTE_KEYS.get(keyword, (keyword,))
        current = pointer
        while True:
            block = self.quotes.get(current)
            if block is not None:
                for key in keys:
                    found = block.get(key)
                    if isinstance(found, Mapping):
                        return tuple(q for quotes in found.values() for q in quotes)
                    if found:
                        return found
            if not current or is_property_pointer(current):
                return ()
            current = current.rsplit("/", 1)[0]

    def value_quotes(self, pointer: str, value: str) -> tuple[Quote, ...]:
        """The quotes of one value of the enum at ``pointer``: those of its quotes that name
        the value (all of them when none does: "the options are the same as those of X")."""
        found = self.quotes_for(pointer, "enum")
        naming = tuple(q for q in found if _names_value(q.quote, value))
        return naming or found

    def pages_for(self, pointer: str) -> tuple[Evidence, ...]:
        """The page tables of the nearest node at or above ``pointer`` that has any, up to
        the nearest property: a table that documents an object does not state a field no
        row of it names. Without a ``pages`` block, the tables its quotes name."""
        current = pointer
        while True:
            if current in self.pages:
                return self.pages[current]
            if not self.pages and current in self.quotes:
                return _tables_quoted(self.quotes[current])
            if not current or is_property_pointer(current):
                return ()
            current = current.rsplit("/", 1)[0]


def _tables_quoted(block: QuoteBlock) -> tuple[Evidence, ...]:
    """The page tables a node's quotes stand in (``Table 4 JobMetadata, row name``: the
    table ``Table 4 JobMetadata``), each once."""
    found: dict[tuple[str, str], Evidence] = {}
    for quotes in block.values():
        flat = [q for qs in quotes.values() for q in qs] if isinstance(quotes, Mapping) else quotes
        for quote in flat:
            table = quote.locator.split(", row ")[0]
            found.setdefault((quote.page, table), Evidence("page", quote.page, table))
    return tuple(found.values())


def _names_value(text: str, value: str) -> bool:
    return re.search(rf"(?<![\w\-.]){re.escape(value)}(?![\w\-])", text) is not None


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
            annotation = _annotation(str(pointer), str(keyword), _mapping(spec))
            if annotation is not None:
                annotations[(str(pointer), str(keyword))] = annotation
    pages = {
        str(pointer): tuple(page_evidence(text) for text in _strings(texts))
        for pointer, texts in _mapping(raw.get("pages")).items()
    }
    quotes = {
        str(pointer): _quote_block(block) for pointer, block in _mapping(raw.get("quotes")).items()
    }
    values: dict[str, dict[str, Annotation]] = {}
    for pointer, named in _mapping(raw.get("values")).items():
        for value, spec in _mapping(named).items():
            annotation = _annotation(str(pointer), "enum", _mapping(spec))
            if annotation is not None:
                values.setdefault(str(pointer), {})[str(value)] = annotation
    return Extension(annotations, pages, quotes, values)


def _quote_block(block: JSON) -> dict[str, tuple[Quote, ...] | dict[str, tuple[Quote, ...]]]:
    out: dict[str, tuple[Quote, ...] | dict[str, tuple[Quote, ...]]] = {}
    for key, texts in _mapping(block).items():
        if isinstance(texts, Mapping):
            out[str(key)] = {
                str(value): tuple(Quote.parse(t) for t in _strings(each))
                for value, each in texts.items()
            }
        else:
            out[str(key)] = tuple(Quote.parse(t) for t in _strings(texts))
    return out


def _annotation(pointer: str, keyword: str, spec: Mapping[str, JSON]) -> Annotation | None:
    try:
        strength = Strength(str(spec.get("strength")))
    except ValueError:
        return None  # reported by extension_problems
    return Annotation(
        pointer, keyword, strength, _strings(spec.get("ledger")), _strings(spec.get("sdk"))
    )


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


def _flat(quotes: tuple[Quote, ...] | Mapping[str, tuple[Quote, ...]]) -> tuple[Quote, ...]:
    if isinstance(quotes, Mapping):
        return tuple(q for qs in quotes.values() for q in qs)
    return quotes


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
        if key not in ("rules", "pages", "quotes", "values"):
            yield f"{where}/{key}", f"unknown key {key!r} (known: rules, values, pages, quotes)"
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
                        f"strength {strength!r} is not one of guidance, sdk, example, decision "
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
    for pointer, named in _mapping(raw.get("values")).items():
        here = f"{where}/values/{escape_pointer_token(pointer)}"
        try:
            enum = _mapping(resolve_pointer(document, pointer)).get("enum")
        except KeyError:
            yield here, f"{pointer!r} does not resolve in the spec"
            continue
        for value, spec in _mapping(named).items():
            if not isinstance(enum, list) or value not in [str(v) for v in enum]:
                yield f"{here}/{value}", f"{value!r} is not a value of the enum at {pointer}"
            strength = _mapping(spec).get("strength")
            if strength not in (Strength.SDK, Strength.EXAMPLE, Strength.DECISION):
                yield (
                    f"{here}/{value}",
                    f"strength {strength!r} is not one of sdk, example, decision",
                )
            for entry in _strings(_mapping(spec).get("ledger")):
                if known is not None and entry not in known:
                    yield f"{here}/{value}", f"ledger entry {entry!r} does not exist"
    for pointer, block in _mapping(raw.get("quotes")).items():
        here = f"{where}/quotes/{escape_pointer_token(pointer)}"
        try:
            resolve_pointer(document, pointer)
        except KeyError:
            yield here, f"{pointer!r} does not resolve in the spec"
        for quote in (q for qs in _quote_block(block).values() for q in _flat(qs)):
            if not quote.quote or not quote.locator or not (sources_dir / quote.page).is_file():
                yield (
                    here,
                    f"{str(quote)!r} is not 'PAGE | LOCATOR | QUOTE' with a page under "
                    "spec/sources",
                )
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
        if annotation.strength is Strength.DECISION and annotation.ledger:
            continue  # no page states it; the entries named decide it (checked to exist above)
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
