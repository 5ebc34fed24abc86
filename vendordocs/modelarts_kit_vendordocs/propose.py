"""``docs diff --propose PATCH``: the spec and ledger changes that settle the drift found.

* Additive changes are made in full in ``openapi.yaml``: a documented field the spec lacks is
  added to the schema that would hold it (type, description, nested fields from the page; a
  request field the page marks mandatory joins ``required``), and documented values the spec
  lacks join its ``enum`` (closed, or the first member of an open ``anyOf``).
* Every change that needs a human decision (a type change, a removal, a mandatory flip, a
  value the page no longer lists, a table name, a status code) gets a ledger stub with
  ``decision: TODO``, recording what the page says; it settles nothing, and ``spec validate``
  refuses the ledger, until a person decides, sets ``expect`` and writes the reason.

The files are edited as text, surgically: only the lines that change are touched, so comments
and formatting survive and the patch is minimal. Nothing is written unless asked (``apply``).
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from modelarts_kit_spec import LedgerEntry, SpecError, load_spec, read_ledger
from modelarts_kit_spec.emit import dump_block, dump_flow
from modelarts_kit_spec.load import Spec, parse_yaml_text, read_input_text
from modelarts_kit_spec.values import open_enum_schema
from modelarts_kit_wire.pointers import unescape_pointer_token

from modelarts_kit_vendordocs.constraint_edit import constraint_update
from modelarts_kit_vendordocs.drift import (
    DriftFinding,
    DriftReport,
    FindingGroup,
    group_findings,
    normalise_field,
)
from modelarts_kit_vendordocs.errors import VendorDocsError
from modelarts_kit_vendordocs.inventory import Inventory
from modelarts_kit_vendordocs.project import Project, project_for
from modelarts_kit_vendordocs.settle import DROPPED
from modelarts_kit_vendordocs.transaction import Transaction
from modelarts_kit_vendordocs.types import parse_type

__all__ = [
    "Proposal",
    "ProposalInputs",
    "ProposeError",
    "add_ledger_sources",
    "check_patch_path",
    "documented_values",
    "page_says",
    "propose",
    "propose_from",
    "replace_scalar",
]


class ProposeError(VendorDocsError):
    """A proposal that cannot be made or written; nothing was changed."""


# --- locating a node in YAML text --------------------------------------------------------


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _content(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


@dataclass(frozen=True)
class _Node:
    """Where a node sits: its key line, and the lines of its block value (start, end)."""

    line: int  # the line holding ``key:`` (or ``- `` for a sequence item)
    indent: int  # the indentation of the key (of the item's content for a sequence item)
    start: int  # first line of the block below the key
    end: int  # one past its last content line


def _block_end(lines: list[str], start: int, indent: int) -> int:
    end = start
    for number in range(start, len(lines)):
        if _content(lines[number]):
            if _indent(lines[number]) <= indent:
                break
            end = number + 1
    return end


def _quoted_end(text: str) -> int:
    """One past the closing quote of the quoted scalar ``text`` starts with; -1 if unclosed."""
    quote, index = text[0], 1
    while index < len(text):
        char = text[index]
        if quote == '"' and char == "\\":
            index += 2
            continue
        if char == quote:
            if quote == "'" and text[index + 1 : index + 2] == "'":
                index += 2  # '' is a quote inside a single-quoted scalar
                continue
            return index + 1
        index += 1
    return -1


def _split_key(text: str) -> tuple[str, str] | None:
    """``key: value`` -> (the key as YAML reads it, the text after the colon); None if no key.

    A quoted key is decoded by the YAML reader ('a: b', "x\\ny", 'it''s'); a plain key is
    taken as written (``'200'`` and ``200`` both name the status code 200)."""
    if text[:1] in ("'", '"'):
        end = _quoted_end(text)
        if end < 0:
            return None
        rest = text[end:].lstrip(" ")
        if not rest.startswith(":") or rest[1:2] not in ("", " "):
            return None
        key = parse_yaml_text(text[:end], "<key>")
        return (key if isinstance(key, str) else text[:end]), rest[1:]
    colon = text.find(": ")
    if colon < 0:
        if not text.endswith(":"):
            return None
        colon = len(text) - 1
    return text[:colon].rstrip(), text[colon + 1 :]


def _child(lines: list[str], node: _Node, token: str) -> _Node | None:
    """The child ``token`` (a key, or a sequence index) of ``node``'s block."""
    members: list[tuple[int, int]] = []  # (line, indent of the member's key/item)
    level: int | None = None
    for number in range(node.start, node.end):
        line = lines[number]
        if not _content(line):
            continue
        indent = _indent(line)
        if number == node.line and line.lstrip().startswith("- "):
            continue
        if level is None:
            level = indent
        if indent == level:
            members.append((number, indent))
    if token.isdigit():
        items = [(n, i) for n, i in members if lines[n].lstrip().startswith("- ")]
        if int(token) >= len(items):
            return None
        number, indent = items[int(token)]
        # The item's own mapping starts on the "- " line, two columns in.
        return _Node(number, indent + 2, number, _block_end(lines, number + 1, indent))
    for number, indent in members:
        text = lines[number].strip()
        if text.startswith("- "):
            continue
        split = _split_key(text)
        if split is not None and split[0] == token:
            return _Node(number, indent, number + 1, _block_end(lines, number + 1, indent))
    # Keys of a sequence item: the first one sits on the "- " line itself.
    if node.line < len(lines) and lines[node.line].lstrip().startswith("- "):
        split = _split_key(lines[node.line].lstrip()[2:].strip())
        if split is not None and split[0] == token:
            return _Node(
                node.line, node.indent, node.line + 1, _block_end(lines, node.line + 1, node.indent)
            )
    return None


