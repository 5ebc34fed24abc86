"""The spec-driven mock server: validates what a client sends, answers what the spec allows.

Three parts, each usable alone:

- :class:`ResponseGenerator` builds hypothesis strategies from the spec's response schemas and
  draws from them deterministically for a seed. Each draw follows a :class:`Variant` that
  deliberately covers one edge case the spec allows (optional fields absent, nullable fields
  null, empty and long arrays, unknown extra fields, unknown values of open enums, int64
  extremes, unicode). Every drawn body is checked against the spec before it is served.
- :class:`Scenario` is a fixed sequence of responses read from a YAML/JSON file (the format is
  documented on :func:`load_scenario`), for testing clients written in other languages.
- :class:`MockServer` routes a request to its operation, records every way it breaks the spec
  (:class:`~modelarts_kit_contracts.wire_validation.Violation`) and answers: the next queued
  response (the client check queues them), the next scenario step, or a generated one. It is an
  ASGI app (serve with uvicorn, :func:`serve_in_thread`, or in-process with
  ``httpx.ASGITransport``), and :meth:`MockServer.httpx_transport` serves a sync httpx client
  in-process.

Open-enum rule: a string property whose schema has no ``enum`` but lists its known values (in
``x-extensible-enum``, ``x-known-values`` or ``examples``, or as an ``anyOf``/``oneOf`` of an
``enum`` branch and a plain string branch) may take values outside that list — the spec's
descriptions of ``status.phase``/``secondary_phase`` say values may be added. The
``unknown_enums`` variant sends such a value. A closed ``enum`` is never broken: the mock only
serves spec-valid responses.

Mock endpoints (not part of the API): ``GET /__mock__/violations`` (the recorded violations as
JSON), ``DELETE /__mock__/violations`` (clear them) and ``GET /__mock__/health``.
"""

from __future__ import annotations

import contextlib
import enum
import json
import math
import random
import re
import signal
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, cast

import httpx
import yaml
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from modelarts_kit_spec import load_spec
from modelarts_kit_spec.load import Operation, Response, Spec, SpecError

from modelarts_kit_contracts.errors import ContractError
from modelarts_kit_contracts.wire_validation import (
    ASGIReceive,
    ASGISend,
    Headers,
    Violation,
    WireRequest,
    WireResponse,
    schema_violations,
    serve_asgi,
    short,
    validate_request,
)

__all__ = [
    "INT64_MAX",
    "INT64_MIN",
    "Exchange",
    "MockServer",
    "PlannedResponse",
    "ResponseGenerator",
    "Scenario",
    "ScenarioError",
    "Variant",
    "load_scenario",
    "run_until_stopped",
    "serve_in_thread",
]

JSON = Any
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1
MOCK_PREFIX = "/__mock__/"
LONG_ARRAY = 40
# allOf parts that constrain which properties are present, kept while merging the parts.
PRESENCE_KEY = "x-modelarts-kit-presence"
MAX_DEPTH = 64  # a recursive schema would nest forever; ours nest about 20 deep
LONG_COMPOSITE_ARRAY = 6
EXTRA_FIELD_PREFIX = "x_future_"
# Characters a client is most likely to mangle: CJK, emoji (astral plane), RTL, combining marks,
# a NUL and JSON's own escapes.
UNICODE_SAMPLES = ("训练作业", "🚀✨", "עִברִית", "é", "\u0000", '"\\/', "\u2028", "Ω≈ç√")
# What the vendor's API gateway answers for a route it does not know.
UNKNOWN_ROUTE_BODY = {
    "error_code": "APIGW.0101",
    "error_msg": "The API does not exist or has not been published in the environment",
}


class Variant(enum.StrEnum):
    """Which edge case the spec allows a generated response deliberately covers."""

    TYPICAL = "typical"  # optional fields present or not, at random
    MINIMAL = "minimal"  # optional fields absent
    FULL = "full"  # every property present, non-null where the schema allows
    NULLS = "nulls"  # every nullable property present and null
    EMPTY_ARRAYS = "empty_arrays"
    LONG_ARRAYS = "long_arrays"
    EXTRA_FIELDS = "extra_fields"  # unknown properties wherever the schema allows them
    UNKNOWN_ENUMS = "unknown_enums"  # open enums take a value outside the known list
    INT64_EXTREMES = "int64_extremes"
    UNICODE = "unicode"


# ---------------------------------------------------------------- generation


def _types(schema: Mapping[str, JSON]) -> list[str]:
    kind = schema.get("type")
    if isinstance(kind, list):
        return [str(k) for k in kind]
    if isinstance(kind, str):
        return [kind]
    return []


def known_values(schema: Mapping[str, JSON]) -> list[str] | None:
    """The known values of an open enum (see the module docstring), or None."""
    if "enum" in schema or "const" in schema:
        return None
    for key in ("x-extensible-enum", "x-known-values"):
        listed = schema.get(key)
        if isinstance(listed, list) and listed:
            return [str(v) for v in listed]
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if not isinstance(branches, list):
            continue
        listed_branch = [b for b in branches if isinstance(b, Mapping) and "enum" in b]
        open_branch = [
            b for b in branches if isinstance(b, Mapping) and "enum" not in b and "const" not in b
        ]
        if listed_branch and open_branch:
            return [str(v) for b in listed_branch for v in b["enum"]]
    if "string" not in _types(schema):
        return None
    description = str(schema.get("description", ""))
    if _MAY_GROW.search(description):
        listed = _BACKTICKED.findall(description)
        if listed:
            return listed
    if isinstance(schema.get("examples"), list):
        return [str(v) for v in schema["examples"]]
    return None


