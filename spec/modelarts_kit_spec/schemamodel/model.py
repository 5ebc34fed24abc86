"""The schema model of one spec (``spec.schema_model``): every rule with its strength and
evidence, and per schema node what is required, documented, guidance and sensitive.

A rule is found by the pointer of its schema node and its keyword
(:meth:`SchemaModel.rule_at`); a validator error of ``spec.envelope(...)`` names both (its
``schema_path`` under the schema's pointer), so a verdict can cite the rule. The strength is,
in order: what ``x-modelarts-schema-model`` says; ``guidance`` for a keyword the node's
``x-modelarts-guidance`` lists, or for the closing of an object the spec leaves open (the
must-accept envelope closes request objects); the strength of the field holding the rule
when only the SDK or an example has that field; otherwise ``documented``, with the evidence
of the page tables that state the field (or, for a rule of an object, the object).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from modelarts_kit_spec.document import pointer_join, resolve_pointer
from modelarts_kit_spec.refs import resolve_ref
from modelarts_kit_spec.schemamodel.extension import Annotation, Extension, read_extension
from modelarts_kit_spec.schemamodel.rules import (
    ARRAY_FORM,
    CHOICE_KEYWORDS,
    NULLABLE,
    PRESENCE,
    RULE_KEYWORDS,
    Rule,
    Strength,
)
from modelarts_kit_spec.values import DocumentedValues, documented_values
from modelarts_kit_spec.walker import iter_schemas, json_types

if TYPE_CHECKING:
    from modelarts_kit_spec.view import SpecView

__all__ = ["SchemaModel", "SchemaNode", "required_bodies"]

JSON = Any
NOT_GIVEN: Any = object()  # rule_for_error without the refused value
GUIDANCE_KEY = "x-modelarts-guidance"
SENSITIVE_KEY = "x-modelarts-sensitive"


@dataclass(frozen=True)
class SchemaNode:
    """What one schema node (``$ref`` not followed) says, sorted by strength."""

    pointer: str
    required: frozenset[str]  # names that must be present (documented: Mandatory: Yes)
    documented: frozenset[str]  # properties whose presence a page documents
    lenient: frozenset[str]  # properties only the SDK or an example has
    guidance: frozenset[str]  # keywords at this node that are guidance
    sensitive: bool  # the node's value is secret (x-modelarts-sensitive; `when` counts)
    values: DocumentedValues | None  # its documented values (open or closed enum)
    nullable: Strength | None  # how firmly `null` is allowed here (None: it is not)


def _mapping(value: JSON) -> Mapping[str, JSON]:
    return value if isinstance(value, Mapping) else {}


def _has_null_branch(node: Mapping[str, JSON]) -> bool:
    branches = [*(node.get("anyOf") or []), *(node.get("oneOf") or [])]
    return any(isinstance(b, Mapping) and b.get("type") == "null" for b in branches)


def allows_null(node: Mapping[str, JSON]) -> bool:
    declared = node.get("type")
    stated = declared == "null" or (isinstance(declared, list) and "null" in declared)
    return stated or _has_null_branch(node)


def required_bodies(document: JSON) -> list[str]:
    """Pointers of the operations' ``requestBody`` objects written ``required: true``."""
    found: list[str] = []
    for path, item in _mapping(_mapping(document).get("paths")).items():
        for method, operation in _mapping(item).items():
            body = _mapping(_mapping(operation).get("requestBody"))
            if body.get("required") is True:
                found.append(pointer_join("/paths", path, method, "requestBody"))
    return found


