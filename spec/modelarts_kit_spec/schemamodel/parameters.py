"""Query and header parameters in the schema model: what a page says of them beyond their
schema, and the one reading of a parameter's value every reader shares.

- **Empty values.** ``level=`` is a parameter *not given* for must-reject (the lenient end of
  a server, every client check, the mock and the proxy): the flavors page says "If this
  parameter is not specified, all flavors will be obtained", and an empty filter restricts
  nothing. In must-accept an empty value is a value like any other, so whether a server
  refuses it is its own choice (an observation).
- **Co-occurrence.** ``x-modelarts-parameters: {together: [{names: [a, b], page, locator,
  quote}]}`` on an operation: the page says they "must be passed together". Giving some but
  not all breaks a documented rule (both envelopes). Its evidence is a
  :class:`~modelarts_kit_spec.quotes.Quote`, as every rule's is (so is a format's), and
  ``spec validate`` holds it to its page (rule ``schema-model-quote``).
- **Formats stated in prose.** ``x-modelarts-parameters: {formats: {name: {pattern, page,
  locator, quote}}}``: the page types the value ``String`` and shows its form only in prose
  or an example (epoch milliseconds). The pattern is a ``guidance`` rule: must-accept states
  it (``build_envelope`` adds it to the parameter's schema), must-reject does not.

:func:`parameter_breaks` validates the parameters of one location against an envelope
(``Spec.validator`` of the envelope, ranges of ``int32``/``int64`` included), and is what the
reference server, the wire checks (mock, proxy, client check) and the contract run call.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from modelarts_kit_spec.quotes import Quote

if TYPE_CHECKING:
    from modelarts_kit_spec.operation import Operation

# A ``Spec`` or an envelope of one (``spec.envelope(...)``): typed loosely, because the
# schema model sits below the loader (``modelarts_kit_spec.load`` imports it).
Spec = Any

__all__ = [
    "EXTENSION",
    "Format",
    "ParameterBreak",
    "Together",
    "formats_of",
    "given_values",
    "parameter_breaks",
    "parameter_value",
    "quotes_of",
    "together_of",
]

JSON = Any
EXTENSION: Final = "x-modelarts-parameters"
_INTEGER = re.compile(r"[+-]?[0-9]{1,20}")


@dataclass(frozen=True)
class Together:
    """Parameters a page says must be passed together, and the page's words saying so."""

    names: tuple[str, ...]
    quote: Quote

    def cite(self) -> str:
        return self.quote.cite()


@dataclass(frozen=True)
class Format:
    """A form a page states in prose (or shows in its example) for a ``String`` parameter."""

    name: str
    pattern: str
    quote: Quote

    def cite(self) -> str:
        return f"{self.quote.cite()} (guidance)"


@dataclass(frozen=True)
class ParameterBreak:
    """One rule a parameter's value breaks."""

    name: str
    location: str
    rule: str  # a JSON Schema keyword, "required" or "together"
    message: str  # "<name>: value <value> violates <rule>", for an error body or a finding
    strength: str  # documented | guidance
    evidence: str


def together_of(spec: Spec, operation: Operation) -> tuple[Together, ...]:
    raw = _operation_node(spec, operation).get(EXTENSION) or {}
    return tuple(
        Together(tuple(str(n) for n in item.get("names") or ()), _quote(item))
        for item in raw.get("together") or ()
        if isinstance(item, Mapping)
    )


def formats_of(spec: Spec, operation: Operation) -> dict[str, Format]:
    raw = _operation_node(spec, operation).get(EXTENSION) or {}
    found = {}
    for name, item in (raw.get("formats") or {}).items():
        if isinstance(item, Mapping) and isinstance(item.get("pattern"), str):
            found[str(name)] = Format(str(name), item["pattern"], _quote(item))
    return found


def quotes_of(spec: Spec, operation: Operation) -> list[Quote]:
    """Every quote the parameter rules of ``operation`` stand on (co-occurrence, formats)."""
    found = [t.quote for t in together_of(spec, operation)]
    return [*found, *(f.quote for f in formats_of(spec, operation).values())]


def _quote(item: Mapping[str, JSON]) -> Quote:
    """The ``page``, ``locator`` and ``quote`` keys of an extension's entry, as one Quote."""
    return Quote(
        str(item.get("page", "")), str(item.get("locator", "")), str(item.get("quote", ""))
    )


def _operation_node(spec: Spec, operation: Operation) -> Mapping[str, JSON]:
    node = spec.at(operation.pointer)
    return node if isinstance(node, Mapping) else {}


def given_values(pairs: Iterable[tuple[str, str]], *, keep_empty: bool = False) -> dict[str, str]:
    """The parameters a request gave: the first value of a repeated name; an empty value is
    not given unless ``keep_empty`` (the must-accept reading, where it is a value)."""
    out: dict[str, str] = {}
    for name, value in pairs:
        if value == "" and not keep_empty:
            continue
        out.setdefault(name, value)
    return out