# How the spec's author says a value set is open: "whose values may be added, changed or
# removed ... Documented values: `A`, `B`" (see Status.secondary_phase).
_MAY_GROW = re.compile(r"values?\s+(?:may|can|might)\s+(?:be\s+)?(?:added|grow|change)", re.I)
_BACKTICKED = re.compile(r"`([^`\s]+)`")


@dataclass(frozen=True)
class _PresenceRules:
    """Which properties an object must, may not, or must together carry (from its schema)."""

    required: frozenset[str]
    exclusive: tuple[frozenset[str], ...]  # not: {required: [...]}: never all of them
    at_least_one: tuple[tuple[frozenset[str], ...], ...]  # anyOf/oneOf of required sets
    dependent: Mapping[str, frozenset[str]]  # dependentRequired

    @classmethod
    def of(cls, schema: Mapping[str, JSON], spec: Spec) -> _PresenceRules:
        parts = [
            schema,
            *(spec.deref(p) for p in schema.get("allOf") or []),
            *schema.get(PRESENCE_KEY, []),
        ]
        required: set[str] = set()
        exclusive: list[frozenset[str]] = []
        at_least_one: list[tuple[frozenset[str], ...]] = []
        dependent: dict[str, frozenset[str]] = {}
        for part in parts:
            required |= set(part.get("required") or [])
            negated = part.get("not")
            if isinstance(negated, Mapping) and set(negated) <= {"required", "description"}:
                exclusive.append(frozenset(negated.get("required") or []))
            for key in ("anyOf", "oneOf"):
                branches = part.get(key)
                if isinstance(branches, list) and all(
                    isinstance(b, Mapping) and set(b) <= {"required", "description"}
                    for b in branches
                ):
                    at_least_one.append(tuple(frozenset(b.get("required") or []) for b in branches))
            for name, deps in (part.get("dependentRequired") or {}).items():
                dependent[name] = dependent.get(name, frozenset()) | frozenset(deps)
        return cls(frozenset(required), tuple(exclusive), tuple(at_least_one), dependent)

    def repair(self, present: set[str], draw: st.DrawFn) -> set[str]:
        """Adjust the set of present properties until the presence rules hold."""
        present = set(present)
        for options in self.at_least_one:
            if not any(option <= present for option in options):
                present |= draw(st.sampled_from(options))
        for _ in range(3):
            for name in sorted(present):
                deps = self.dependent.get(name, frozenset())
                if deps - present:
                    if self._allowed(present | deps):
                        present |= deps
                    elif name not in self.required:
                        present.discard(name)
            for group in self.exclusive:
                if group <= present:
                    removable = sorted(group - self.required)
                    if removable:
                        present.discard(draw(st.sampled_from(removable)))
        return present

    def _allowed(self, present: set[str]) -> bool:
        return not any(group <= present for group in self.exclusive)