def _find(lines: list[str], pointer: str) -> _Node | None:
    node: _Node | None = _Node(-1, -1, 0, len(lines))
    for token in pointer.removeprefix("#").strip("/").split("/"):
        if node is None or not token:
            break
        token = unescape_pointer_token(token)
        node = _child(lines, node, token)
    return node


def _inline_value(lines: list[str], node: _Node) -> str:
    """The text after the node's key, on the key's line and any continuation lines (a flow
    list may wrap); "" when the value is a block below the key."""
    text = lines[node.line].strip()
    if text.startswith("- "):
        text = text[2:].strip()
    split = _split_key(text)
    first = split[1].strip() if split is not None else ""
    if not first or first.startswith("#"):
        return ""
    more = [lines[n].strip() for n in range(node.start, node.end) if _content(lines[n])]
    return " ".join([first, *more])


def _parse_inline(value: str) -> tuple[Any, str] | None:
    """A one-line YAML value read by the one reader, and the comment that followed it."""
    cut = len(value)
    while cut > 0:
        try:
            return parse_yaml_text(value[:cut], "<value>"), value[cut:]
        except SpecError:
            cut = value.rfind(" #", 0, cut)  # try again without a trailing comment
    return None


# --- edits ---------------------------------------------------------------------------------


@dataclass
class _Text:
    path: Path
    original: str
    lines: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lines = self.original.splitlines()

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + ("\n" if self.original.endswith("\n") else "")


def _merged_flow(value: str, names: Sequence[str]) -> str | None:
    """The flow list ``value`` (with its trailing comment) plus ``names``, written by the
    emitter; None when ``value`` is not a flow list of the reader's."""
    if not value.startswith("["):
        return None
    parsed = _parse_inline(value)
    if parsed is None or not isinstance(parsed[0], list):
        return None
    items, comment = parsed
    items.extend(n for n in names if n not in items)
    return dump_flow(items) + comment


def _add_to_list(doc: _Text, node: _Node, key: str, names: Sequence[str]) -> bool:
    """Add ``names`` to the list at ``key`` of the mapping ``node`` (created when absent)."""
    target = _child(doc.lines, node, key)
    if target is None:
        anchor = _child(doc.lines, node, "properties")
        if anchor is None:
            return False
        doc.lines[anchor.line : anchor.line] = dump_block(
            {key: list(names)}, anchor.indent, flow=None
        )
        return True
    value = _inline_value(doc.lines, target)
    if value:
        merged = _merged_flow(value, names)
        if merged is None:
            return False
        line = doc.lines[target.line].rstrip()
        split = _split_key(line.strip().removeprefix("- ").strip())
        if split is None:
            return False
        key_end = len(line) - len(split[1])  # just past the key's colon
        doc.lines[target.line : max(target.end, target.line + 1)] = [line[:key_end] + " " + merged]
        return True
    item_indent = next(
        (_indent(doc.lines[n]) for n in range(target.start, target.end) if _content(doc.lines[n])),
        target.indent + 2,
    )
    doc.lines[target.end : target.end] = dump_block(list(names), item_indent)
    return True


