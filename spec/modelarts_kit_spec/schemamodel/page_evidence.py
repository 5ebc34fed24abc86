"""A rule is ``documented`` only with page evidence.

Every ``documented`` rule of the schema model names at least one page table under
``spec/sources`` that states its field: the page file exists, its text prints the table's
title and the field's name. A rule with no such table is some other strength (``sdk``,
``example``, ``guidance``) and says so, with its evidence, in ``x-modelarts-schema-model``.

The check reads the page text, not a parse of it (``spec/`` imports no vendordocs): the quotes
themselves are derived from the field inventories and the pages
(:func:`modelarts_kit_spec.schemamodel.derive.derive`); this check catches a table cited for a
field it does not print and a documented rule with no table at all. :func:`unquoted_rules`
checks the words: each quote stands in its page as
:func:`~modelarts_kit_spec.schemamodel.pagetext.page_words` reads it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from modelarts_kit_wire.errors import KitError

from modelarts_kit_spec.document import resolve_pointer
from modelarts_kit_spec.reader import read_input_text
from modelarts_kit_spec.schemamodel.extension import EXTENSION_KEY
from modelarts_kit_spec.schemamodel.model import SchemaModel
from modelarts_kit_spec.schemamodel.pagetext import read_page_words, stands_in
from modelarts_kit_spec.schemamodel.rules import QUOTED, Evidence, Quote, Rule, Strength

__all__ = ["field_of", "undocumented_rules", "unquoted_rules"]

JSON = Any
# The field inventory's names for a page's root tables, which pages title in their own words
# (``Request Parameters``, ``表2 请求Body参数``) or not at all: such a table is the page's.
ROOT_TABLES = frozenset(
    {
        "Path Parameters",
        "Request body parameters",
        "Response body parameters",
        "Error response body",
    }
)


def field_of(document: JSON, pointer: str) -> str | None:
    """The name a page prints for the field a rule at ``pointer`` is about: the nearest
    property, a header's or a parameter's name; ``None`` for an object's own rule."""
    tokens = pointer.split("/")
    for end in range(len(tokens), 1, -1):
        if tokens[end - 2] == "properties":
            return tokens[end - 1].replace("~1", "/").replace("~0", "~")
    if len(tokens) >= 4 and tokens[1:3] == ["components", "headers"]:
        return tokens[3]
    if len(tokens) >= 4 and tokens[1:3] == ["components", "parameters"]:
        try:
            name = resolve_pointer(document, "/".join(tokens[:4])).get("name")
        except (KeyError, AttributeError):
            return None
        return str(name) if name is not None else None
    return None


@functools.lru_cache(maxsize=64)
def _page_text(path: Path) -> str | None:
    """The page's text with markup emphasis and runs of blanks flattened (``**Table 1**
    Status codes`` reads as ``Table 1 Status codes``), or ``None`` when it cannot be read."""
    try:
        text = read_input_text(path)
    except (OSError, KitError):
        return None
    return re.sub(r"[ \t]+", " ", text.replace("*", ""))


def _states(evidence: Evidence, field: str | None, sources_dir: Path) -> bool:
    if evidence.kind != "page" or not evidence.what:
        return False
    text = _page_text(sources_dir / evidence.where)
    if text is None or (evidence.what not in ROOT_TABLES and evidence.what not in text):
        return False
    return field is None or re.search(rf"(?<![\w-]){re.escape(field)}(?![\w-])", text) is not None


def undocumented_rules(
    document: JSON, sources_dir: Path, *, uncited: bool = True
) -> Iterator[tuple[Rule, str | None]]:
    """Each ``documented`` rule with no page table under ``sources_dir`` that states its
    field, and the field's name. A spec without ``x-modelarts-schema-model`` claims no
    evidence and is not checked (like the extension's other rules).

    ``uncited=False`` passes over rules that cite no page at all and reports only the ones
    whose cited tables do not state their field: a field a ``docs diff --apply`` has just
    added from a page not yet recorded in ``spec/sources`` cites nothing until the page is
    recorded (``docs update``) and the extension derived again, and ``spec validate`` must
    not refuse that step; the curated spec is held to every rule (``tests/spec``)."""
    if not isinstance(document, Mapping) or EXTENSION_KEY not in document:
        return
    model = SchemaModel(document)
    for rule in model.rules:
        if rule.strength is not Strength.DOCUMENTED:
            continue
        cited = [e for e in rule.evidence if e.kind == "page"]
        if not cited and not uncited:
            continue
        field = field_of(document, rule.pointer)
        if not any(_states(e, field, sources_dir) for e in cited):
            yield rule, field


def unquoted_rules(document: JSON, sources_dir: Path) -> Iterator[tuple[Rule, Quote | None, str]]:
    """Each ``documented`` or ``guidance`` rule whose words do not stand: a quote that is not
    in its page as :func:`~modelarts_kit_spec.schemamodel.pagetext.page_words` reads it (or a
    page that cannot be read), and a rule with page evidence but no quote at all; with the
    quote at fault (``None`` for a rule that quotes nothing) and why.

    A rule that cites no page at all is :func:`undocumented_rules`' to report (a field a
    ``docs diff --apply`` has just added quotes nothing until the block is derived again)."""
    if not isinstance(document, Mapping) or EXTENSION_KEY not in document:
        return
    model = SchemaModel(document)
    verdicts: dict[Quote, str | None] = {}
    for rule in model.listed:
        if rule.strength not in QUOTED:
            continue
        if not rule.quotes:
            if any(e.kind == "page" for e in rule.evidence) or rule.strength is Strength.GUIDANCE:
                yield rule, None, "quotes no page (the page's words: PAGE | LOCATOR | QUOTE)"
            continue
        for quote in rule.quotes:
            if quote not in verdicts:
                verdicts[quote] = _quote_verdict(quote, sources_dir)
            problem = verdicts[quote]
            if problem is not None:
                yield rule, quote, problem


def _quote_verdict(quote: Quote, sources_dir: Path) -> str | None:
    words = read_page_words(sources_dir / quote.page)
    if words is None:
        return f"cites {quote.page}, which is not a readable page under spec/sources"
    if not stands_in(quote.quote, words):
        return f"quotes {quote.quote!r}, which does not stand in {quote.page} ({quote.locator})"
    return None