class ResponseGenerator:
    """Hypothesis strategies for the spec's schemas, shaped by a :class:`Variant`."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self._strategies: dict[tuple[str, Variant], st.SearchStrategy[JSON]] = {}
        self._refs: dict[tuple[str, Variant], st.SearchStrategy[JSON]] = {}

    # -- public API

    def strategy(self, schema: JSON, variant: Variant) -> st.SearchStrategy[JSON]:
        """Spec-valid values of ``schema`` covering ``variant``."""
        key = (json.dumps(schema, sort_keys=True), variant)
        cached = self._strategies.get(key)
        if cached is None:
            validator = self.spec.validator(schema)
            cached = self._build(schema, variant, 0).filter(validator.is_valid)
            self._strategies[key] = cached
        return cached

    def draw(
        self,
        schema: JSON,
        variant: Variant,
        *,
        count: int,
        seed_value: int,
        time_budget_s: float = 5.0,
    ) -> list[JSON]:
        """``count`` values drawn by hypothesis; the same seed gives the same values."""
        return draw_examples(
            self.strategy(schema, variant), count, seed_value, time_budget_s=time_budget_s
        )

    def error_bodies(self, response: Response) -> list[JSON]:
        """The error bodies the spec documents for ``response`` (its examples)."""
        media = (self.spec.deref(self.spec.at(response.pointer)).get("content") or {}).get(
            "application/json"
        ) or {}
        bodies: list[JSON] = []
        for example in (media.get("examples") or {}).values():
            value = self.spec.deref(example).get("value")
            if value is not None:
                bodies.append(value)
        if media.get("example") is not None:
            bodies.append(media["example"])
        valid = [b for b in bodies if response.schema is None or self._valid(response.schema, b)]
        return valid

    def header_value(self, header: Mapping[str, JSON], rng: random.Random) -> str:
        """A spec-valid value for a documented response header (as text)."""
        schema = self.spec.deref(header.get("schema") or {})
        types = _types(schema)
        if "integer" in types:
            low = int(schema.get("minimum", 0))
            high = int(schema.get("maximum", low + 3))
            return str(rng.randint(low, min(high, low + 3)))
        if "enum" in schema:
            return str(rng.choice(schema["enum"]))
        return "0"

    # -- building

    def _valid(self, schema: JSON, value: JSON) -> bool:
        return bool(self.spec.validator(schema).is_valid(value))

    def _build(self, schema: JSON, variant: Variant, depth: int) -> st.SearchStrategy[JSON]:
        if schema is True or schema == {}:
            return _any_json(depth, variant)
        if schema is False:
            return st.nothing()
        if not isinstance(schema, Mapping):
            raise SpecError(f"not a schema: {short(schema)}")
        if "$ref" in schema:
            target = self.spec.deref(schema)
            siblings = {k: v for k, v in schema.items() if k not in ("$ref", "description")}
            if depth > MAX_DEPTH:
                raise SpecError(f"schema nests deeper than {MAX_DEPTH} levels at {schema['$ref']}")
            if siblings:
                return self._build({**target, **siblings}, variant, depth + 1)
            ref_key = (str(schema["$ref"]), variant)
            built = self._refs.get(ref_key)
            if built is None:
                built = self._build(target, variant, depth + 1)
                self._refs[ref_key] = built
            return built
        if "allOf" in schema:
            return self._build(self._merge_all_of(schema), variant, depth)
        if "const" in schema:
            return st.just(schema["const"])
        if "enum" in schema:
            return st.sampled_from(list(schema["enum"]))
        for key in ("oneOf", "anyOf"):
            if key in schema:
                return self._alternatives(schema, key, variant, depth)
        types = _types(schema)
        nullable = "null" in types
        concrete = [t for t in types if t != "null"] or (
            [] if types else self._implied_types(schema)
        )
        if nullable and variant is Variant.NULLS:
            return st.none()
        if not concrete:
            return st.none() if nullable else _any_json(depth, variant)
        options = [self._typed(schema, t, variant, depth) for t in concrete]
        value = st.one_of(options) if len(options) > 1 else options[0]
        if nullable and variant is Variant.TYPICAL:
            return st.one_of(st.none(), value)
        return value

    @staticmethod
    def _implied_types(schema: Mapping[str, JSON]) -> list[str]:
        if "properties" in schema or "additionalProperties" in schema:
            return ["object"]
        if "items" in schema:
            return ["array"]
        return []

    def _merge_all_of(self, schema: Mapping[str, JSON]) -> dict[str, JSON]:
        merged: dict[str, JSON] = {k: v for k, v in schema.items() if k != "allOf"}
        presence: list[JSON] = list(merged.pop(PRESENCE_KEY, []))
        for part in schema["allOf"]:
            resolved = self.spec.deref(part)
            if "allOf" in resolved:
                resolved = self._merge_all_of(resolved)
            for key, value in resolved.items():
                if key == "properties":
                    merged["properties"] = {**merged.get("properties", {}), **value}
                elif key == "required":
                    merged["required"] = sorted(set(merged.get("required", [])) | set(value))
                elif key in {"not", "dependentRequired", "anyOf", "oneOf"}:
                    presence.append({key: value})
                elif key == PRESENCE_KEY:
                    presence.extend(value)
                else:
                    merged.setdefault(key, value)
        merged[PRESENCE_KEY] = presence
        return merged

    def _alternatives(
        self, schema: Mapping[str, JSON], key: str, variant: Variant, depth: int
    ) -> st.SearchStrategy[JSON]:
        branches = list(schema[key])
        known = known_values(schema)
        if known is not None:
            if variant is Variant.UNKNOWN_ENUMS:
                return _unknown_value(known)
            return st.sampled_from(known)
        base = {k: v for k, v in schema.items() if k not in (key, "description")}
        resolved = [self.spec.deref(b) for b in branches]
        null_branches = [b for b in resolved if _types(b) == ["null"]]
        if null_branches and variant is Variant.NULLS:
            return st.none()
        if null_branches and variant is not Variant.TYPICAL:
            resolved = [b for b in resolved if _types(b) != ["null"]]
        options = [self._build({**base, **b}, variant, depth + 1) for b in resolved]
        return st.one_of(options)

    def _typed(
        self, schema: Mapping[str, JSON], kind: str, variant: Variant, depth: int
    ) -> st.SearchStrategy[JSON]:
        if kind == "object":
            return self._object(schema, variant, depth)
        if kind == "array":
            return self._array(schema, variant, depth)
        if kind == "string":
            return self._string(schema, variant)
        if kind == "integer":
            return _integers(schema, variant)
        if kind == "number":
            return _numbers(schema, variant)
        if kind == "boolean":
            return st.booleans()
        if kind == "null":
            return st.none()
        raise SpecError(f"unknown JSON Schema type {kind!r}")

    def _object(
        self, schema: Mapping[str, JSON], variant: Variant, depth: int
    ) -> st.SearchStrategy[JSON]:
        properties: Mapping[str, JSON] = schema.get("properties") or {}
        rules = _PresenceRules.of(schema, self.spec)
        values = {name: self._build(sub, variant, depth + 1) for name, sub in properties.items()}
        extra = self._extra_properties(schema, properties, variant, depth)

        @st.composite
        def objects(draw: st.DrawFn) -> dict[str, JSON]:
            present = set(rules.required)
            for name in properties:
                if name in present or variant is Variant.MINIMAL:
                    continue
                # Every non-minimal edge variant wants the properties present to carry the edge.
                if variant is not Variant.TYPICAL or draw(st.booleans()):
                    present.add(name)
            present = rules.repair(present, draw)
            out = {name: draw(values[name]) for name in properties if name in present}
            if extra is not None:
                for key, value in draw(extra).items():
                    out.setdefault(key, value)
            return out

        return objects()

    def _extra_properties(
        self,
        schema: Mapping[str, JSON],
        properties: Mapping[str, JSON],
        variant: Variant,
        depth: int,
    ) -> st.SearchStrategy[dict[str, JSON]] | None:
        additional = schema.get("additionalProperties", True)
        if additional is False or schema.get("unevaluatedProperties") is False:
            return None
        if isinstance(additional, Mapping) and additional:
            # A map (e.g. environment variables): its entries are data, not unknown fields.
            low = 0 if variant is not Variant.LONG_ARRAYS else LONG_ARRAYS_MAP
            high = 3 if variant is not Variant.LONG_ARRAYS else LONG_ARRAYS_MAP
            if variant in (Variant.MINIMAL, Variant.EMPTY_ARRAYS):
                high = 0
            keys = _names(variant).filter(lambda k: k not in properties)
            return st.dictionaries(
                keys, self._build(additional, variant, depth + 1), min_size=low, max_size=high
            )
        if variant is Variant.EXTRA_FIELDS:
            keys = st.sampled_from(
                [f"{EXTRA_FIELD_PREFIX}{n}" for n in ("flag", "count", "object", "list", "text")]
            )
            return st.dictionaries(keys, _any_json(depth + 1, variant), min_size=1, max_size=3)
        if not properties and variant is not Variant.MINIMAL:
            # A free-form object: any JSON object is a valid value.
            return st.dictionaries(_names(variant), _any_json(depth + 1, variant), max_size=3)
        return None

    def _array(
        self, schema: Mapping[str, JSON], variant: Variant, depth: int
    ) -> st.SearchStrategy[JSON]:
        items = schema.get("items", True)
        if isinstance(schema.get("prefixItems"), list):
            prefix = [self._build(p, variant, depth + 1) for p in schema["prefixItems"]]
            return st.tuples(*prefix).map(list)
        low = int(schema.get("minItems", 0))
        high = int(schema.get("maxItems", max(low, 4)))
        element_variant = variant
        if variant is Variant.EMPTY_ARRAYS:
            high = low
        elif variant is Variant.LONG_ARRAYS:
            # Long arrays of long arrays would not fit one draw: elements are minimal, and
            # arrays of objects/arrays are long-ish rather than long.
            resolved = self.spec.deref(items) if isinstance(items, Mapping) else {}
            composite = bool({"object", "array"} & set(_types(resolved))) or "$ref" in str(items)
            target = LONG_COMPOSITE_ARRAY if composite else LONG_ARRAY
            low = max(low, min(int(schema.get("maxItems", target)), target))
            high = max(low, high) if "maxItems" in schema else low
            element_variant = Variant.MINIMAL
        elif variant in (Variant.FULL, Variant.EXTRA_FIELDS, Variant.NULLS):
            low = max(low, 1) if high >= 1 else low
        element = self._build(items, element_variant, depth + 1)
        unique = bool(schema.get("uniqueItems"))
        return st.lists(
            element, min_size=low, max_size=high, unique_by=_json_key if unique else None
        )

    def _string(self, schema: Mapping[str, JSON], variant: Variant) -> st.SearchStrategy[JSON]:
        known = known_values(schema)
        if known is not None and "pattern" not in schema:
            if variant is Variant.UNKNOWN_ENUMS:
                return _unknown_value(known)
            return st.sampled_from(known)
        low = int(schema.get("minLength", 0))
        high = schema.get("maxLength")
        pattern = schema.get("pattern")
        fmt = schema.get("format")
        if pattern is not None:
            strategy: st.SearchStrategy[str] = st.from_regex(_python_regex(pattern), fullmatch=True)
            if variant is Variant.UNKNOWN_ENUMS and known is not None:
                strategy = strategy.filter(lambda s: s not in known)
        elif fmt == "date-time":
            strategy = st.datetimes().map(lambda d: d.replace(microsecond=0).isoformat() + "Z")
        elif fmt == "date":
            strategy = st.dates().map(lambda d: d.isoformat())
        elif fmt == "uuid":
            strategy = st.uuids().map(str)
        elif variant is Variant.UNICODE:
            strategy = st.lists(st.sampled_from(UNICODE_SAMPLES), min_size=1, max_size=4).map(
                "".join
            )
        else:
            strategy = st.text(alphabet=_PRINTABLE, max_size=16)
        if low or high is not None:
            maximum = int(high) if high is not None else None

            def fits(text: str) -> bool:
                return len(text) >= low and (maximum is None or len(text) <= maximum)

            strategy = strategy.filter(fits)
        return cast(st.SearchStrategy[JSON], strategy)


LONG_ARRAYS_MAP = 12
_PRINTABLE = st.characters(min_codepoint=0x20, max_codepoint=0x7E)


def _names(variant: Variant) -> st.SearchStrategy[str]:
    if variant is Variant.UNICODE:
        return st.sampled_from(["名前", "ключ", "emoji_🚀", "a b", "k"])
    return st.from_regex(r"\A[A-Za-z_][A-Za-z0-9_]{0,11}\Z")


def _unknown_value(known: Sequence[str]) -> st.SearchStrategy[JSON]:
    return st.sampled_from(["FutureValue", "Unknown_Phase_2031", "新状态"]).filter(
        lambda v: v not in known
    )


def _python_regex(pattern: str) -> str:
    # JSON Schema patterns are ECMA-262, unanchored; the common subset reads the same in Python.
    # \d in Python matches any Unicode digit, ECMA's only ASCII ones.
    return pattern.replace(r"\d", "[0-9]")


def _json_key(value: JSON) -> str:
    return json.dumps(value, sort_keys=True)


def _integers(schema: Mapping[str, JSON], variant: Variant) -> st.SearchStrategy[JSON]:
    fmt = schema.get("format")
    low, high = (INT32_MIN, INT32_MAX) if fmt == "int32" else (INT64_MIN, INT64_MAX)
    if "minimum" in schema:
        low = max(low, math.ceil(schema["minimum"]))
    if "exclusiveMinimum" in schema:
        low = max(low, math.floor(schema["exclusiveMinimum"]) + 1)
    if "maximum" in schema:
        high = min(high, math.floor(schema["maximum"]))
    if "exclusiveMaximum" in schema:
        high = min(high, math.ceil(schema["exclusiveMaximum"]) - 1)
    if variant is Variant.INT64_EXTREMES:
        edges = [low, high, 2**53 + 1, -(2**53) - 1, 0, -1, 1]
        return st.sampled_from([e for e in edges if low <= e <= high])
    typical_high = min(high, max(low, 0) + 10**13)
    typical = st.integers(min_value=low, max_value=typical_high)
    multiple = schema.get("multipleOf")
    if isinstance(multiple, int) and multiple > 0:
        return typical.map(lambda v: v - v % multiple).filter(lambda v: low <= v <= high)
    return typical


def _numbers(schema: Mapping[str, JSON], variant: Variant) -> st.SearchStrategy[JSON]:
    low = schema.get("minimum")
    high = schema.get("maximum")
    if variant is Variant.INT64_EXTREMES:
        edges = [1e308, -1e308, 5e-324, 0.1, 2.0**53 + 2]
        return st.sampled_from(
            [e for e in edges if (low is None or e >= low) and (high is None or e <= high)] or [0.0]
        )
    return st.floats(
        min_value=low,
        max_value=high,
        allow_nan=False,
        allow_infinity=False,
        exclude_min="exclusiveMinimum" in schema,
        exclude_max="exclusiveMaximum" in schema,
    )


def _any_json(depth: int, variant: Variant) -> st.SearchStrategy[JSON]:
    text = st.sampled_from(UNICODE_SAMPLES) if variant is Variant.UNICODE else st.text(max_size=8)
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=INT64_MIN, max_value=INT64_MAX),
        text,
    )
    if depth > 6:
        return scalars
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
        ),
        max_leaves=6,
    )


def draw_examples(
    strategy: st.SearchStrategy[Any], count: int, seed_value: int, *, time_budget_s: float = 5.0
) -> list[Any]:
    """Draw up to ``count`` values with hypothesis, deterministically for ``seed_value``.

    Only the generate phase runs (no database, no shrinking), so the same seed draws the same
    values. ``time_budget_s`` bounds the wall time; if it runs out fewer values come back.
    """
    drawn: list[Any] = []
    stop_at = time.monotonic() + time_budget_s

    @settings(
        max_examples=max(1, count),
        database=None,
        deadline=None,
        derandomize=False,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @seed(seed_value)
    @given(strategy)
    def collect(value: Any) -> None:
        if len(drawn) < count and time.monotonic() < stop_at:
            drawn.append(value)

    collect()
    return drawn


# ---------------------------------------------------------------- planned responses


@dataclass(frozen=True)
class PlannedResponse:
    """One answer the mock will give, whatever it is asked."""

    status: int
    body: JSON = None
    headers: tuple[tuple[str, str], ...] = ()
    has_body: bool = True
    expect_operation: str | None = None  # record a violation if a different operation comes

    def to_wire(self) -> WireResponse:
        headers = list(self.headers)
        content = b""
        if self.has_body:
            content = json.dumps(self.body, ensure_ascii=False).encode("utf-8")
            if not any(k.lower() == "content-type" for k, _ in headers):
                headers.append(("Content-Type", "application/json"))
        return WireResponse(self.status, Headers(headers), content)


# ---------------------------------------------------------------- scenarios


class ScenarioError(ContractError, ValueError):
    """A scenario file is unreadable or breaks the format; the message names the pointer."""


@dataclass(frozen=True)
class Scenario:
    steps: tuple[PlannedResponse | tuple[str, int, Variant], ...]
    on_exhausted: str  # "error" | "repeat" | "generate"
    source: str


_ON_EXHAUSTED = ("error", "repeat", "generate")


def load_scenario(path: Path | str, spec: Spec | None = None) -> Scenario:
    """Read a scenario file (YAML or JSON)::

        on_exhausted: error        # after the last step: error (500 + a violation),
                                   # repeat (start over) or generate (random spec answers)
        steps:
          - operation: CreateTrainingJob   # optional: the request this step expects; another
                                           # one is recorded as a 'scenario_order' violation
            status: 201
            generate: full                 # a Variant name: a generated body (needs operation)
          - operation: ShowTrainingJobDetails
            status: 200
            body: {kind: job, metadata: {...}, status: {phase: Running}}
            headers: {X-Request-Id: "42"}
          - status: 429                    # an error status without body: the spec's example
            headers: {Retry-After: "1"}
          - status: 200
            body: {unexpected: shape}
            off_spec: true                 # deliberately not spec-valid: skip the check

    Each ``body`` is checked against the spec for the step's operation and status (unless
    ``off_spec: true``); a problem raises :class:`ScenarioError` naming ``/steps/N/...``.
    """
    spec = spec or load_spec()
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"{source}: cannot read: {exc.strerror}") from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ScenarioError(f"{source}: not YAML/JSON: {exc}") from exc
    if not isinstance(data, Mapping):
        raise ScenarioError(f"{source}: expected a mapping with 'steps'; got {short(data)}")
    unknown = sorted(set(data) - {"steps", "on_exhausted"})
    if unknown:
        raise ScenarioError(f"{source}: /{unknown[0]}: unknown key (allowed: steps, on_exhausted)")
    on_exhausted = data.get("on_exhausted", "error")
    if on_exhausted not in _ON_EXHAUSTED:
        raise ScenarioError(
            f"{source}: /on_exhausted: expected one of {', '.join(_ON_EXHAUSTED)}; "
            f"got {short(on_exhausted)}"
        )
    raw_steps = data.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise ScenarioError(f"{source}: /steps: expected a non-empty list; got {short(raw_steps)}")
    steps = tuple(_scenario_step(spec, source, i, s) for i, s in enumerate(raw_steps))
    return Scenario(steps=steps, on_exhausted=str(on_exhausted), source=source)


_STEP_KEYS = {"operation", "status", "body", "headers", "generate", "off_spec"}


def _scenario_step(
    spec: Spec, source: str, index: int, step: JSON
) -> PlannedResponse | tuple[str, int, Variant]:
    where = f"{source}: /steps/{index}"
    if not isinstance(step, Mapping):
        raise ScenarioError(f"{where}: expected a mapping; got {short(step)}")
    unknown = sorted(set(step) - _STEP_KEYS)
    if unknown:
        raise ScenarioError(
            f"{where}/{unknown[0]}: unknown key (allowed: {', '.join(sorted(_STEP_KEYS))})"
        )
    status = step.get("status")
    if not isinstance(status, int) or isinstance(status, bool) or not 100 <= status <= 599:
        raise ScenarioError(f"{where}/status: expected an HTTP status 100-599; got {short(status)}")
    operation_id = step.get("operation")
    op: Operation | None = None
    if operation_id is not None:
        try:
            op = spec.operation(str(operation_id))
        except KeyError as exc:
            raise ScenarioError(f"{where}/operation: {exc.args[0]}") from exc
    headers = step.get("headers") or {}
    if not isinstance(headers, Mapping):
        raise ScenarioError(f"{where}/headers: expected a mapping; got {short(headers)}")
    header_items = tuple((str(k), str(v)) for k, v in headers.items())
    if "generate" in step:
        if "body" in step:
            raise ScenarioError(f"{where}: give either 'body' or 'generate', not both")
        if op is None:
            raise ScenarioError(f"{where}/generate: needs 'operation' to know the schema")
        try:
            variant = Variant(step["generate"])
        except ValueError as exc:
            raise ScenarioError(
                f"{where}/generate: expected one of {', '.join(v.value for v in Variant)}; "
                f"got {short(step['generate'])}"
            ) from exc
        if op.response_for(status) is None:
            raise ScenarioError(f"{where}/status: {status} is not documented for {op.operation_id}")
        return (op.operation_id, status, variant)
    body = step.get("body")
    has_body = "body" in step
    if not has_body and status >= 400:
        example = _documented_error(spec, op, status)
        if example is not None:
            body, has_body = example, True
    if has_body and op is not None and not step.get("off_spec", False):
        documented = op.response_for(status)
        if documented is None:
            raise ScenarioError(f"{where}/status: {status} is not documented for {op.operation_id}")
        if documented.schema is not None:
            problems = schema_violations(
                spec,
                documented.schema,
                body,
                check="scenario",
                direction="response",
                operation=op.operation_id,
                base_pointer=f"/steps/{index}/body",
            )
            if problems:
                listed = "; ".join(f"{p.pointer}: {p.message}" for p in problems[:5])
                raise ScenarioError(f"{source}: {listed} (set off_spec: true to send it anyway)")
    return PlannedResponse(
        status=status,
        body=body,
        headers=header_items,
        has_body=has_body,
        expect_operation=op.operation_id if op is not None else None,
    )


def _documented_error(spec: Spec, op: Operation | None, status: int) -> JSON | None:
    operations = [op] if op is not None else list(spec.operations)
    generator = ResponseGenerator(spec)
    for candidate in operations:
        response = candidate.response_for(status)
        if response is not None:
            bodies = generator.error_bodies(response)
            if bodies:
                return bodies[0]
    return None


# ---------------------------------------------------------------- the server


@dataclass(frozen=True)
class Exchange:
    """One request the mock received, what it made of it and what it answered."""

    index: int
    request: WireRequest
    operation: str  # "" when no operation matched
    path_params: Mapping[str, str]
    violations: tuple[Violation, ...]
    response: WireResponse


class MockServer:
    """A spec-driven mock of the training-job API (an ASGI app; see the module docstring)."""

    def __init__(
        self,
        spec: Spec | None = None,
        *,
        seed_value: int = 0,
        scenario: Scenario | None = None,
        error_rate: float = 0.2,
        pool_size: int = 8,
        time_budget_s: float = 10.0,
        on_violation: Callable[[Violation], None] | None = None,
    ) -> None:
        if not 0.0 <= error_rate <= 1.0:
            raise ValueError(f"error_rate: expected 0.0-1.0; got {error_rate!r}")
        self.spec = spec or load_spec()
        self.seed = seed_value
        self.scenario = scenario
        self.error_rate = error_rate
        self.pool_size = pool_size
        self.time_budget_s = time_budget_s
        self.on_violation = on_violation
        self.generator = ResponseGenerator(self.spec)
        self.exchanges: list[Exchange] = []
        self._queue: deque[PlannedResponse] = deque()
        self._scenario_position = 0
        self._rng = random.Random(seed_value)
        self._pools: dict[str, list[JSON]] = {}
        self._lock = threading.Lock()

    # -- in-process API

    @property
    def violations(self) -> list[Violation]:
        with self._lock:
            return [v for exchange in self.exchanges for v in exchange.violations]

    def reset(self) -> None:
        """Forget recorded exchanges and queued responses."""
        with self._lock:
            self.exchanges.clear()
            self._queue.clear()

    def enqueue(self, *responses: PlannedResponse) -> None:
        """Answer the next requests with ``responses``, in order, before anything else."""
        with self._lock:
            self._queue.extend(responses)

    def handle(self, request: WireRequest) -> WireResponse:
        """Validate ``request``, record what is wrong with it, and answer it."""
        op, params, violations = validate_request(self.spec, request)
        with self._lock:
            planned = self._queue.popleft() if self._queue else None
            index = len(self.exchanges)
        if planned is None and self.scenario is not None:
            planned, extra = self._scenario_answer(op)
            violations = [*violations, *extra]
        if (
            planned is not None
            and planned.expect_operation
            and op is not None
            and planned.expect_operation != op.operation_id
        ):
            violations.append(
                Violation(
                    "scenario_order",
                    "request",
                    op.operation_id,
                    "",
                    "order",
                    f"expected a {planned.expect_operation} request at this step; "
                    f"got {op.operation_id}",
                )
            )
        if planned is not None:
            response = planned.to_wire()
        else:
            response = self._generated_answer(request, op, violations)
        exchange = Exchange(
            index, request, op.operation_id if op else "", params, tuple(violations), response
        )
        with self._lock:
            self.exchanges.append(exchange)
        if self.on_violation is not None:
            for violation in violations:
                self.on_violation(violation)
        return response

    # -- answers

    def _scenario_answer(
        self, op: Operation | None
    ) -> tuple[PlannedResponse | None, list[Violation]]:
        assert self.scenario is not None
        steps = self.scenario.steps
        with self._lock:
            position = self._scenario_position
            self._scenario_position += 1
        if position >= len(steps):
            if self.scenario.on_exhausted == "repeat":
                position %= len(steps)
            elif self.scenario.on_exhausted == "generate":
                return None, []
            else:
                exhausted = Violation(
                    "scenario_exhausted",
                    "request",
                    op.operation_id if op else "",
                    "",
                    "order",
                    f"expected at most {len(steps)} requests (the scenario's steps); "
                    f"got request {position + 1}",
                )
                body = {"error_code": "ModelArts.0010", "error_msg": "Scenario exhausted."}
                return PlannedResponse(500, body), [exhausted]
        step = steps[position]
        if isinstance(step, PlannedResponse):
            return step, []
        operation_id, status, variant = step
        body = self.generate_body(self.spec.operation(operation_id), status, variant, position)
        return PlannedResponse(status, body, expect_operation=operation_id), []

    def generate_body(self, op: Operation, status: int, variant: Variant, salt: int) -> JSON:
        """One generated, spec-valid body for ``op``'s ``status`` response."""
        documented = op.response_for(status)
        if documented is None or documented.schema is None:
            return None
        if status >= 400:
            bodies = self.generator.error_bodies(documented)
            if bodies:
                return bodies[salt % len(bodies)]
        values = self.generator.draw(
            documented.schema,
            variant,
            count=1,
            seed_value=self.seed * 1_000_003 + salt,
            time_budget_s=self.time_budget_s,
        )
        if not values:
            raise SpecError(f"{op.operation_id} {status}: no value generated within the budget")
        return values[0]

    def warm(self) -> None:
        """Generate the answer pools now rather than on each operation's first request."""
        for op in self.spec.operations:
            self._success_pool(op)

    def _success_pool(self, op: Operation) -> list[JSON]:
        pool = self._pools.get(op.operation_id)
        if pool is None:
            pool = []
            variants = list(Variant)
            schema = op.success.schema
            for position, variant in enumerate(variants):
                if schema is None:
                    break
                pool += self.generator.draw(
                    schema,
                    variant,
                    count=max(1, self.pool_size // len(variants) + 1),
                    seed_value=self.seed * 1_000_003 + position,
                    time_budget_s=self.time_budget_s / len(variants),
                )
            random.Random(self.seed).shuffle(pool)
            self._pools[op.operation_id] = pool
        return pool

    def _generated_answer(
        self, request: WireRequest, op: Operation | None, violations: Sequence[Violation]
    ) -> WireResponse:
        if op is None:
            return PlannedResponse(404, UNKNOWN_ROUTE_BODY).to_wire()
        if any(v.check == "request_auth" for v in violations):
            return self._error(op, 401)
        if violations:
            return self._error(op, 400)
        with self._lock:
            roll = self._rng.random()
            pick = self._rng.randrange(1_000_000)
        errors = [
            int(r.status)
            for r in op.responses
            if r.status.isdigit() and int(r.status) >= 400 and r.schema is not None
        ]
        if errors and roll < self.error_rate:
            return self._error(op, errors[pick % len(errors)])
        pool = self._success_pool(op)
        status = int(op.success.status)
        if not pool:
            return PlannedResponse(status, has_body=False).to_wire()
        return PlannedResponse(status, pool[pick % len(pool)]).to_wire()

    def _error(self, op: Operation, status: int) -> WireResponse:
        documented = op.response_for(status)
        body: JSON = {"error_code": "ModelArts.0010", "error_msg": "Internal error."}
        headers: list[tuple[str, str]] = []
        if documented is not None:
            bodies = self.generator.error_bodies(documented)
            if bodies:
                with self._lock:
                    body = bodies[self._rng.randrange(len(bodies))]
            for name, header in documented.headers.items():
                headers.append((name, self.generator.header_value(header, self._rng)))
        return PlannedResponse(status, body, tuple(headers)).to_wire()

    # -- transports

    def httpx_transport(self) -> httpx.BaseTransport:
        """A sync httpx transport that serves requests from this mock, in-process."""

        def serve(request: httpx.Request) -> httpx.Response:
            wire = WireRequest(
                method=request.method,
                path=request.url.raw_path.decode("ascii").split("?", 1)[0],
                headers=Headers(request.headers.multi_items()),
                body=request.read(),
                query=request.url.query.decode("ascii"),
            )
            answer = self.handle(wire)
            return httpx.Response(answer.status, headers=answer.headers.items, content=answer.body)

        return httpx.MockTransport(serve)

    async def __call__(
        self, scope: MutableMapping[str, Any], receive: ASGIReceive, send: ASGISend
    ) -> None:
        async def answer(request: WireRequest) -> WireResponse:
            if request.path.startswith(MOCK_PREFIX):
                return self._control(request)
            return self.handle(request)

        await serve_asgi(scope, receive, send, answer)

    def _control(self, request: WireRequest) -> WireResponse:
        name = request.path[len(MOCK_PREFIX) :].rstrip("/")
        if name == "violations" and request.method == "GET":
            payload = {
                "requests": len(self.exchanges),
                "violations": [v.to_json() for v in self.violations],
            }
            return PlannedResponse(200, payload).to_wire()
        if name == "violations" and request.method == "DELETE":
            self.reset()
            return PlannedResponse(204, has_body=False).to_wire()
        if name == "health":
            return PlannedResponse(200, {"status": "ok"}).to_wire()
        return PlannedResponse(404, {"error": f"no mock endpoint {request.path}"}).to_wire()


@contextlib.contextmanager
def serve_in_thread(
    app: Callable[..., Awaitable[None]], host: str = "127.0.0.1", port: int = 0
) -> Iterator[str]:
    """Serve an ASGI ``app`` with uvicorn in a daemon thread; yields its base URL."""
    import uvicorn

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        lifespan="off",
        # A proxy must not add headers the upstream did not send.
        server_header=False,
        date_header=False,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="modelarts-kit-mock", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise OSError(f"cannot serve on {host}:{port}")
        time.sleep(0.01)
    bound = server.servers[0].sockets[0].getsockname()
    try:
        yield f"http://{host}:{bound[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def run_until_stopped(
    app: Callable[..., Awaitable[None]],
    *,
    host: str,
    port: int,
    on_started: Callable[[str], None],
    should_stop: Callable[[], bool] = lambda: False,
    max_time_s: float | None = None,
) -> None:
    """Serve ``app`` in the calling thread until SIGINT/SIGTERM, ``should_stop()`` or the time.

    Raises OSError when the address cannot be bound.
    """
    import uvicorn

    class OrderlyStop(uvicorn.Server):
        # uvicorn re-raises SIGINT/SIGTERM after shutting down, which would kill the process
        # before the caller writes its report: here a signal is an orderly end of the run.
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if self.should_exit and sig == signal.SIGINT:
                self.force_exit = True
            self.should_exit = True

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        lifespan="on",
        # A proxy must not add headers the upstream did not send.
        server_header=False,
        date_header=False,
    )
    server = OrderlyStop(config)
    stop_at = None if max_time_s is None else time.monotonic() + max_time_s

    def watch() -> None:
        announced = False
        while not server.should_exit:
            if server.started and not announced:
                bound = server.servers[0].sockets[0].getsockname()
                on_started(f"http://{host}:{bound[1]}")
                announced = True
            if should_stop() or (stop_at is not None and time.monotonic() >= stop_at):
                server.should_exit = True
                return
            time.sleep(0.02)

    watcher = threading.Thread(target=watch, name="modelarts-kit-watch", daemon=True)
    watcher.start()
    try:
        server.run()
    except SystemExit as exc:  # uvicorn exits when it cannot bind
        raise OSError(f"cannot serve on {host}:{port} (uvicorn exited with {exc.code})") from exc
    finally:
        server.should_exit = True
        watcher.join(timeout=5)
    if not server.started:
        raise OSError(f"cannot serve on {host}:{port}")
