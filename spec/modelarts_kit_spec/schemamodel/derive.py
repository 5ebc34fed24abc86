"""Derive ``x-modelarts-schema-model`` from the recorded pages and the ledger.

:func:`derive` is the one derivation: ``scripts/derive_schema_model.py`` writes its result
into openapi.yaml, and ``docs update`` calls it on the staged document, ledger and pages in
its own transaction. It reads

- the **ledger** for the rules that are not ``documented``: ``kind: guidance`` entries,
  ``sdk-added-*`` and ``*-example`` presence entries, ``nullable`` entries
  (:func:`~modelarts_kit_spec.schemamodel.extension.ledger_rule`), and the hand-read quotes of
  guidance rules (an entry's ``quotes``, each ``PAGE | LOCATOR | QUOTE``);
- the **field inventories** of the pages (``spec/sources/inventories/inventory_of_*.yaml``:
  which page table documents which field, with its type and Mandatory cell as printed) for
  where each field is documented;
- the **pages** themselves (``spec/sources/FOLDER/FILE``, through
  :func:`~modelarts_kit_spec.pagetext.page_words`) for the words: each field's row
  (``name Yes String``), and in its description the sentence that states a length, a range,
  a pattern or an enum value.

Then every rule a page states is ``documented`` with its quotes; a ``type`` or ``format``
quotes only the pages that print that type (a page typing ``start_time`` as ``String`` is no
evidence of an integer), ``required`` only rows whose Mandatory cell says yes, and an enum
value only the descriptions that name it. A rule no page states is the ledger's
``decision`` when a ledger entry is about its field (a minimum borrowed from another page, a
body marked required, a pattern the spec chose), an enum value the SDK alone has is ``sdk``;
anything else is a problem (``Derivation.problems``) for a human.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from modelarts_kit_spec.document import pointer_join, resolve_pointer
from modelarts_kit_spec.pagetext import normalise, page_words
from modelarts_kit_spec.paths import SOURCES_DIR
from modelarts_kit_spec.reader import parse_yaml_text, read_input_text
from modelarts_kit_spec.refs import resolve_ref
from modelarts_kit_spec.schemamodel.block import render, splice
from modelarts_kit_spec.schemamodel.extension import ANY, EXTENSION_KEY, ledger_rule
from modelarts_kit_spec.schemamodel.model import SchemaModel, required_bodies
from modelarts_kit_spec.schemamodel.page_rows import (
    DEFAULT_ONLY,
    TYPE_WORDS,
    Row,
    clause_naming,
    clause_stating,
    clauses,
    find_row,
    names_value,
    table_title,
)
from modelarts_kit_spec.schemamodel.rules import Quote, Strength
from modelarts_kit_spec.walker import SchemaView, SchemaWalker, iter_schemas, json_types

if TYPE_CHECKING:
    from modelarts_kit_spec.ledger import Ledger, LedgerEntry

__all__ = ["INVENTORIES", "Derivation", "derive", "names_value", "render", "splice"]

JSON = Any
INVENTORIES = "inventories"  # the folder of spec/sources holding inventory_of_*.yaml
CONSTRAINTS = (
    "pattern",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "const",
)
# The ledger kinds whose entries decide a rule of their field (a ``presence``, ``name``,
# ``sensitive`` or ``status-code`` entry decides none).
DECIDING_KINDS = (
    "constraint",
    "enum",
    "mandatory",
    "type",
    "required-response",
    "default",
    "nullable",
    "example",
    "decision",
)

# The keywords a hand-read quote of a deciding ledger entry may document (see _read_quotes).
STATED_IN_PROSE = ("required", *CONSTRAINTS, "enum", "type")


@dataclass(frozen=True)
class Derivation:
    """The derived ``x-modelarts-schema-model`` block and what could not be derived."""

    extension: dict[str, JSON]
    problems: tuple[str, ...] = ()


@dataclass
class _Pages:
    """The recorded pages' words (a staged text wins over the file under ``sources_dir``)."""

    sources_dir: Path
    staged: Mapping[str, str]
    _words: dict[str, str | None] = field(default_factory=dict)

    def text(self, name: str) -> str | None:
        if name in self.staged:
            return self.staged[name]
        try:
            return read_input_text(self.sources_dir / name)
        except OSError:
            return None

    def words(self, name: str) -> str | None:
        if name not in self._words:
            text = self.text(name)
            self._words[name] = None if text is None else page_words(text)
        return self._words[name]

    def inventories(self) -> list[Mapping[str, JSON]]:
        names = {
            f"{INVENTORIES}/{p.name}"
            for p in (self.sources_dir / INVENTORIES).glob("inventory_of_*.yaml")
        }
        names |= {
            n for n in self.staged if re.fullmatch(rf"{INVENTORIES}/inventory_of_.*\.yaml", n)
        }
        found = []
        for name in sorted(names):
            text = self.text(name)
            if text is not None:
                found.append(parse_yaml_text(text, name))
        return found