Values = Mapping[tuple[str, str], Sequence[str]]  # (page, field path) -> documented values


def documented_values(pages: Iterable[Inventory]) -> dict[tuple[str, str], tuple[str, ...]]:
    """The values each page lists for each of its fields (``log_type``: ``stdout``, ...), so
    a field added to the spec keeps them."""
    return {
        # keyed as a finding names its page: by file name
        (Path(page.source).name, normalise_field(entry.path)): tuple(entry.field.enum)
        for page in pages
        for entry in page.fields
        if entry.field.enum
    }


def _with_values(schema: dict[str, Any], values: Sequence[str], side: str) -> dict[str, Any]:
    """A string field with documented values: closed in a request (the server refuses
    others), open in a response (the spec's encoding: the vendor may add values)."""
    if schema.get("type") != "string" or not values:
        return schema
    if side == "request":
        return schema | {"enum": list(values)}
    rest = {k: v for k, v in schema.items() if k != "type"}
    return rest | open_enum_schema(list(values))


def _property_schema(finding: DriftFinding, values: Values) -> dict[str, Any]:
    field_path = normalise_field(finding.field)

    def schema_for(path: str, written: str, description: str) -> dict[str, Any]:
        out: dict[str, Any] = dict(parse_type(written).schema()) or {}
        if not out:
            out = {"type": "string"}
        out["description"] = " ".join(description.split()) or f"{written} (from the page)"
        full = f"{field_path}.{path}" if path else field_path
        return _with_values(out, values.get((finding.page or "", full), ()), finding.side)

    root = schema_for("", finding.written, finding.description)
    nodes: dict[str, dict[str, Any]] = {"": root}
    required: dict[str, list[str]] = {}
    for path, written, description, mandatory in finding.subtree:
        parent_path, _, name = path.rpartition(".")
        parent = nodes.get(parent_path)
        if parent is None:
            continue
        holder = parent["items"] if parent.get("type") == "array" else parent
        if not isinstance(holder, dict):
            continue
        holder.setdefault("type", "object")
        child = schema_for(path, written, description)
        holder.setdefault("properties", {})[name] = child
        nodes[path] = child
        if mandatory and finding.side == "request":
            required.setdefault(parent_path, []).append(name)
    for path, names in required.items():
        holder = nodes[path]["items"] if nodes[path].get("type") == "array" else nodes[path]
        holder["required"] = names
    return root


def _add_property(doc: _Text, finding: DriftFinding, values: Values) -> bool:
    name = normalise_field(finding.field).rpartition(".")[2]
    owner = _find(doc.lines, finding.schema or "")
    if owner is None:
        return False
    properties = _child(doc.lines, owner, "properties")
    if properties is None or _child(doc.lines, properties, name) is not None:
        return False
    members = [n for n in range(properties.start, properties.end) if _content(doc.lines[n])]
    indent = _indent(doc.lines[members[0]]) if members else properties.indent + 2
    block = dump_block({name: _property_schema(finding, values)}, indent)
    doc.lines[properties.end : properties.end] = block
    if finding.required and finding.side == "request":
        owner = _find(doc.lines, finding.schema or "")
        return owner is not None and _add_to_list(doc, owner, "required", [name])
    return True


def _add_values(doc: _Text, finding: DriftFinding, values: Sequence[str]) -> bool:
    node = _find(doc.lines, finding.pointer or "")
    if node is None:
        return False
    if _child(doc.lines, node, "enum") is not None:
        return _add_to_list(doc, node, "enum", values)
    any_of = _child(doc.lines, node, "anyOf")
    if any_of is None:
        return False
    for index in range(8):
        member = _child(doc.lines, any_of, str(index))
        if member is None:
            return False
        if _child(doc.lines, member, "enum") is not None:
            return _add_to_list(doc, member, "enum", values)
    return False


