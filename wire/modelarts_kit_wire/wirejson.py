"""The ONE decoder of JSON that came from the wire (a request or an answer nobody vouches for).

Every body the kit did not write itself -- a request the server or the mock received, an answer
a server under test, the proxy's upstream or a client adapter gave -- is decoded by
:func:`decode_wire_json`, never by ``json.loads`` or ``response.json()``:

- at most ``max_bytes`` bytes (:data:`MAX_WIRE_JSON_BYTES` by default, above the vendor's 12 MB
  request cap);
- strict UTF-8 (no replacement characters, no BOM guessing);
- nested at most ``max_depth`` levels (:data:`MAX_WIRE_JSON_DEPTH`), checked by a linear scan
  BEFORE parsing, so a ``RecursionError`` cannot happen whatever the nesting and whatever the
  caller's own stack depth;
- no ``NaN``/``Infinity`` constants and no number that overflows to infinity; integers longer
  than Python's digit limit are refused;
- no unpaired surrogate escape (``"\\ud800"``): it could not be written back as UTF-8 in a
  report, a log or a stored document.

A refusal raises :class:`WireJsonError` whose ``reason`` is one short sentence fragment
("nested deeper than 64 levels at byte 65", "not UTF-8 at byte 3", ...), fit to follow
"the body is not JSON the spec can describe: ".

:func:`bounded_inflate` decompresses a ``gzip``/``deflate`` body without ever producing more
than a cap (a gzip bomb of 1 GiB of zeros stops at the cap).
"""

from __future__ import annotations

import json
import math
import re
import zlib
from functools import cached_property
from typing import Any

from modelarts_kit_wire.errors import KitError
from modelarts_kit_wire.pointers import escape_pointer_token
from modelarts_kit_wire.recent import Recent

__all__ = [
    "MAX_WIRE_JSON_BYTES",
    "MAX_WIRE_JSON_DEPTH",
    "NOT_WIRE_JSON",
    "LazyWireJson",
    "WireJsonError",
    "bounded_inflate",
    "decode_wire_json",
]

# A ModelArts answer is a few KB; the vendor caps request bodies at 12 MB. 16 MiB is far above
# any sane API body and far below what hurts a 2-core CI machine.
MAX_WIRE_JSON_BYTES = 16 * 1024 * 1024
# The deepest ModelArts schema nests about 8 levels; 64 leaves room for free-form objects.
MAX_WIRE_JSON_DEPTH = 64