def derive(
    document: JSON,
    ledger: Ledger,
    *,
    sources_dir: Path = SOURCES_DIR,
    pages: Mapping[str, str] | None = None,
    replaces: Mapping[str, str] | None = None,
) -> Derivation:
    """The ``x-modelarts-schema-model`` block of ``document`` (an in-memory OpenAPI document,
    not changed): its ``rules``, ``values`` and ``quotes``, from ``ledger``, the field
    inventories and the pages under ``sources_dir``. ``pages`` maps a name under
    ``sources_dir`` (``family/x.rst``, ``inventories/inventory_of_x.yaml``) to its staged text,
    which wins over the file (a page or inventory a transaction has not written yet).
    ``replaces`` maps a recorded page (``family/old.rst``) to the revision that replaces it
    (``family/new.rst``): the inventories' rows are then looked up, and quoted, in the new
    page (a row the new page no longer prints is a problem, and its rules lose that quote)."""
    reader = _Pages(sources_dir, pages or {})
    deriving = _Deriving(document, ledger, reader, replaces or {})
    deriving.read_inventories()
    return deriving.result()


class _Deriving:
    def __init__(
        self, document: JSON, ledger: Ledger, pages: _Pages, replaces: Mapping[str, str]
    ) -> None:
        self.replaces = replaces
        self.document = document
        self.ledger = ledger
        self.pages = pages
        self.walker = SchemaWalker(document)
        self.rows: dict[str, list[Row]] = {}  # field pointer -> its rows
        self.referencing: dict[str, list[Row]] = {}  # component -> the rows naming its type
        self.roots: dict[str, list[Quote]] = {}  # body root -> the titles of its tables
        # A body field's dotted path -> the holders of that path in any body (the job's
        # kind in the create request and in the show answer is one field of the job).
        self.body_paths: dict[str, set[str]] = {}
        self.paths_of: dict[str, set[str]] = {}
        self.problems: list[str] = []
        # Each entry walks from its body's root: the same few views thousands of times.
        self.views: dict[tuple[int, str], tuple[JSON, SchemaView]] = {}

    # -- the inventories ------------------------------------------------------------------

    def read_inventories(self) -> None:
        for inventory in self.pages.inventories():
            folder = str(inventory.get("folder", "seeds"))
            files = _mapping(inventory.get("seeds"))
            fields = [f for f in inventory.get("fields") or [] if isinstance(f, Mapping)]
            siblings = _siblings(fields)
            for entry in fields:
                holder = self._holder(entry)
                if holder is None:
                    self.problems.append(
                        f"no schema node for {entry.get('op')} {entry.get('at')} "
                        f"{entry.get('path')}"
                    )
                    continue
                for seed, table in _mapping(entry.get("sources")).items():
                    page = f"{folder}/{files.get(seed, seed)}"
                    page = self.replaces.get(page, page)
                    others = siblings.get(str(seed), frozenset())
                    self._record(holder, page, str(table), entry, others)

    def _record(
        self,
        holder: str,
        page: str,
        table: str,
        entry: Mapping[str, JSON],
        names: frozenset[str],
    ) -> None:
        words = self.pages.words(page)
        if words is None:
            self.problems.append(f"{page}: the page cannot be read")
            return
        path = str(entry.get("path"))
        name = path.rsplit(".", 1)[-1]
        parent = path.rsplit(".", 1)[0] if "." in path else ""
        row = find_row(words, page, table, name, entry, names)
        if row is None:
            self.problems.append(f"{page}: no row {name} ({entry.get('type')}) in table {table}")
            return
        _add(self.rows.setdefault(holder, []), row)
        if entry.get("at") in ("request", "response"):
            self.body_paths.setdefault(path, set()).add(holder)
            self.paths_of.setdefault(holder, set()).add(path)
        target = self._referenced(holder)
        if target is not None:
            _add(self.referencing.setdefault(target, []), row)
        if not parent and entry.get("at") in ("request", "response", "error"):
            title = table_title(words, table)
            if title is not None:
                root = self._root_of(holder)
                quote = Quote(page, title, title)
                if root is not None and quote not in self.roots.setdefault(root, []):
                    self.roots[root].append(quote)

    def _root_of(self, holder: str) -> str | None:
        return holder.rsplit("/properties/", 1)[0] if "/properties/" in holder else None

    def _operation(self, operation_id: str) -> tuple[str, Mapping[str, JSON]] | None:
        for path, item in _mapping(self.document.get("paths")).items():
            for method, operation in _mapping(item).items():
                if _mapping(operation).get("operationId") == operation_id:
                    return pointer_join("/paths", path, method), operation
        return None

    def _body_root(self, operation_id: str, at: str) -> tuple[JSON, str] | None:
        found = self._operation(operation_id)
        if found is None:
            return None
        pointer, operation = found
        if at == "request":
            return _media_schema(
                self.document, operation.get("requestBody"), f"{pointer}/requestBody"
            )
        responses = _mapping(operation.get("responses"))
        for status in responses:
            first = str(status)[:1]
            if (at == "response" and first == "2") or (at == "error" and first == "4"):
                where = pointer_join(pointer, "responses", str(status))
                schema = _media_schema(self.document, responses[status], where)
                if schema is not None:
                    return schema
        return None

    def _holder(self, entry: Mapping[str, JSON]) -> str | None:
        """The pointer of the property (or parameter) that declares the field."""
        at, path = str(entry.get("at")), str(entry.get("path"))
        if at == "path":
            for name, parameter in _mapping(
                _mapping(self.document.get("components")).get("parameters")
            ).items():
                if _mapping(parameter).get("name") == path:
                    return pointer_join("/components/parameters", name)
            return None
        if at in ("query", "header"):
            found = self._operation(str(entry.get("op")))
            if found is None:
                return None
            for index, parameter in enumerate(found[1].get("parameters") or []):
                if _mapping(parameter).get("name") == path:
                    return pointer_join(found[0], "parameters", str(index))
            return None
        root = self._body_root(str(entry.get("op")), at)
        if root is None:
            return None
        *parents, name = path.split(".")
        view = self._view(root[0], root[1])
        for token in [*parents, name]:
            while view.items is not None and token not in view.properties:
                view = self._view(view.items, pointer_join(view.pointer, "items"))
            if token == name:
                break
            if token not in view.properties:
                return None
            pointer = view.property_pointers.get(token, "")
            view = self._view(view.properties[token], pointer)
        return view.property_pointers.get(name) or view.pointer or None

    def _view(self, node: JSON, pointer: str) -> SchemaView:
        key = (id(node), pointer)  # the node is kept beside its view: its id stays its own
        if key not in self.views:
            self.views[key] = (node, self.walker.view(node, pointer, alternatives=True))
        return self.views[key][1]

    def _referenced(self, pointer: str) -> str | None:
        """The component a property refers to (directly or as its items), if any."""
        if "/properties/" not in pointer:
            return None
        try:
            node = resolve_pointer(self.document, pointer)
        except KeyError:
            return None
        if isinstance(node, Mapping) and isinstance(node.get("items"), Mapping):
            node = node["items"]
        candidates = [node]
        if isinstance(node, Mapping):  # a nullable reference: oneOf/anyOf [{$ref}, {type: null}]
            candidates += [b for k in ("anyOf", "oneOf") for b in node.get(k) or []]
        for candidate in candidates:
            ref = candidate.get("$ref") if isinstance(candidate, Mapping) else None
            if isinstance(ref, str) and ref.startswith("#/"):
                return ref.removeprefix("#")
        return None

    # -- the block --------------------------------------------------------------------------

    def result(self) -> Derivation:
        rules = self._ledger_rules()
        quotes = self._row_quotes()
        self._guidance_quotes(quotes)
        self._read_quotes(quotes)
        # What the rows and the ledger say so far: which rules are the pages' to state.
        model = SchemaModel({**self.document, EXTENSION_KEY: {"rules": rules, "quotes": quotes}})
        values = self._constraint_quotes(model, quotes, rules)
        self._required_quotes(model, quotes, rules)
        extension = self._extension(rules, values, quotes)
        # A rule the pages do not state is the ledger's decision where an entry is about it.
        for rule in SchemaModel({**self.document, EXTENSION_KEY: extension}).listed:
            if rule.strength is Strength.DOCUMENTED and not rule.quotes:
                if rule.keyword == "enum" and rule.pointer in values:
                    continue  # a value of its own: values (above)
                field_pointer = self._field_rows(rule.pointer)[0]
                self._decide(rule.pointer, field_pointer, rule.keyword, rules)
        extension = self._extension(rules, values, quotes)
        for rule in SchemaModel({**self.document, EXTENSION_KEY: extension}).rules:
            if (
                rule.strength is Strength.GUIDANCE
                and not rule.quotes
                and rule.keyword != "additionalProperties"
            ):
                self.problems.append(
                    f"{rule.keyword} at {rule.pointer} (guidance): its ledger entry records "
                    "no quotes"
                )
        return Derivation(extension, tuple(dict.fromkeys(self.problems)))

    @staticmethod
    def _extension(
        rules: Mapping[str, JSON],
        values: Mapping[str, JSON],
        quotes: Mapping[str, Mapping[str, JSON]],
    ) -> dict[str, JSON]:
        extension: dict[str, JSON] = {"rules": _sorted(rules)}
        if values:
            extension["values"] = _sorted(values)
        extension["quotes"] = _sorted({p: _sorted(q) for p, q in quotes.items()})
        return extension

    def _ledger_rules(self) -> dict[str, dict[str, dict[str, JSON]]]:
        rules: dict[str, dict[str, dict[str, JSON]]] = {}
        for entry in self.ledger.entries:
            for keyword, strength in ledger_rule(entry.kind, entry.id, entry.expect):
                at = rules.setdefault(entry.pointer or "", {})
                rule = at.setdefault(keyword, {"strength": strength, "ledger": []})
                rule["ledger"].append(entry.id)
                _add_sdk(rule, entry)
        return rules

    def _row_quotes(self) -> dict[str, dict[str, JSON]]:
        quotes: dict[str, dict[str, JSON]] = {}
        for pointer, rows in self.rows.items():
            block = quotes.setdefault(pointer, {})
            block[ANY] = [str(r.quote) for r in rows]
            agreeing = [str(r.quote) for r in rows if self._agrees(pointer, r.printed_type)]
            if agreeing != block[ANY]:
                block["type"] = agreeing
        for pointer, rows in self.referencing.items():
            block = quotes.setdefault(pointer, {})
            block.setdefault(ANY, [str(r.quote) for r in rows])
        for pointer, titles in self.roots.items():
            quotes.setdefault(pointer, {}).setdefault(ANY, [str(q) for q in titles])
        return quotes

    def _agrees(self, pointer: str, printed: str) -> bool:
        """Whether a page's type word is evidence of the spec's type at ``pointer``."""
        try:
            node = resolve_pointer(self.document, pointer)
        except KeyError:
            return False
        if isinstance(node, Mapping) and "schema" in node and "in" in node:
            node = node["schema"]  # a parameter: its schema's type
        types = json_types(resolve_ref(self.document, node, pointer).node) - {"null"}
        word = normalise(printed)
        for pattern, meant in TYPE_WORDS:
            if pattern.search(word):
                return not types or bool(types & meant)
        return False  # a type word the kit does not know states nothing

    def _guidance_quotes(self, quotes: dict[str, dict[str, JSON]]) -> None:
        """A guidance rule quotes what its ledger entry recorded (``quotes``), read by hand."""
        for entry in self.ledger.entries:
            recorded = [str(q) for q in _strings(entry.extra.get("quotes"))]
            if not recorded:
                continue
            for keyword, strength in ledger_rule(entry.kind, entry.id, entry.expect):
                if strength == Strength.GUIDANCE.value:
                    quotes.setdefault(entry.pointer or "", {})[keyword] = recorded

    def _read_quotes(self, quotes: dict[str, dict[str, JSON]]) -> None:
        """A rule a page states in prose rather than in a table row (the error body's
        ``error_code`` and ``error_msg``, from the common response page) quotes what its
        ledger entry recorded (``quotes``), read by hand: the rule is then ``documented``,
        not the ledger's decision, and ``spec validate`` holds each quote to its page."""
        for entry in self.ledger.entries:
            recorded = [str(q) for q in _strings(entry.extra.get("quotes"))]
            if not recorded or entry.kind not in DECIDING_KINDS:
                continue
            for keyword in _mapping(entry.expect):
                if keyword in STATED_IN_PROSE:
                    quotes.setdefault(entry.pointer or "", {})[keyword] = recorded

    def _shared_rows(self, field_pointer: str, rows: list[Row]) -> list[Row]:
        """The field's rows, then those of the same body field elsewhere (a value a page
        lists for the job's ``kind`` in an answer is a value of the job's ``kind`` in the
        create request too: a page's rule covers every shape of its field)."""
        found = list(rows)
        for path in sorted(self.paths_of.get(field_pointer, ())):
            for holder in sorted(self.body_paths.get(path, ())):
                for row in self.rows.get(holder, []):
                    _add(found, row)
        return found

    def _field_rows(self, pointer: str) -> tuple[str, list[Row]]:
        """The rows of the nearest field at or above ``pointer`` (up to a property or a
        parameter), and that field's pointer."""
        current = pointer
        while current:
            if current in self.rows:
                return current, self.rows[current]
            if "/properties/" in current and current.rsplit("/", 2)[-2] == "properties":
                break
            current = current.rsplit("/", 1)[0]
        return pointer, []

    def _entries_about(self, *pointers: str) -> list[LedgerEntry]:
        """The ledger entries that decide a rule at one of ``pointers`` (a field only the SDK
        lacks, a name, a secret or a status code decides no rule of its schema)."""
        wanted = set(pointers)
        return [e for e in self.ledger.entries if e.pointer in wanted and e.kind in DECIDING_KINDS]

    def _constraint_quotes(
        self,
        model: SchemaModel,
        quotes: dict[str, dict[str, JSON]],
        rules: dict[str, dict[str, dict[str, JSON]]],
    ) -> dict[str, dict[str, dict[str, JSON]]]:
        """Each length, range, pattern and enum value quotes the sentence that states it;
        one no page states is the ledger's decision (or the SDK's, for an enum value)."""
        values: dict[str, dict[str, dict[str, JSON]]] = {}
        for pointer, schema in iter_schemas(self.document):
            for keyword in (*CONSTRAINTS, "enum", "format"):
                if (
                    keyword not in schema
                    or model.rule_at(pointer, keyword).strength is not Strength.DOCUMENTED
                ):
                    continue
                field_pointer, rows = self._field_rows(pointer)
                if keyword == "enum":
                    shared = self._shared_rows(field_pointer, rows)
                    self._enum_quotes(
                        pointer,
                        field_pointer,
                        (rows, shared),
                        schema["enum"],
                        quotes,
                        values,
                        rules,
                    )
                    continue
                if keyword == "format":
                    if self._format_stated(pointer, field_pointer, rows, schema["format"]):
                        quotes.setdefault(pointer, {}).setdefault(
                            "format",
                            [str(r.quote) for r in rows if self._agrees(pointer, r.printed_type)],
                        )
                    continue
                found = [
                    str(Quote(r.quote.page, r.quote.locator, clause))
                    for r in rows
                    if (clause := clause_stating(r.description, keyword, schema[keyword]))
                    is not None
                ]
                if found:
                    quotes.setdefault(pointer, {})[keyword] = found
        return values

    def _format_stated(self, pointer: str, field_pointer: str, rows: list[Row], fmt: JSON) -> bool:
        """``int32``/``int64``/``double`` is the documented type (``Integer``, ``Long``,
        ``Double``): a row printing an agreeing type states it."""
        if fmt in ("int32", "int64", "double", "float"):
            return any(self._agrees(pointer, r.printed_type) for r in rows)
        return any(str(fmt) in r.description for r in rows)

    def _enum_quotes(
        self,
        pointer: str,
        field_pointer: str,
        own_and_shared: tuple[list[Row], list[Row]],
        enum: JSON,
        quotes: dict[str, dict[str, JSON]],
        values: dict[str, dict[str, dict[str, JSON]]],
        rules: dict[str, dict[str, dict[str, JSON]]],
    ) -> None:
        """Quotes of an enum's values (the field's own rows, then the same field's on other
        pages); own rows naming a value only as a default close no list: a decision."""
        own, rows = own_and_shared
        listed = [str(v) for v in enum] if isinstance(enum, list) else []
        own_clauses = [c for r in own for v in listed if (c := clause_naming(r.description, v))]
        if own_clauses and all(DEFAULT_ONLY.search(c) for c in own_clauses):
            self._decide(pointer, field_pointer, "enum", rules)
            return
        stated: dict[str, list[str]] = {}
        for value in listed:
            found = [
                str(Quote(r.quote.page, r.quote.locator, clause))
                for r in rows
                if (clause := clause_naming(r.description, value)) is not None
            ]
            if found:
                stated[value] = found
        if not stated:
            same = [
                str(Quote(r.quote.page, r.quote.locator, clause))
                for r in rows
                for clause in clauses(r.description)
                if re.search(r"\bsame as\b", clause)
            ]
            if same:  # "The options are the same as those of end_recover."
                quotes.setdefault(pointer, {})["enum"] = same
            return  # no value stated: the enum as a whole is the ledger's (below)
        # One list of the clauses: each value's quotes are the clauses that name it.
        quotes.setdefault(pointer, {})["enum"] = list(
            dict.fromkeys(q for qs in stated.values() for q in qs)
        )
        for value in listed:
            if value not in stated:
                values.setdefault(pointer, {})[value] = self._value_source(
                    pointer, field_pointer, value
                )

    def _value_source(self, pointer: str, field_pointer: str, value: str) -> dict[str, JSON]:
        """How firmly an enum value no page's description names binds: ``sdk`` when a ledger
        entry about the field records an SDK source naming it, ``example`` when only a page's
        example shows it, else the ledger's ``decision``."""
        entries = self._entries_about(pointer, field_pointer)
        annotation: dict[str, JSON] = {
            "strength": Strength.DECISION.value,
            "ledger": [e.id for e in entries],
        }
        sources = [s for e in entries for s in e.sources if names_value(s.says or "", value)]
        if any(s.sdk is not None for s in sources):
            annotation["strength"] = Strength.SDK.value
            for entry in entries:
                _add_sdk(annotation, entry)
        elif sources and all(
            "Example" in (s.table or "") or "示例" in (s.table or "") for s in sources
        ):
            annotation["strength"] = Strength.EXAMPLE.value
        if not entries:
            self.problems.append(f"enum at {pointer}: {value!r} no page names, and no ledger entry")
        return annotation

    def _decide(
        self,
        pointer: str,
        field_pointer: str,
        keyword: str,
        rules: dict[str, dict[str, dict[str, JSON]]],
    ) -> None:
        entries = self._entries_about(pointer, field_pointer)
        if not entries:
            self.problems.append(
                f"{keyword} at {pointer}: no page states it, and no ledger entry decides it"
            )
            return
        rules.setdefault(pointer, {})[keyword] = {
            "strength": Strength.DECISION.value,
            "ledger": [e.id for e in entries],
        }

    def _required_quotes(
        self,
        model: SchemaModel,
        quotes: dict[str, dict[str, JSON]],
        rules: dict[str, dict[str, dict[str, JSON]]],
    ) -> None:
        """``required`` quotes the rows whose Mandatory cell says yes, one per name at least; a
        body marked required quotes the rows of the fields that make it so."""
        for pointer, schema in iter_schemas(self.document):
            names = schema.get("required")
            if (
                not isinstance(names, list)
                or model.rule_at(pointer, "required").strength is not Strength.DOCUMENTED
            ):
                continue
            if (
                "/anyOf/" in pointer
                or "/allOf/" in pointer
                or "/oneOf/" in pointer
                or pointer.endswith("/not")
            ):
                continue  # a part of a choose-one, quoted by its rule
            found: list[str] = []
            missing = []
            for name in names:
                yes = [
                    str(r.quote)
                    for r in self.rows.get(pointer_join(pointer, "properties", str(name)), [])
                    if r.says_yes
                ]
                found.extend(yes)
                if not yes:
                    missing.append(str(name))
            if found and not missing:
                quotes.setdefault(pointer, {})["required"] = found
        for body in required_bodies(self.document):
            media = _media_schema(self.document, resolve_pointer(self.document, body), body)
            if media is None:
                continue
            root = resolve_ref(self.document, media[0], media[1]).pointer
            stated = quotes.get(root, {}).get("required")
            if stated:
                quotes.setdefault(body, {})["required"] = list(stated)


