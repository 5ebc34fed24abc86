"""The one reader of input files (spec, ledger, vendor pages, scenarios): bounded in bytes,
depth, values and expanded text, strict UTF-8, no binary data. A floor module: it imports only
:mod:`modelarts_kit_spec.document`, :mod:`modelarts_kit_spec.parsecache` (a large text's parse
kept on disk for the next process) and the wire layer's :mod:`modelarts_kit_wire.recent`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from modelarts_kit_wire.recent import Recent
from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from modelarts_kit_spec import parsecache
from modelarts_kit_spec.document import JSON, SpecError

__all__ = [
    "MAX_DEPTH",
    "MAX_INPUT_BYTES",
    "MAX_NODES",
    "InputError",
    "decode_text",
    "parse_yaml_text",
    "read_input_bytes",
    "read_input_text",
    "read_yaml",
]


# Bounds on every spec, ledger and vendor page the kit reads (each far above the real ones:
# the curated spec is ~90 KB, ~12,000 values, 20 levels deep). A hostile input fails fast
# with one line instead of exhausting memory or the stack.
MAX_INPUT_BYTES = 16 * 1024 * 1024
MAX_NODES = 1_000_000  # values after YAML aliases are expanded (an alias bomb is refused)
MAX_DEPTH = 128  # nesting levels of mappings and sequences


class InputError(SpecError):
    """An input file that is too large, not text, or nested/aliased beyond the bounds.

    ``source`` names the file, ``line`` the 1-based line (0 when unknown), ``rule`` what it
    breaks; the message is ``source[:line]: rule``."""

    def __init__(self, source: str, line: int, rule: str) -> None:
        self.source = source
        self.line = line
        self.rule = rule
        super().__init__(f"{source}:{line}: {rule}" if line else f"{source}: {rule}")


def read_input_bytes(path: Path | str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of ``path``, never more than ``limit`` read (``/dev/zero`` and endless
    streams are refused after ``limit`` bytes, not read whole)."""
    try:
        with open(path, "rb") as stream:
            data = stream.read(limit + 1)
    except OSError as exc:
        raise InputError(str(path), 0, f"cannot read: {exc.strerror or exc}") from exc
    if len(data) > limit:
        raise InputError(
            str(path), 0, f"larger than {limit} bytes (rule: inputs are at most {limit} bytes)"
        )
    return data