# A JSON string (unrolled loop: linear, no backtracking).
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
# bytes.translate tables: keep only brackets, then fold "{" "}" onto "[" "]".
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_FOLD = bytes.maketrans(b"{}", b"[]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class WireJsonError(KitError, ValueError):
    """A body from the wire is not JSON the kit accepts; ``reason`` says why.

    Also a ``ValueError``, as ``json.loads``'s own errors are: code (ours or a library's) that
    catches a decoding ``ValueError`` handles this refusal too.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(f"the body is not JSON the spec can describe: {reason}")
        self.reason = reason


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"the number {text[:40]} is out of range (it overflows to infinity)")
    return value


# One decoder for every body: ``json.loads`` with hooks builds a decoder and its scanner per
# call, as much CPU as parsing a small answer.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)


# Bodies whose nesting was found within a depth: an answer is decoded by several readers (the
# engine, the checks, the observations), each asking again. Exact bytes, small bodies only.
NESTED_WITHIN_MEMO = 64
_NESTED_WITHIN: Recent[tuple[bytes, int], bool] = Recent(NESTED_WITHIN_MEMO)
NESTED_WITHIN_MAX_BYTES = 64 * 1024


def _nesting_problem(raw: bytes, max_depth: int) -> str | None:
    """:func:`_nesting_scan`, remembered for the last small bodies found within the depth."""
    if raw.count(b"[") + raw.count(b"{") <= max_depth:
        return None  # cannot nest deeper than the number of openers
    key = (raw, max_depth)
    if _NESTED_WITHIN.get(key):
        return None
    problem = _nesting_scan(raw, max_depth)
    if problem is None and len(raw) <= NESTED_WITHIN_MAX_BYTES:
        _NESTED_WITHIN.put(key, True)
    return problem


def _nesting_scan(raw: bytes, max_depth: int) -> str | None:
    """Why the nesting may exceed ``max_depth`` (None: it does not). Linear passes, no recursion.

    Strings and everything but brackets are dropped (C-level ``translate``), then innermost
    pairs are removed ``max_depth`` times (one ``bytes.replace`` each). A pair still left proves
    a chain deeper than ``max_depth``; openers left unmatched (a truncated body) add to the
    depth the parser would reach, so more than ``max_depth`` of them are refused as well.
    Otherwise the parser nests at most ``2 * max_depth`` levels: far from the recursion limit.
    """
    brackets = _STRING.sub(b"", raw).translate(_FOLD, _NOT_BRACKETS)
    too_deep = f"nested deeper than {max_depth} levels"
    if b"[" * (max_depth + 1) in brackets:
        return too_deep
    for _ in range(max_depth):
        reduced = brackets.replace(b"[]", b"")
        if len(reduced) == len(brackets):
            break
        brackets = reduced
    if b"[]" in brackets:
        return too_deep
    if brackets.count(b"[") > max_depth:
        return f"{too_deep} (and the brackets do not balance)"
    return None


def _surrogate_problem(value: Any) -> str | None:
    """Where a string holds an unpaired surrogate (iterative walk: depth is already bound)."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, at = stack.pop()
        texts = [(item, at)] if isinstance(item, str) else []
        if isinstance(item, dict):
            for key, child in item.items():
                where = f"{at}/{escape_pointer_token(key)}"
                texts.append((key, where))
                stack.append((child, where))
        elif isinstance(item, list):
            stack.extend((child, f"{at}/{index}") for index, child in enumerate(item))
        for text, where in texts:
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                return f"the string at {where or '/'} holds an unpaired surrogate escape"
    return None


def decode_wire_json(
    raw: bytes | bytearray | memoryview | str,
    *,
    max_bytes: int = MAX_WIRE_JSON_BYTES,
    max_depth: int = MAX_WIRE_JSON_DEPTH,
) -> Any:
    """The JSON value of an untrusted body, or :class:`WireJsonError` saying why not."""
    size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
    if size > max_bytes:
        raise WireJsonError(f"larger than the cap of {max_bytes} bytes")
    if isinstance(raw, str):
        text = raw
    else:
        try:
            text = bytes(raw).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise WireJsonError(f"not UTF-8 at byte {exc.start}") from None
    if not text.strip():
        raise WireJsonError("it is empty")
    problem = _nesting_problem(
        raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else bytes(raw), max_depth
    )
    if problem:
        raise WireJsonError(problem)
    try:
        if text.startswith("\ufeff"):  # as json.loads refuses it
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise WireJsonError(f"{exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except ValueError as exc:  # NaN/Infinity, an overflowing float, an integer too long
        raise WireJsonError(str(exc)) from None
    if _SURROGATE_ESCAPE.search(text):
        problem = _surrogate_problem(value)
        if problem:
            raise WireJsonError(problem)
    return value


def bounded_inflate(body: bytes, encoding: str, *, max_bytes: int = MAX_WIRE_JSON_BYTES) -> bytes:
    """``body`` decoded per ``Content-Encoding`` (gzip, deflate, identity): ``max_bytes`` at most.

    Raises :class:`WireJsonError` when the data is not valid for the encoding or inflates
    beyond the cap (a decompression bomb stops there: memory stays bounded).
    """
    coding = encoding.strip().lower()
    if coding in {"", "identity"}:
        return body
    if coding in {"gzip", "x-gzip"}:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    elif coding == "deflate":
        inflater = zlib.decompressobj()
    else:
        raise WireJsonError(f"unsupported Content-Encoding {coding[:40]!r}")
    try:
        out = inflater.decompress(body, max_bytes + 1)
    except zlib.error as exc:
        raise WireJsonError(f"cannot decode {coding} content: {exc}") from None
    if len(out) > max_bytes:
        raise WireJsonError(f"it inflates ({coding}) to more than the cap of {max_bytes} bytes")
    return out


# What :attr:`LazyWireJson.value` is for a body the decoder refuses (JSON ``null`` is None).
NOT_WIRE_JSON: Any = object()


class LazyWireJson:
    """A body decoded once, on first read, for every reader that needs it (none may)."""

    def __init__(self, content: bytes) -> None:
        self.content = content

    @cached_property
    def value(self) -> Any:
        """The decoded JSON, or :data:`NOT_WIRE_JSON`."""
        try:
            return decode_wire_json(self.content)
        except WireJsonError:
            return NOT_WIRE_JSON