class SchemaModel:
    """Rules, strengths and evidence of one spec document."""

    def __init__(self, document: JSON) -> None:
        self.document = document
        self.extension: Extension = read_extension(document)

    @classmethod
    def of(cls, spec: SpecView) -> SchemaModel:
        return cls(spec.document)

    # -- single rules ----------------------------------------------------------------------

    def _node(self, pointer: str) -> Mapping[str, JSON]:
        try:
            return _mapping(resolve_pointer(self.document, pointer))
        except KeyError:
            return {}

    def rule_at(self, pointer: str, keyword: str) -> Rule:
        """The rule ``keyword`` at the schema node ``pointer`` (``#`` prefix allowed), with its
        strength, evidence and the pages' words. Any keyword answers: a rule the spec does not
        name is ``documented`` by the pages of its node (the envelope's int32/int64 ranges are
        the documented type); closing an object the spec leaves open is ``guidance``."""
        pointer = pointer.removeprefix("#")
        rule = self._strength_of(pointer, keyword)
        quotes = self.extension.quotes_for(pointer, keyword)
        valued = (*RULE_KEYWORDS, *CHOICE_KEYWORDS, "additionalProperties")
        value = self._node(pointer).get(keyword) if keyword in valued else None
        return Rule(rule.pointer, keyword, rule.strength, rule.evidence, quotes, value)

    def _strength_of(self, pointer: str, keyword: str) -> Rule:
        pages = self.extension.pages_for(pointer)
        annotation = self.extension.annotations.get((pointer, keyword))
        if annotation is not None:
            return Rule(pointer, keyword, annotation.strength, (*annotation.evidence, *pages))
        field = self._lenient_field_around(pointer, keyword)
        if field is not None:
            return Rule(pointer, keyword, field.strength, (*field.evidence, *pages))
        choice = self._choice_around(pointer)
        if choice is not None:
            return Rule(pointer, keyword, choice.strength, choice.evidence)
        node = self._node(pointer)
        if keyword in (node.get(GUIDANCE_KEY) or ()):
            return Rule(pointer, keyword, Strength.GUIDANCE, pages)
        if keyword == "additionalProperties" and "additionalProperties" not in node:
            return Rule(pointer, keyword, Strength.GUIDANCE, pages)
        return Rule(pointer, keyword, Strength.DOCUMENTED, pages)

    def _choice_around(self, pointer: str) -> Rule | None:
        """The choose-one rule (``allOf``/``anyOf``/``oneOf`` the spec names) that a node
        inside it belongs to: the ``not`` of a not-both pair binds as its choice does."""
        tokens = pointer.split("/")
        for end in range(len(tokens) - 1, 0, -1):
            if tokens[end] in (*CHOICE_KEYWORDS, "not"):
                holder = "/".join(tokens[:end])
                if self._is_choice_rule(holder, tokens[end]):
                    return self._strength_of(holder, tokens[end])
        return None

    def value_rules(self, pointer: str) -> tuple[Rule, ...]:
        """One rule per value of the enum at ``pointer``: ``documented`` with its quotes, or
        the strength and evidence ``x-modelarts-schema-model`` names (``values``)."""
        pointer = pointer.removeprefix("#")
        enum = self._node(pointer).get("enum")
        if not isinstance(enum, list):
            return ()
        whole = self.rule_at(pointer, "enum")
        named = self.extension.values.get(pointer, {})
        rules: list[Rule] = []
        for value in enum:
            annotation = named.get(str(value))
            if annotation is not None:
                rules.append(
                    Rule(pointer, "enum", annotation.strength, annotation.evidence, (), value)
                )
                continue
            quotes = self.extension.value_quotes(pointer, str(value))
            rules.append(Rule(pointer, "enum", whole.strength, whole.evidence, quotes, value))
        return tuple(rules)

    def accepted_values(self, pointer: str) -> tuple[Any, ...] | None:
        """The values of the enum at ``pointer`` every correct server accepts (the documented
        ones), or ``None`` when every value is."""
        pointer = pointer.removeprefix("#")
        if pointer not in self.extension.values:
            return None
        return tuple(
            r.value for r in self.value_rules(pointer) if r.strength is Strength.DOCUMENTED
        )

    def _lenient_field_around(self, pointer: str, keyword: str) -> Annotation | None:
        """The ``sdk`` or ``example`` presence of the nearest field holding the rule: a field
        only the SDK or an example has takes its type, range and fields from there too."""
        tokens = pointer.split("/")
        last = len(tokens) if keyword != PRESENCE else len(tokens) - 1
        for end in range(last, 1, -1):
            if tokens[end - 2] != "properties":
                continue
            found = self.extension.annotations.get(("/".join(tokens[:end]), PRESENCE))
            if found is not None and found.strength is not Strength.DOCUMENTED:
                return found
        return None

    def rule_for(self, keyword_pointer: str) -> Rule:
        """The rule whose keyword is the last token of ``keyword_pointer``
        (``/components/schemas/JobMetadata/properties/name/pattern``)."""
        pointer, _, keyword = keyword_pointer.removeprefix("#").rpartition("/")
        return self.rule_at(pointer, keyword)

    def rule_for_error(
        self,
        schema: JSON,
        schema_path: Iterable[str | int],
        base_pointer: str = "",
        *,
        instance: JSON = NOT_GIVEN,
    ) -> Rule:
        """The rule a validator error broke: ``schema`` is the schema the validator was built
        for (an envelope's, e.g. ``op.request_schema``; ``base_pointer`` its place when it is
        inline), ``schema_path`` the error's (jsonschema leaves the ``$ref`` hops out: they
        are followed here) and ``instance`` the value it refused, so the verdict can cite
        ``rule.cite()``. A choose-one the spec writes as ``allOf``/``anyOf``/``oneOf`` is that
        rule, not the ``not`` or ``required`` inside it; a ``null`` refused by a type or a
        shape breaks the node's ``nullable`` rule."""
        tokens = [str(token) for token in schema_path]
        if not tokens:
            return self.rule_at(base_pointer, "")
        resolved = resolve_ref(self.document, schema, base_pointer)
        node, pointer = resolved.node, resolved.pointer
        for token in tokens[:-1]:
            if token in CHOICE_KEYWORDS and self._is_choice_rule(pointer, token):
                return self.rule_at(pointer, token)
            if isinstance(node, Mapping) and token in node:
                node, pointer = node[token], pointer_join(pointer, token)
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node, pointer = node[int(token)], pointer_join(pointer, token)
            else:
                break  # a keyword the envelope added (a closed object): cite its node
            resolved = resolve_ref(self.document, node, pointer)
            node, pointer = resolved.node, resolved.pointer
        keyword = tokens[-1]
        a_shape = keyword == "type" or (
            keyword in CHOICE_KEYWORDS and not self._is_choice_rule(pointer, keyword)
        )
        if instance is None and a_shape:
            return self.rule_at(pointer, NULLABLE)  # null where the node allows none
        return self.rule_at(pointer, keyword)

    def _is_choice_rule(self, pointer: str, keyword: str) -> bool:
        """Whether ``keyword`` (``allOf``, ``anyOf``, ``oneOf``) at ``pointer`` is a rule the
        spec names (a choose-one), not a shape (an open enum, a nullable value)."""
        if (pointer, keyword) in self.extension.annotations:
            return True
        return keyword in (self._node(pointer).get(GUIDANCE_KEY) or ())

    def presence(self, property_pointer: str) -> Strength:
        """How firmly the property at ``property_pointer`` exists (``documented`` unless only
        the SDK or an example has it)."""
        return self.rule_at(property_pointer, PRESENCE).strength

    def node(self, pointer: str) -> SchemaNode:
        pointer = pointer.removeprefix("#")
        raw = self._node(pointer)
        names = _mapping(raw.get("properties"))
        lenient = frozenset(
            name
            for name in names
            if self.presence(pointer_join(pointer, "properties", name)) is not Strength.DOCUMENTED
        )
        guidance = frozenset(str(k) for k in raw.get(GUIDANCE_KEY) or ())
        return SchemaNode(
            pointer=pointer,
            required=frozenset(str(n) for n in raw.get("required") or ()),
            documented=frozenset(names) - lenient,
            lenient=lenient,
            guidance=guidance,
            sensitive=bool(raw.get(SENSITIVE_KEY)),
            values=documented_values(raw),
            nullable=self.rule_at(pointer, NULLABLE).strength if allows_null(raw) else None,
        )

    # -- every rule ------------------------------------------------------------------------

    def _rules_of(self, pointer: str, schema: Mapping[str, JSON]) -> Iterator[Rule]:
        if self._choice_around(pointer) is not None:
            return  # a part of a choose-one (the `not` of a not-both pair) is that rule
        guidance = set(schema.get(GUIDANCE_KEY) or ())
        for keyword in (*RULE_KEYWORDS, *CHOICE_KEYWORDS, "additionalProperties"):
            if keyword not in schema:
                continue
            if keyword in CHOICE_KEYWORDS and keyword not in guidance:
                continue  # a shape (open enum, nullability), not a restriction
            if keyword == "additionalProperties" and schema[keyword] is not False:
                continue
            if keyword == "type" and json_types(schema) == {"null"}:
                continue
            yield self.rule_at(pointer, keyword)
        if allows_null(schema):
            yield self.rule_at(pointer, NULLABLE)
        if (pointer, ARRAY_FORM) in self.extension.annotations:
            yield self.rule_at(pointer, ARRAY_FORM)
        if pointer.rsplit("/", 2)[-2:-1] == ["properties"]:
            yield self.rule_at(pointer, PRESENCE)

    @functools.cached_property
    def rules(self) -> tuple[Rule, ...]:
        """Every rule of the document, by schema node (components, then paths), then each
        request body the spec marks required (``required`` at the ``requestBody``)."""
        found = [
            rule
            for pointer, schema in iter_schemas(self.document)
            for rule in self._rules_of(pointer, schema)
        ]
        found.extend(
            self.rule_at(pointer, "required") for pointer in required_bodies(self.document)
        )
        return tuple(found)

    @functools.cached_property
    def listed(self) -> tuple[Rule, ...]:
        """Every rule, an enum whose values have their own strengths as one rule per value
        (what ``spec rules`` lists)."""
        out: list[Rule] = []
        for rule in self.rules:
            if rule.keyword == "enum" and rule.pointer in self.extension.values:
                out.extend(self.value_rules(rule.pointer))
            else:
                out.append(rule)
        return tuple(out)

    def counts(self) -> dict[Strength, int]:
        """How many rules there are at each strength."""
        counted = Counter(rule.strength for rule in self.rules)
        return {strength: counted.get(strength, 0) for strength in Strength}