def replace_scalar(text: str, pointer: str, value: str | int | float) -> str | None:
    """``text`` with the one-line scalar at ``pointer`` (``/info/version``) set to ``value``
    by the emitter, the rest of the file untouched; None when there is no such line."""
    doc = _Text(Path(), text)
    node = _find(doc.lines, pointer)
    if node is None or node.start != node.line + 1 or node.end > node.start:
        return None
    line = doc.lines[node.line].rstrip()
    split = _split_key(line.strip().removeprefix("- ").strip())
    current = _parse_inline(split[1].strip()) if split is not None else None
    if split is None or current is None or isinstance(current[0], (list, dict)):
        return None
    key_end = len(line) - len(split[1])
    doc.lines[node.line] = line[:key_end] + " " + dump_flow(value) + current[1]
    return doc.text


# --- ledger stubs -------------------------------------------------------------------------


def page_says(finding: DriftFinding) -> str:
    """What the finding's page says, as a ledger source records it (``says``)."""
    if finding.kind == "type":
        return finding.written or finding.docs
    if finding.kind == "mandatory":
        return finding.docs
    if finding.kind == "enum":
        return ", ".join(finding.enum)
    if finding.kind == "name":
        return finding.docs.removeprefix("table ")
    if finding.kind == "presence":
        if finding.direction == "docs":
            return f"{finding.written}".strip() or "(present)"
        return "(absent: the new page dropped it)" if finding.value == DROPPED else "(absent)"
    if finding.kind == "status-code":
        return finding.value.replace(",", ", ") or finding.field
    if finding.kind == "example":
        return "(not embedded)"
    return finding.docs


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _stub(group: FindingGroup, taken: set[str]) -> dict[str, Any]:
    first = group.findings[0]
    base = f"todo-{first.kind}-{_slug(normalise_field(first.field))}"
    entry_id, number = base, 2
    while entry_id in taken:
        entry_id, number = f"{base}-{number}", number + 1
    taken.add(entry_id)
    sides = {"response" if f.side == "response" else "request" for f in group.findings}
    sources = list(
        {(f.page or "spec", f.table or f.pointer or "", page_says(f)): None for f in group.findings}
    )
    return {
        "id": entry_id,
        "pointer": first.pointer or group.schema,
        "field": normalise_field(first.field),
        "side": sides.pop() if len(sides) == 1 else "both",
        "operations": sorted({f.operation for f in group.findings}),
        "kind": first.kind,
        "sources": [{"seed": s, "table": t, "says": says} for s, t, says in sources],
        "decision": "TODO",
        "expect": {},
        "reason": f"docs diff --propose: {group.action}",
    }


def _list_items(lines: list[str], key: _Node) -> tuple[int, int] | None:
    """(indent, one past the last line) of the block list under ``key``, whose ``- `` items
    may sit at the key's own indent (as the emitter writes them) or deeper."""
    first = next((n for n in range(key.line + 1, len(lines)) if _content(lines[n])), None)
    if first is None or not lines[first].lstrip().startswith("- "):
        return None
    indent = _indent(lines[first])
    if indent < key.indent:
        return None
    end = first + 1
    for number in range(first + 1, len(lines)):
        if not _content(lines[number]):
            continue
        deeper = _indent(lines[number]) > indent
        if not (
            deeper or (_indent(lines[number]) == indent and lines[number].lstrip()[:2] == "- ")
        ):
            break
        end = number + 1
    return indent, end


def add_ledger_sources(
    path: Path, text: str, additions: Mapping[int, Sequence[Mapping[str, str]]]
) -> str:
    """``text`` (the ledger at ``path``) with ``additions`` (entry index -> sources) appended to
    those entries' ``sources`` lists, written by the emitter at the list's own indent."""
    ledger = _Text(path, text)
    # From the last entry up, so an insertion never moves an entry still to be edited.
    for index in sorted(additions, reverse=True):
        entry = _find(ledger.lines, f"/entries/{index}")
        key = _child(ledger.lines, entry, "sources") if entry is not None else None
        items = _list_items(ledger.lines, key) if key is not None else None
        if items is None:
            raise ProposeError(f"{path}: /entries/{index}/sources: not a block list to add to")
        indent, end = items
        ledger.lines[end:end] = dump_block([dict(s) for s in additions[index]], indent, flow=None)
    _check_still_yaml(ledger)
    return ledger.text


