"""The two envelopes a target is judged by, as the contract kit asks them of the spec.

- **must-accept**: a body every correct server accepts (every rule the pages state, every
  guidance rule, only documented fields);
- **must-reject**: the rules every correct server enforces; a body *outside* it breaks a rule
  a page states (``Mandatory: Yes``, a type, a closed enum, a stated pattern or length).

Between the two lies the server's own choice: a contract check demands acceptance only of
must-accept bodies (:attr:`Placement.MUST_ACCEPT`), rejection only of bodies outside
must-reject (:attr:`Placement.MUST_REJECT`), and records what the server chose for the rest
(:attr:`Placement.BETWEEN`) as an observation.

This is the kit's one adapter to the schema model in ``spec/`` (``spec.envelope(name)``,
``spec.schema_model.rule_at(pointer, keyword)``): every contract check reads envelopes, rule
strength and evidence here, never from a model of its own. A validator error is cited by
``spec.schema_model.rule_for_error`` (a ``not`` inside ``allOf`` is the ``allOf`` rule, a
refused ``null`` the ``nullable`` rule); a field outside a closed object by its own presence
when the spec knows it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from jsonschema import ValidationError
from modelarts_kit_spec import Spec
from modelarts_kit_spec.load import pointer_join
from modelarts_kit_spec.schemamodel import MUST_ACCEPT, MUST_REJECT
from modelarts_kit_spec.schemamodel.operation_quotes import operation_quote, status_quote
from modelarts_kit_spec.schemamodel.parameters import (
    ParameterBreak,
    given_values,
    parameter_breaks,
)
from modelarts_kit_spec.schemamodel.rules import NULLABLE, PRESENCE, Strength

__all__ = ["NULLABLE", "BrokenRule", "Envelopes", "Placement"]

JSON = Any
# Credentials are judged by the auth checks, and OpenAPI ignores a header parameter named
# Content-Type: none is judged as a parameter.
UNJUDGED_HEADERS = ("x-auth-token", "authorization", "x-sdk-date", "host", "content-type")
DECISION = Strength.DECISION.value


class Placement(StrEnum):
    """Where a request body lies with respect to the two envelopes."""

    MUST_ACCEPT = "must-accept"  # every correct server accepts it
    BETWEEN = "between"  # the server's own choice
    MUST_REJECT = "must-reject"  # outside must-reject: every correct server refuses it


@dataclass(frozen=True)
class BrokenRule:
    """One rule a body breaks: the keyword at a spec node, how firmly it binds, its source."""

    keyword: str
    pointer: str  # the schema node in the spec ("" when the node has no place in it)
    instance_pointer: str  # where in the body
    strength: str  # documented | guidance | sdk | example
    evidence: str  # the page and table, the SDK model, or the ledger entry
    fields: tuple[str, ...] = ()  # the properties the rule names (required, choose-one...)

    @property
    def choice(self) -> str:
        """The rule in a few words, as an observation of what a server chose names it."""
        where = self.instance_pointer or "/"
        if self.keyword == "additionalProperties" and self.strength in ("sdk", "example"):
            return f"the {self.strength}-only field {where}"
        if self.keyword == "additionalProperties":
            return "unknown fields"
        if self.keyword == NULLABLE:
            return f"null at {where}"
        if self.keyword == "anyOf" and self.fields:
            return f"{where} needs one of {', '.join(self.fields)}"
        if self.keyword in ("oneOf", "not", "allOf") and self.fields:
            return f"{where} takes only one of {', '.join(self.fields)}"
        if self.keyword == "dependentRequired" and self.fields:
            return f"{where}: {self.fields[0]} needs {', '.join(self.fields[1:])}"
        if self.keyword == "type":
            return f"the type at {where}"
        return f"{self.keyword} at {where}"


PLACED_MEMO = 4096  # placements kept per spec (bodies of one run; cleared when full)


@dataclass(frozen=True)
class Envelopes:
    """The envelopes of one spec, with the strength and evidence of each rule."""

    spec: Spec

    @functools.cached_property
    def must_accept(self) -> Spec:
        """What every correct server accepts (guidance included, documented fields only)."""
        return self.spec.envelope(MUST_ACCEPT)

    @functools.cached_property
    def must_reject(self) -> Spec:
        """What every correct server enforces (a body outside it must be refused)."""
        return self.spec.envelope(MUST_REJECT)

    def request_schema(self, envelope: Spec, operation_id: str) -> JSON:
        return envelope.operation(operation_id).request_schema

    def place(self, operation_id: str, body: JSON) -> Placement:
        """Where ``body`` lies for the request of ``operation_id``.

        The same body is placed several times in a run (the traffic guard, the acceptance and
        rejection checks, the observations): the last :data:`PLACED_MEMO` placements are kept,
        keyed by the body's canonical JSON, so each is validated once."""
        try:
            key = (operation_id, json.dumps(body, sort_keys=True, allow_nan=False))
        except (TypeError, ValueError):  # not JSON text (a NaN, a non-string key): no memo
            return self._place(operation_id, body)
        memo = self._placed
        found = memo.get(key)
        if found is None:
            found = self._place(operation_id, body)
            if len(memo) >= PLACED_MEMO:
                memo.clear()
            memo[key] = found
        return found

    @functools.cached_property
    def _placed(self) -> dict[tuple[str, str], Placement]:
        return {}

    def _place(self, operation_id: str, body: JSON) -> Placement:
        if self._is_valid(self.must_accept, operation_id, body):
            return Placement.MUST_ACCEPT
        if self._is_valid(self.must_reject, operation_id, body):
            return Placement.BETWEEN
        return Placement.MUST_REJECT

    def place_parameters(
        self,
        operation_id: str,
        query: Iterable[tuple[str, str]],
        headers: Mapping[str, str] | None = None,
        path: Mapping[str, str] | None = None,
    ) -> Placement:
        """Where a request's query, header and path parameters lie. An empty value is not
        given for must-reject, and no request that sends one is must-accept: whether a server
        refuses ``level=`` or ``pattern=`` is an observation (issue 31, item 5)."""
        pairs = list(query)
        if not _sends_empty(pairs, headers) and not self.parameter_breaks(
            self.must_accept, operation_id, pairs, headers, path
        ):
            return Placement.MUST_ACCEPT
        if self.parameter_breaks(self.must_reject, operation_id, pairs, headers, path):
            return Placement.MUST_REJECT
        return Placement.BETWEEN

    def parameter_breaks(
        self,
        envelope: Spec,
        operation_id: str,
        query: Iterable[tuple[str, str]],
        headers: Mapping[str, str] | None = None,
        path: Mapping[str, str] | None = None,
    ) -> list[ParameterBreak]:
        """The rules of ``envelope`` the query, header and path parameters break (an empty
        value is not given: :meth:`place_parameters` never asks must-accept about one)."""
        operation = self.spec.operation(operation_id)
        found = parameter_breaks(envelope, operation, "query", given_values(query))
        if headers is not None:
            values = given_values(headers.items())
            found += parameter_breaks(envelope, operation, "header", values, skip=UNJUDGED_HEADERS)
        if path is not None:
            # A job id the ledger's pattern does not allow is no id a correct server must take.
            found += parameter_breaks(envelope, operation, "path", dict(path))
        return found

    def broken(self, envelope: Spec, operation_id: str, body: JSON) -> tuple[BrokenRule, ...]:
        """The rules of ``envelope`` that ``body`` breaks, each once, with their evidence."""
        schema = self.request_schema(envelope, operation_id)
        if schema is None:
            return ()
        found: dict[tuple[str, str, str], BrokenRule] = {}
        for error in _leaf_errors(envelope.iter_errors(schema, body)):
            for rule in self._cite(envelope, schema, error):
                found.setdefault((rule.pointer, rule.keyword, rule.instance_pointer), rule)
        return tuple(found.values())

    def answer_decisions(
        self, operation_id: str, status: int, body: JSON
    ) -> tuple[BrokenRule, ...]:
        """The ledger's decisions an answer (``status``, ``body``) departs from: the rules of
        strength ``decision`` of the spec's schema for that answer that ``body`` breaks. An
        answer is judged by must-reject, which leaves them out; these are observations."""
        try:
            response = self.spec.operation(operation_id).response_for(status)
        except KeyError:
            return ()
        if response is None or response.schema is None:
            return ()
        schema = response.schema
        found: dict[tuple[str, str, str], BrokenRule] = {}
        for error in _leaf_errors(self.spec.iter_errors(schema, body)):
            for rule in self._cite(self.spec, schema, error):
                if rule.strength == DECISION:
                    found.setdefault((rule.pointer, rule.keyword, rule.instance_pointer), rule)
        return tuple(found.values())

    def rule(self, pointer: str, keyword: str) -> tuple[str, str]:
        """(strength, evidence) of ``keyword`` at the spec node ``pointer``."""
        found = self.spec.schema_model.rule_at(pointer, keyword)
        return str(found.strength), found.cite()

    def evidence(self, pointer: str) -> str:
        """Where what the spec says at ``pointer`` (an operation, a response) comes from: the
        recorded evidence, else the page's own words (its URI line, its status row)."""
        found = self.spec.schema_model.rule_at(pointer, PRESENCE)
        sources = "; ".join(str(e) for e in found.evidence) or self._page_quote(pointer)
        return f"spec {pointer}" + (f": {sources}" if sources else "")

    def _page_quote(self, pointer: str) -> str:
        for operation in self.spec.operations:
            if pointer != operation.pointer and not pointer.startswith(operation.pointer + "/"):
                continue
            rest = pointer[len(operation.pointer) :].split("/")
            quotes = [operation_quote(operation.operation_id, operation.method, operation.path)]
            if len(rest) > 2 and rest[1] == "responses":
                quotes.append(status_quote(operation.operation_id, rest[2]))
            return "; ".join(q for q in quotes if q)
        return ""

    def _is_valid(self, envelope: Spec, operation_id: str, body: JSON) -> bool:
        schema = self.request_schema(envelope, operation_id)
        if schema is None:
            return True
        quick = envelope.quick_verdict(schema, body)  # Rust, where provably Python's answer
        return quick if quick is not None else bool(envelope.validator(schema).is_valid(body))

    def _cite(self, envelope: Spec, schema: JSON, error: ValidationError) -> Iterator[BrokenRule]:
        instance_pointer = pointer_join("", *error.absolute_path)
        view = envelope.walker.at_pointer(schema, instance_pointer)
        pointer = view.pointer if view is not None else ""
        found = self.spec.schema_model.rule_for_error(
            schema, error.schema_path, instance=error.instance
        )
        if found.keyword == "additionalProperties" and view is not None:
            # A field the envelope leaves out may still be one the spec knows (SDK-only...).
            extra = [n for n in _mapping(error.instance) if n not in view.properties]
            for name in extra:
                yield self._field_rule(schema, instance_pointer, name, pointer)
            if extra:
                return
        yield BrokenRule(
            keyword=found.keyword,
            pointer=found.pointer,
            instance_pointer=instance_pointer,
            strength=str(found.strength),
            evidence=found.cite(),
            fields=_fields_named(error),
        )

    def _field_rule(
        self, schema: JSON, instance_pointer: str, name: str, node_pointer: str
    ) -> BrokenRule:
        """The rule a field outside the envelope's closed object breaks: its own presence
        when the spec knows it (an SDK-only field), the closing of the object otherwise."""
        known = self.spec.walker.at_pointer(schema, pointer_join(instance_pointer, name))
        if known is not None and known.pointer:
            found = self.spec.schema_model.rule_at(known.pointer, PRESENCE)
        else:
            found = self.spec.schema_model.rule_at(node_pointer, "additionalProperties")
        return BrokenRule(
            keyword="additionalProperties",
            pointer=found.pointer,
            instance_pointer=pointer_join(instance_pointer, name),
            strength=str(found.strength),
            evidence=found.cite(),
            fields=(name,),
        )


