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
from modelarts_kit_vendordocs.yamltext import (
    Node,
    child_node,
    find_node,
    indent_of,
    inline_value,
    is_content,
    item_node,
    members_of,
    parse_inline,
    sequence_items,
    split_key,
)

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
    parsed = parse_inline(value)
    if parsed is None or not isinstance(parsed[0], list):
        return None
    items, comment = parsed
    items.extend(n for n in names if n not in items)
    return dump_flow(items) + comment


def _add_to_list(doc: _Text, node: Node, key: str, names: Sequence[str]) -> bool:
    """Add ``names`` to the list at ``key`` of the mapping ``node`` (created when absent)."""
    target = child_node(doc.lines, node, key)
    if target is None:
        anchor = child_node(doc.lines, node, "properties")
        if anchor is None:
            return False
        doc.lines[anchor.line : anchor.line] = dump_block(
            {key: list(names)}, anchor.indent, flow=None
        )
        return True
    value = inline_value(doc.lines, target)
    if value:
        merged = _merged_flow(value, names)
        if merged is None:
            return False
        line = doc.lines[target.line].rstrip()
        split = split_key(line.strip().removeprefix("- ").strip())
        if split is None:
            return False
        key_end = len(line) - len(split[1])  # just past the key's colon
        doc.lines[target.line : max(target.end, target.line + 1)] = [line[:key_end] + " " + merged]
        return True
    item_indent = next(
        (
            indent_of(doc.lines[n])
            for n in range(target.start, target.end)
            if is_content(doc.lines[n])
        ),
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
    owner = find_node(doc.lines, finding.schema or "")
    if owner is None:
        return False
    properties = child_node(doc.lines, owner, "properties")
    if properties is None or child_node(doc.lines, properties, name) is not None:
        return False
    members = [n for n in range(properties.start, properties.end) if is_content(doc.lines[n])]
    indent = indent_of(doc.lines[members[0]]) if members else properties.indent + 2
    block = dump_block({name: _property_schema(finding, values)}, indent)
    doc.lines[properties.end : properties.end] = block
    if finding.required and finding.side == "request":
        owner = find_node(doc.lines, finding.schema or "")
        return owner is not None and _add_to_list(doc, owner, "required", [name])
    return True


def _add_values(doc: _Text, finding: DriftFinding, values: Sequence[str]) -> bool:
    node = find_node(doc.lines, finding.pointer or "")
    if node is None:
        return False
    if child_node(doc.lines, node, "enum") is not None:
        return _add_to_list(doc, node, "enum", values)
    any_of = child_node(doc.lines, node, "anyOf")
    if any_of is None:
        return False
    for index in range(8):
        member = child_node(doc.lines, any_of, str(index))
        if member is None:
            return False
        if child_node(doc.lines, member, "enum") is not None:
            return _add_to_list(doc, member, "enum", values)
    return False


def replace_scalar(text: str, pointer: str, value: str | int | float) -> str | None:
    """``text`` with the one-line scalar at ``pointer`` (``/info/version``) set to ``value``
    by the emitter, the rest of the file untouched; None when there is no such line."""
    doc = _Text(Path(), text)
    node = find_node(doc.lines, pointer)
    if node is None or node.start != node.line + 1 or node.end > node.start:
        return None
    line = doc.lines[node.line].rstrip()
    split = split_key(line.strip().removeprefix("- ").strip())
    current = parse_inline(split[1].strip()) if split is not None else None
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


def _list_items(lines: list[str], key: Node) -> tuple[int, int] | None:
    """(indent, one past the last line) of the block list under ``key``, whose ``- `` items
    may sit at the key's own indent (as the emitter writes them) or deeper."""
    first = next((n for n in range(key.line + 1, len(lines)) if is_content(lines[n])), None)
    if first is None or not lines[first].lstrip().startswith("- "):
        return None
    indent = indent_of(lines[first])
    if indent < key.indent:
        return None
    end = first + 1
    for number in range(first + 1, len(lines)):
        if not is_content(lines[number]):
            continue
        deeper = indent_of(lines[number]) > indent
        if not (
            deeper or (indent_of(lines[number]) == indent and lines[number].lstrip()[:2] == "- ")
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
    # The entries are found once (one pass over the ledger, not two per entry), and edited
    # from the last up, so an insertion never moves an entry still to be edited.
    entries = find_node(ledger.lines, "/entries")
    listed = sequence_items(ledger.lines, members_of(ledger.lines, entries)) if entries else []
    for index in sorted(additions, reverse=True):
        entry = item_node(ledger.lines, *listed[index]) if index < len(listed) else None
        key = child_node(ledger.lines, entry, "sources") if entry is not None else None
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