def decode_text(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text (a BOM is dropped); binary data and other encodings refused."""
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise InputError(source, line, "binary content (NUL byte): not a text file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            source, line, f"not UTF-8 text (byte 0x{data[exc.start]:02x}; rule: inputs are UTF-8)"
        ) from None


def read_input_text(path: Path | str) -> str:
    """The text of a spec, ledger or page: size-capped, strict UTF-8 (see above)."""
    return decode_text(read_input_bytes(path), str(path))


def read_yaml(path: Path) -> JSON:
    """Parse a YAML or JSON file; the error names the file, line and column."""
    return parse_yaml_text(read_input_text(path), str(path))


# The YAML texts parsed last, by their exact text (the parse depends on nothing else), so a
# text read again in one process -- the spec and ledger that every step of a `docs update`
# re-reads, the inventories each derivation reads -- costs a copy, not a parse. Only texts
# of a size worth it, and small enough that the cache stays a few tens of MB. What is kept is
# a pickled snapshot of the first parse: each reader gets its own copy, sharing nothing with
# another reader (a YAML alias stays one object within a copy, as pickle keeps shared
# containers shared), and unpickling is about three times cheaper than copying in Python.
# Snapshots are read back by parsecache.values, which loads no class or function (plain YAML
# values: no code runs); a large text's is also kept on disk for the next process (parsecache).
CACHED_DOCUMENTS = 16
CACHED_TEXT = (4096, 1024 * 1024)  # characters, inclusive
_PARSED: Recent[str, bytes] = Recent(CACHED_DOCUMENTS)
# All else a parse depends on: an entry on disk is a parse under the same parser and bounds.
_PARSE_DEPENDS_ON = (
    f"PyYAML {yaml.__version__}, {getattr(yaml, 'CSafeLoader', yaml.SafeLoader).__name__}, "
    f"bounds {MAX_INPUT_BYTES} {MAX_NODES} {MAX_DEPTH}"
)


def _cached(text: str) -> JSON | None:
    kept = _PARSED.get(text)
    if kept is not None:
        return parsecache.values(kept)
    found = parsecache.load(text, _PARSE_DEPENDS_ON)  # an earlier process's parse
    if found is None:
        return None
    kept, document = found
    if CACHED_TEXT[0] <= len(text) <= CACHED_TEXT[1]:
        _PARSED.put(text, kept)
    return document


def _remember(text: str, document: JSON) -> None:
    in_process = CACHED_TEXT[0] <= len(text) <= CACHED_TEXT[1]
    if not in_process and len(text) < parsecache.MIN_CHARS:
        return
    kept = parsecache.snapshot(document)
    if in_process:
        _PARSED.put(text, kept)
    parsecache.store(text, _PARSE_DEPENDS_ON, kept)


def parse_yaml_text(text: str, source: str) -> JSON:
    """Parse YAML text read from ``source`` (a file name or ``git:REV:path``), within
    :data:`MAX_INPUT_BYTES`, :data:`MAX_NODES` and :data:`MAX_DEPTH`.

    A JSON document is parsed as JSON: YAML 1.1 refuses some valid JSON (raw U+007F-U+009F,
    a surrogate pair written as two escapes)."""
    if len(text) > MAX_INPUT_BYTES:
        raise InputError(source, 0, f"larger than {MAX_INPUT_BYTES} characters")
    if text.lstrip().startswith(("{", "[")):
        try:
            document = json.loads(text)
        except RecursionError:
            raise InputError(source, 0, f"nested deeper than {MAX_DEPTH} levels") from None
        except ValueError:
            pass  # YAML flow style, or broken JSON: the YAML parser says where
        else:
            _check_json_shape(document, source)
            return document
    cached = _cached(text)
    if cached is not None:
        return cached
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        _check_yaml_shape(text, source, loader)
        document = yaml.load(text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else source
        raise SpecError(f"{where}: invalid YAML: {exc.problem}") from exc
    except yaml.YAMLError as exc:
        raise SpecError(f"{source}: invalid YAML: {exc}") from exc
    _remember(text, document)
    return document


def _check_json_shape(document: JSON, source: str) -> None:
    """Depth and size of a parsed JSON document, walked without recursion."""
    count = 0
    stack: list[tuple[JSON, int]] = [(document, 1)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise InputError(source, 0, f"more than {MAX_NODES} values")
        if isinstance(node, dict | list):
            if depth > MAX_DEPTH:
                raise InputError(source, 0, f"nested deeper than {MAX_DEPTH} levels")
            children = node.values() if isinstance(node, dict) else node
            stack.extend((child, depth + 1) for child in children)


def _check_yaml_shape(text: str, source: str, loader: Any) -> None:
    """Refuse YAML nested deeper than :data:`MAX_DEPTH`, or holding more than
    :data:`MAX_NODES` values or :data:`MAX_INPUT_BYTES` bytes of scalars once aliases are
    expanded, from the parser's event stream (iterative and flat: composing such a document
    first is what exhausts the stack or the memory). Each alias counts the size and depth of
    the node it repeats: a 1 MB string aliased 2,000 times is 2 GB to whoever walks it."""
    # Per open collection: [values so far, deepest level below it, anchor or None, bytes].
    open_nodes: list[list[Any]] = []
    anchors: dict[str, tuple[int, int, int]] = {}  # anchor -> (values, depth below, bytes)
    totals: list[Any] = [0, 0, None, 0]  # what lies outside every collection, counted alike

    def line_of(event: Any) -> int:
        return event.start_mark.line + 1 if event.start_mark else 0

    def too_many(count: int, expanded: int, event: Any) -> None:
        if count > MAX_NODES:
            raise InputError(
                source, line_of(event), f"more than {MAX_NODES} values once aliases are expanded"
            )
        if expanded > MAX_INPUT_BYTES:
            raise InputError(
                source,
                line_of(event),
                f"more than {MAX_INPUT_BYTES} bytes of values once aliases are expanded "
                f"(rule: inputs are at most {MAX_INPUT_BYTES} bytes)",
            )

    def add(values: int, depth: int, size: int, event: Any) -> None:
        if len(open_nodes) + depth > MAX_DEPTH:
            raise InputError(source, line_of(event), f"nested deeper than {MAX_DEPTH} levels")
        parent = open_nodes[-1] if open_nodes else totals
        parent[0] += values
        parent[1] = max(parent[1], depth)
        parent[3] += size
        too_many(parent[0], parent[3], event)

    # Dispatched on the event's exact class (the parser makes no other), scalars first: most
    # events are scalars, and a plain one (no anchor, inside a collection) is counted inline.
    # A scalar never deepens its parent: its own level was checked when the parent opened.
    event: Any  # narrowed by its exact class below, which mypy does not follow
    for event in yaml.parse(text, Loader=loader):
        kind = type(event)
        if kind is ScalarEvent:
            value = event.value
            size = len(value) if value.isascii() else len(value.encode("utf-8", "surrogatepass"))
            if event.anchor is not None:
                anchors[event.anchor] = (1, 0, size)
            parent = open_nodes[-1] if open_nodes else totals
            parent[0] += 1
            parent[3] += size
            if parent[0] > MAX_NODES or parent[3] > MAX_INPUT_BYTES:
                too_many(parent[0], parent[3], event)
        elif kind is MappingStartEvent or kind is SequenceStartEvent:
            if len(open_nodes) >= MAX_DEPTH:
                raise InputError(source, line_of(event), f"nested deeper than {MAX_DEPTH} levels")
            open_nodes.append([1, 0, event.anchor, 0])
        elif kind is MappingEndEvent or kind is SequenceEndEvent:
            values, below, anchor, size = open_nodes.pop()
            if anchor is not None:
                anchors[anchor] = (values, below + 1, size)
            add(values, below + 1, size, event)
        elif kind is AliasEvent:
            values, depth, size = anchors.get(event.anchor or "", (1, 0, 0))
            add(values, depth, size, event)