# --- the proposal ---------------------------------------------------------------------------


@dataclass
class Proposal:
    spec: _Text
    ledger: _Text
    applied: list[str]  # actions made in the spec
    stubs: list[str]  # ids of the ledger stubs
    project: Project
    pending: list[str] = field(default_factory=list)  # changes the ledger already asks about
    schemas: dict[str, str] = field(default_factory=dict)  # applied action -> schema pointer

    @property
    def patch(self) -> str:
        """The unified diff, its paths relative to the project's root (``git apply`` or
        ``patch -p1`` there take it, wherever it was made)."""
        return "".join(self._diffs())

    def _diffs(self) -> Iterator[str]:
        for doc in self.changed:
            name = self.project.relative(doc.path)
            yield from difflib.unified_diff(
                doc.original.splitlines(keepends=True),
                doc.text.splitlines(keepends=True),
                fromfile=f"a/{name}",
                tofile=f"b/{name}",
            )

    @property
    def changed(self) -> list[_Text]:
        return [doc for doc in (self.spec, self.ledger) if doc.text != doc.original]

    def stage(self, transaction: Transaction) -> None:
        """Add the edited spec and ledger to ``transaction`` (written when it commits)."""
        for doc in self.changed:
            transaction.write(doc.path, doc.text)

    def apply(self) -> None:
        """Write the edited spec and ledger: both, or neither (see :class:`Transaction`)."""
        transaction = Transaction()
        self.stage(transaction)
        transaction.commit()

    def summary(self, *, applied: bool) -> str:
        where = "applied to" if applied else "proposed for"
        return (
            f"{len(self.applied)} additive change(s) {where} {self.spec.path}; "
            f"{len(self.stubs)} ledger stub(s) with decision: TODO {where} {self.ledger.path}"
        )


def check_patch_path(path: Path, project: Project, inputs: Sequence[Path] = ()) -> None:
    """Refuse a patch file that is the spec, the ledger, a page read, or a recorded page:
    the patch would replace the file it describes."""
    real = Path(os.path.realpath(path))
    for protected in project.protected(inputs):
        if real == protected:
            raise ProposeError(
                f"--propose {path}: is {protected.name}, which the patch describes or was "
                "made from (rule: the patch goes to a file of its own, such as change.patch)"
            )
    for folder in project.protected_folders():
        if folder in real.parents:
            raise ProposeError(
                f"--propose {path}: is inside {folder}, the recorded vendor pages (rule: the "
                "patch goes to a file of its own, outside spec/sources/)"
            )


def _additive_values(finding: DriftFinding, spec_path: Path | Spec | None) -> list[str] | None:
    """New documented values, when the page keeps every value the spec has; else None."""
    if finding.kind != "enum" or not finding.pointer:
        return None
    try:
        spec = spec_path if isinstance(spec_path, Spec) else load_spec(spec_path)
        current = spec.walker.view(spec.at(finding.pointer)).documented
    except KeyError:
        return None
    if current is None:
        return None
    if any(v not in finding.enum for v in current.values):
        return None
    return [v for v in finding.enum if v not in current.values]


def _edit(spec: _Text, first: DriftFinding, spec_path: Path | Spec | None, values: Values) -> bool:
    """Make the additive change ``first`` asks for, whole or not at all: an edit that fails
    half-way (the property block added, its ``required`` list not) is undone, so the
    summary's count is what the patch does."""
    before = list(spec.lines)
    if first.kind == "presence" and first.direction == "docs":
        done = _add_property(spec, first, values)
    elif (update := constraint_update(first)) is not None:
        edited = replace_scalar(spec.text, *update)
        done = edited is not None
        spec.lines[:] = (edited or spec.text).splitlines()
    else:
        new_values = _additive_values(first, spec_path)
        done = bool(new_values) and _add_values(spec, first, new_values or [])
    if not done:
        spec.lines[:] = before
    return done


