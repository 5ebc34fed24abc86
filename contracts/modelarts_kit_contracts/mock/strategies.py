"""The strategy builder: hypothesis strategies for the spec's schemas, shaped by a variant.

:class:`ResponseGenerator` builds strategies from the spec's schemas and draws from them
deterministically for a seed. Each draw follows a :class:`Variant` that deliberately covers one
edge case the spec allows (optional fields absent, nullable fields null, empty and long arrays,
unknown extra fields, unknown values of open enums, int64 extremes, unicode). Every drawn value
is checked against the spec before it is used: the mock only serves spec-valid responses.

Documented values are read through the spec layer's one rule
(:func:`modelarts_kit_spec.values.documented_values`): an open enum (the vendor may add values)
takes one of its documented values, or, in the ``unknown_enums`` variant, a value outside them;
a closed ``enum`` is never broken.
"""

from __future__ import annotations

import enum
import functools
import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from modelarts_kit_spec.load import Response, Spec, SpecError
from modelarts_kit_spec.values import documented_values

from modelarts_kit_contracts.core.findings import short

__all__ = [
    "INT64_MAX",
    "INT64_MIN",
    "ResponseGenerator",
    "Variant",
    "draw_examples",
]

JSON = Any
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1
LONG_ARRAY = 40
# allOf parts that constrain which properties are present, kept while merging the parts.
PRESENCE_KEY = "x-modelarts-kit-presence"
PRESENCE_KEYWORDS = ("not", "dependentRequired", "anyOf", "oneOf")
MAX_DEPTH = 64  # a recursive schema would nest forever; ours nest about 20 deep
LONG_COMPOSITE_ARRAY = 6
EXTRA_FIELD_PREFIX = "x_future_"
# Characters a client is most likely to mangle: CJK, emoji (astral plane), RTL, combining marks,
# a NUL and JSON's own escapes.
UNICODE_SAMPLES = ("训练作业", "🚀✨", "עִברִית", "é", "\u0000", '"\\/', "\u2028", "Ω≈ç√")


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


@dataclass(frozen=True)
class _PresenceRules:
    """Which properties an object must, may not, or must together carry (from its schema)."""

    required: frozenset[str]
    exclusive: tuple[frozenset[str], ...]  # not: {required: [...]}: never all of them
    at_least_one: tuple[tuple[frozenset[str], ...], ...]  # anyOf/oneOf of required sets
    dependent: Mapping[str, frozenset[str]]  # dependentRequired

    @classmethod
    def of(cls, schema: Mapping[str, JSON]) -> _PresenceRules:
        """The rules of ``schema`` (``allOf`` merged, see ``_merge_all_of``)."""
        parts = [schema, *schema.get(PRESENCE_KEY, [])]
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
    ) -> list[JSON]:
        """``count`` values drawn by hypothesis; the same seed gives the same values."""
        return draw_examples(self.strategy(schema, variant), count, seed_value)

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
        """``schema`` with its ``allOf`` parts merged by the spec's walker; the parts' presence
        rules (``not``, ``dependentRequired``, ``anyOf``/``oneOf`` of required sets) are kept
        aside under :data:`PRESENCE_KEY`, so that they constrain the object, not its type."""
        view = self.spec.walker.view(schema)
        merged = {
            k: v
            for k, v in view.schema.items()
            if k in schema or k not in (*PRESENCE_KEYWORDS, PRESENCE_KEY)
        }
        presence: list[JSON] = list(merged.pop(PRESENCE_KEY, []))
        for part in view.parts:
            rules = [{k: part[k]} for k in PRESENCE_KEYWORDS if k in part]
            for rule in [*rules, *part.get(PRESENCE_KEY, [])]:
                if rule not in presence:  # a nested part's rules reach its parent's part too
                    presence.append(rule)
        merged[PRESENCE_KEY] = presence
        return merged

    def _alternatives(
        self, schema: Mapping[str, JSON], key: str, variant: Variant, depth: int
    ) -> st.SearchStrategy[JSON]:
        branches = list(schema[key])
        documented = documented_values(schema)
        if documented is not None and documented.open:
            if documented.nullable and variant is Variant.NULLS:
                return st.none()
            values = (
                _unknown_value(documented.values)
                if variant is Variant.UNKNOWN_ENUMS
                else st.sampled_from(documented.values)
            )
            if documented.nullable and variant is Variant.TYPICAL:
                return st.one_of(st.none(), values)
            return values
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
        rules = _PresenceRules.of(schema)
        values = {name: self._build(sub, variant, depth + 1) for name, sub in properties.items()}
        extra = self._extra_properties(schema, properties, variant, depth)

        return _objects(properties, rules, values, extra, variant)

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
        low = int(schema.get("minLength", 0))
        high = schema.get("maxLength")
        pattern = schema.get("pattern")
        fmt = schema.get("format")
        if pattern is not None:
            strategy: st.SearchStrategy[str] = st.from_regex(_python_regex(pattern), fullmatch=True)
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


# Built once, at import, never per schema: hypothesis reads a composite's source (and a
# recursive strategy's extend function's) each time one is made, which was about a third of
# the client check's ``build_cases``.
@st.composite
def _objects(
    draw: st.DrawFn,
    properties: Mapping[str, JSON],
    rules: _PresenceRules,
    values: Mapping[str, st.SearchStrategy[JSON]],
    extra: st.SearchStrategy[dict[str, JSON]] | None,
    variant: Variant,
) -> dict[str, JSON]:
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


@functools.cache
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


def draw_examples(strategy: st.SearchStrategy[Any], count: int, seed_value: int) -> list[Any]:
    """Draw up to ``count`` values with hypothesis, deterministically for ``seed_value``.

    Only the generate phase runs (no database, no shrinking), so the same seed draws the same
    values, on a quiet machine or a loaded one: the draw is bounded by ``count`` (hypothesis
    stops earlier only when the strategy has fewer distinct values), never by the wall clock,
    which would make what is drawn depend on the machine's load.
    """
    drawn: list[Any] = []

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
        if len(drawn) < count:
            drawn.append(value)

    # No database, so no key: without one hypothesis reads this function's source and hashes
    # it on every call (about a tenth of a draw's CPU). Schemathesis's example generation
    # sets the same attribute for the same reason.
    collect._hypothesis_internal_database_key = None  # type: ignore[attr-defined]
    collect()
    return drawn