def _leaf_errors(errors: Iterator[ValidationError]) -> Iterator[ValidationError]:
    """The errors as written at their node (a choose-one rule is one error, not its branches)."""
    yield from sorted(errors, key=lambda e: (list(e.absolute_path), str(e.validator)))


def _fields_named(error: ValidationError) -> tuple[str, ...]:
    """The property names a rule names: required lists, choose-one branches, dependents."""
    value = error.validator_value
    keyword = str(error.validator)
    names: list[str] = []
    if keyword in ("anyOf", "oneOf") and isinstance(value, list):
        for branch in value:
            names += [str(n) for n in _mapping(branch).get("required") or []]
    elif keyword == "not":
        names += [str(n) for n in _mapping(value).get("required") or []]
    elif keyword == "allOf" and isinstance(value, list):
        for part in value:
            names += [str(n) for n in _mapping(_mapping(part).get("not")).get("required") or []]
    elif keyword == "dependentRequired" and isinstance(error.instance, Mapping):
        for name, needs in _mapping(value).items():
            if name in error.instance and any(n not in error.instance for n in needs):
                names += [str(name), *(str(n) for n in needs)]
                break
    return tuple(dict.fromkeys(names))


def _mapping(value: JSON) -> Mapping[str, JSON]:
    return value if isinstance(value, Mapping) else {}


def _sends_empty(query: list[tuple[str, str]], headers: Mapping[str, str] | None) -> bool:
    """Whether a query or judged header parameter is sent with an empty value."""
    judged = [v for k, v in (headers or {}).items() if k.lower() not in UNJUDGED_HEADERS]
    return any(value == "" for _, value in query) or any(value == "" for value in judged)