def _check_still_yaml(doc: _Text) -> None:
    """The edited text must read back (a bug in an edit must never reach the file)."""
    if doc.text == doc.original:
        return
    try:
        parse_yaml_text(doc.text, str(doc.path))
    except SpecError as exc:
        raise ProposeError(
            f"{doc.path}: the proposed edit would not be valid YAML ({exc}); nothing was "
            "written (a bug in docs diff --propose: please report it)"
        ) from exc


def propose(
    report: DriftReport,
    *,
    spec_path: Path | None = None,
    ledger_path: Path | None = None,
    values: Values | None = None,
    decide: Collection[str] = (),
) -> Proposal:
    """The edits of the spec and ledger text that settle ``report``'s unreconciled findings.

    ``values`` (from :func:`documented_values`) gives an added field the values its page
    lists; a group whose action is in ``decide`` gets a ledger stub even when it is additive
    (``docs update``: an addition to a shared schema the other operations' pages disagree
    with). A stub is not written twice: a change an entry already records (the same kind,
    field, pointer, page and what it says; open or decided) is counted in ``pending``."""
    project = project_for(spec_path, ledger_path)
    ledger_file = project.ledger
    ledger_text = read_input_text(ledger_file) if ledger_file.exists() else ""
    inputs = ProposalInputs(
        project,
        read_input_text(project.spec),
        ledger_text,
        read_ledger(ledger_file).entries if ledger_text else (),
        spec_path,
    )
    return propose_from(report, inputs, values=values, decide=decide)


@dataclass(frozen=True)
class ProposalInputs:
    """What a proposal edits: the spec's and the ledger's text, the ledger's entries and the
    spec they read as (``docs update`` hands over its staged, in-memory versions)."""

    project: Project
    spec_text: str
    ledger_text: str  # "" when there is no ledger
    entries: Sequence[LedgerEntry]
    spec: Path | Spec | None  # the spec's file (read only if needed), or the spec itself


def propose_from(
    report: DriftReport,
    inputs: ProposalInputs,
    *,
    values: Values | None = None,
    decide: Collection[str] = (),
) -> Proposal:
    """:func:`propose` on ``inputs`` rather than the files of a spec and its ledger."""
    values = values or {}
    project, entries, ledger_text = inputs.project, inputs.entries, inputs.ledger_text
    spec = _Text(project.spec, inputs.spec_text)
    ledger = _Text(project.ledger, ledger_text or "entries:\n")
    ledger.original = ledger_text
    taken = {e.id for e in entries}
    # A question already asked -- an entry about the same field that recorded what this page
    # says, open (TODO) or decided -- is not asked again: a second run writes no stub. (Another
    # page saying the same is a new statement, and asked.)
    asked = {(e.kind, e.field, e.pointer, s.seed, s.says) for e in entries for s in e.sources}
    applied: list[str] = []
    schemas: dict[str, str] = {}
    stubs: list[dict[str, Any]] = []
    pending: list[str] = []
    findings = [f for op in report.operations for f in op.findings]
    for group in group_findings(findings):
        if group.action not in decide and _edit(spec, group.findings[0], inputs.spec, values):
            applied.append(group.action)
            schemas[group.action] = group.schema
            continue
        stub = _stub(group, taken)
        if group.action in decide:
            stub["reason"] = (
                f"docs update: {group.action} would make other current pages (of the operations "
                "that share this schema, or of this one) disagree with the spec; split the "
                "schema, or decide"
            )
        keys = {
            (stub["kind"], stub["field"], stub["pointer"], s["seed"], s["says"])
            for s in stub["sources"]
        }
        if keys <= asked:
            pending.append(stub["id"])
            continue
        asked |= keys
        stubs.append(stub)
    if stubs:
        if ledger.lines and ledger.lines[-1].strip():
            ledger.lines.append("")
        ledger.lines.append(
            "  # docs diff --propose: decide each TODO (decision, expect, reason), then run "
            "spec validate"
        )
        ledger.lines.extend(dump_block(stubs, 2, flow=None))
    _check_still_yaml(spec)
    _check_still_yaml(ledger)
    return Proposal(spec, ledger, applied, [s["id"] for s in stubs], project, pending, schemas)