def parameter_value(spec: Spec, schema: JSON, text: str) -> Any:
    """A parameter's text as the JSON type its schema names (text where a string is allowed;
    text that is not of the type stays text, so the schema refuses it)."""
    view = spec.walker.view(schema) if isinstance(schema, Mapping) else None
    types = set(view.types) if view is not None else set()
    if not types or "string" in types:
        return text
    if "integer" in types and _INTEGER.fullmatch(text.strip()):
        return int(text.strip())
    if "number" in types:
        try:
            number = float(text)
        except ValueError:
            return text
        if number == number and abs(number) != float("inf"):
            return number
    if "boolean" in types and text in ("true", "false"):
        return text == "true"
    return text


def parameter_breaks(
    envelope: Spec,
    operation: Operation,
    location: str,
    values: Mapping[str, str],
    *,
    skip: Iterable[str] = (),
) -> list[ParameterBreak]:
    """Every rule of ``envelope`` (a ``spec.envelope(...)``) the parameters of ``location``
    break; ``values`` as :func:`given_values` read them (header names in any case)."""
    skipped = {name.lower() for name in skip}
    lookup = _lookup(values, location)
    out: list[ParameterBreak] = []
    model = envelope.schema_model
    for parameter in envelope.operation(operation.operation_id).parameters:
        if parameter.location != location or parameter.name.lower() in skipped:
            continue
        text = lookup(parameter.name)
        pointer = _parameter_pointer(envelope, operation, parameter.name, location)
        if text is None:
            if parameter.required:
                out.append(
                    ParameterBreak(
                        parameter.name,
                        location,
                        "required",
                        f"{parameter.name}: required parameter is missing",
                        "documented",
                        model.rule_at(pointer, "presence").cite() if pointer else "",
                    )
                )
            continue
        value = parameter_value(envelope, parameter.schema, text)
        errors = sorted(
            envelope.validator(parameter.schema).iter_errors(value),
            key=lambda e: (str(e.validator), list(map(str, e.absolute_path))),
        )
        if errors:
            error = errors[0]
            formats = formats_of(envelope, operation)
            fmt = formats.get(parameter.name)
            strength, evidence = "documented", ""
            if fmt is not None and error.validator == "pattern":
                strength, evidence = "guidance", fmt.cite()
            elif pointer:
                rule = model.rule_at(f"{pointer}/schema", str(error.validator))
                strength, evidence = str(rule.strength), rule.cite()
            out.append(
                ParameterBreak(
                    parameter.name,
                    location,
                    str(error.validator),
                    f"{parameter.name}: value {_shown(text)} violates {error.message}",
                    strength,
                    evidence,
                )
            )
    for together in together_of(envelope, operation):
        present = [name for name in together.names if lookup(name) is not None]
        if present and len(present) != len(together.names):
            missing = [name for name in together.names if name not in present]
            out.append(
                ParameterBreak(
                    missing[0],
                    location,
                    "together",
                    f"{', '.join(present)} given without {', '.join(missing)}: "
                    f"must be passed together",
                    "documented",
                    together.cite(),
                )
            )
    return out


def _lookup(values: Mapping[str, str], location: str) -> Any:
    if location != "header":
        return values.get
    lowered = {str(k).lower(): v for k, v in values.items()}
    return lambda name: lowered.get(name.lower())


def _parameter_pointer(spec: Spec, operation: Operation, name: str, location: str) -> str:
    from modelarts_kit_spec.document import pointer_join

    node = _operation_node(spec, operation)
    for index, raw in enumerate(node.get("parameters") or ()):
        found = spec.deref(raw) if isinstance(raw, Mapping) else {}
        if isinstance(found, Mapping) and found.get("name") == name and found.get("in") == location:
            if "$ref" in raw:
                return str(raw["$ref"]).removeprefix("#")
            return pointer_join(operation.pointer, "parameters", index)
    return ""


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _operations(envelope: JSON) -> Iterator[dict[str, Any]]:
    """Every operation object of an envelope document (to edit in place)."""
    for item in (envelope.get("paths") or {}).values():
        if not isinstance(item, dict):
            continue
        yield from (operation for operation in item.values() if isinstance(operation, dict))


def add_formats(envelope: JSON) -> None:
    """Must-accept: each prose format becomes its parameter's ``pattern`` (in place)."""
    for operation in _operations(envelope):
        formats = (operation.get(EXTENSION) or {}).get("formats") or {}
        for parameter in operation.get("parameters") or ():
            if not isinstance(parameter, dict) or parameter.get("name") not in formats:
                continue
            pattern = formats[parameter["name"]].get("pattern")
            if isinstance(pattern, str) and isinstance(parameter.get("schema"), dict):
                parameter["schema"]["pattern"] = pattern


def allow_empty_query_values(envelope: JSON) -> None:
    """Must-reject: an empty query value is a parameter not given, so a value list admits
    ``""`` (in place; every reader of the envelope, a plain schemathesis run included, then
    reads ``level=`` as the flavors page reads ``flavor_type`` left out)."""
    for operation in _operations(envelope):
        for parameter in operation.get("parameters") or ():
            if not isinstance(parameter, dict) or parameter.get("in") != "query":
                continue
            schema = parameter.get("schema")
            enum = schema.get("enum") if isinstance(schema, dict) else None
            if isinstance(schema, dict) and isinstance(enum, list) and "" not in enum:
                schema["enum"] = [*enum, ""]