# -- helpers ------------------------------------------------------------------------------------


def _siblings(fields: Iterable[Mapping[str, JSON]]) -> dict[str, frozenset[str]]:
    """Per page key: the names of every field printed on the page (a row's description ends
    where the next row of any table starts)."""
    found: dict[str, set[str]] = {}
    for entry in fields:
        path = str(entry.get("path"))
        for seed in _mapping(entry.get("sources")):
            found.setdefault(str(seed), set()).add(path.rsplit(".", 1)[-1])
    return {seed: frozenset(names) for seed, names in found.items()}


def _media_schema(document: JSON, raw: JSON, pointer: str) -> tuple[JSON, str] | None:
    resolved = resolve_ref(document, raw, pointer)
    media = _mapping(_mapping(_mapping(resolved.node).get("content")).get("application/json"))
    if "schema" not in media:
        return None
    return media["schema"], pointer_join(resolved.pointer, "content", "application/json", "schema")


def _add(rows: list[Row], row: Row) -> None:
    if all(r.quote != row.quote for r in rows):
        rows.append(row)


def _add_sdk(rule: dict[str, JSON], entry: LedgerEntry) -> None:
    for source in entry.sources:
        if source.sdk is not None:
            models = rule.setdefault("sdk", [])
            text = f"{source.sdk} {source.model}"
            if text not in models:
                models.append(text)


def _mapping(value: JSON) -> Mapping[str, JSON]:
    return value if isinstance(value, Mapping) else {}


def _strings(value: JSON) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(v) for v in value]
    return []


def _sorted(mapping: Mapping[str, JSON]) -> dict[str, JSON]:
    return {key: mapping[key] for key in sorted(mapping)}
