"""``spec diff`` for what the spec means: its ``x-modelarts-*`` extensions.

Both documents are read through :mod:`modelarts_kit_spec.meaning` (never re-parsed here) and the
typed roles, lifecycle, error model, guidance and paging are compared. Each change is judged by the
principle of :mod:`modelarts_kit_spec.diff` (narrowing a request breaks clients, widening it
breaks servers; widening a response breaks clients, narrowing it breaks servers); the reason of
each rule is one line in :data:`MEANING_RULES`.

Findings that belong to one operation (its role, its error codes, the phases terminate accepts)
name it; the others (lifecycle, guidance, catalogue) are reported for :data:`DOCUMENT`, and the
gateway's errors for :data:`GATEWAY`. Changes a phase brings with it (its transitions, its
secondary phases, whether it is final or terminable) are part of ``phase-added`` /
``phase-removed``, not reported again. The codes of a response status that is itself new or
removed are judged by ``response-status-added`` / ``-removed``.

Silence must be earned: every ``x-modelarts-*`` key the meaning layer does not read where it
stands (an extension the kit does not know, such as one added after this module, or a known one
in a place nobody reads it), and every extension of a document whose meaning cannot be read, is
compared as a plain value and reported as ``extension-changed``, breaking both sides until a
human says otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

from modelarts_kit_spec.diff_paging import paging_changes, parameter_changes
from modelarts_kit_spec.document import JSON, SpecError, pointer_join, resolve_pointer
from modelarts_kit_spec.load import Spec, parse_spec
from modelarts_kit_spec.meaning import (
    CATALOGUE_KEY,
    ERROR_CODES_KEY,
    GATEWAY_KEY,
    GUIDANCE_KEY,
    LIFECYCLE_KEY,
    PAGING_KEY,
    ROLE_KEY,
    ROLES,
    CatalogueEntry,
    Lifecycle,
    Meaning,
    ResponseErrors,
    Role,
    meaning_problems,
    uses_meaning,
)
from modelarts_kit_spec.meaning_rules import MEANING_IMPACT, MEANING_RULES
from modelarts_kit_spec.schemamodel import Rule, Strength
from modelarts_kit_spec.schemamodel.extension import EXTENSION_KEY as SCHEMA_MODEL_KEY
from modelarts_kit_spec.schemamodel.extension import is_rule_at as _is_rule_at
from modelarts_kit_spec.schemamodel.parameters import EXTENSION as PARAMETERS_KEY
from modelarts_kit_spec.schemamodel.parameters import formats_of, together_of
from modelarts_kit_spec.walker import iter_schemas

__all__ = ["DOCUMENT", "EXTENSION_PREFIX", "GATEWAY", "MEANING_RULES", "Emit", "meaning_changed"]

EXTENSION_PREFIX = "x-modelarts-"
DOCUMENT = "(document)"  # the operation named by findings about the whole document
GATEWAY = "(gateway)"  # ... and by findings about errors any request can meet

# (rule, operation, endpoint, pointer, old, new, (breaks clients, breaks servers), message)
Emit = Callable[[str, str, str, str, JSON, JSON, tuple[bool, bool], str], None]


def _fmt(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


@dataclass
class _Compare:
    old: Spec
    new: Spec
    old_meaning: Meaning
    new_meaning: Meaning
    sink: Emit

    def emit(
        self,
        rule: str,
        pointer: str,
        old: JSON,
        new: JSON,
        message: str,
        operation: str = DOCUMENT,
        endpoint: str = "",
    ) -> None:
        clients, servers, _ = MEANING_IMPACT[rule]
        self.sink(rule, operation, endpoint, pointer, old, new, (clients, servers), message)

    def run(self) -> None:
        self.roles()
        self.lifecycle()
        self.errors()
        self.guidance()
        self.strengths()
        self.paging()
        self.parameters()

    # roles ---------------------------------------------------------------------------------------

    def roles(self) -> None:
        old, new = self.old_meaning.roles, self.new_meaning.roles
        for role in ROLES:
            # An optional role that one side lacks is an operation added or removed: the
            # operation rules report that; here only a role that moved between operations.
            was, now = old.get(role), new.get(role)
            if was is None or now is None:
                continue
            if was.operation_id != now.operation_id:
                self.emit(
                    "role-changed",
                    pointer_join(now.pointer, ROLE_KEY),
                    was.operation_id,
                    now.operation_id,
                    f"role `{role}` moved from {was.operation_id} to {now.operation_id}",
                    now.operation_id,
                    f"{now.method.upper()} {now.path}",
                )
        where = pointer_join("", LIFECYCLE_KEY, "job-id")
        if old.job_id_field != new.job_id_field:
            self.emit(
                "job-id-field-changed",
                pointer_join(where, "field"),
                old.job_id_field,
                new.job_id_field,
                f"the job id moved from response field {old.job_id_field} to {new.job_id_field}",
            )
        # The path parameter is matched by its place in the template (as spec diff matches path
        # parameters): renaming it together with the template changes nothing on the wire.
        for role in (Role.SHOW, Role.TERMINATE):
            before = _segment(getattr(old, role).path, old.job_id_parameter)
            after = _segment(getattr(new, role).path, new.job_id_parameter)
            if before != after:
                operation = getattr(new, role)
                self.emit(
                    "job-id-field-changed",
                    pointer_join(where, "parameter"),
                    old.job_id_parameter,
                    new.job_id_parameter,
                    f"the job id is carried by path parameter `{new.job_id_parameter}` "
                    f"(segment {after}) instead of `{old.job_id_parameter}` (segment {before})",
                    operation.operation_id,
                    f"{operation.method.upper()} {operation.path}",
                )
        if dict(old.terminate_body) != dict(new.terminate_body):
            self.emit(
                "terminate-body-changed",
                pointer_join("", LIFECYCLE_KEY, "terminate-body"),
                dict(old.terminate_body),
                dict(new.terminate_body),
                f"the terminate body changed from {_fmt(dict(old.terminate_body))} "
                f"to {_fmt(dict(new.terminate_body))}",
                new.terminate.operation_id,
                f"{new.terminate.method.upper()} {new.terminate.path}",
            )

    # lifecycle -----------------------------------------------------------------------------------

    def lifecycle(self) -> None:
        old, new = self.old_meaning.lifecycle, self.new_meaning.lifecycle
        base = "/" + LIFECYCLE_KEY
        for key, before, after in (
            ("phase-field", old.phase_field, new.phase_field),
            ("secondary-phase-field", old.secondary_phase_field, new.secondary_phase_field),
        ):
            if before != after:
                self.emit(
                    "phase-field-changed",
                    pointer_join(base, key),
                    before,
                    after,
                    f"{key} moved from {before} to {after}",
                )
        common = [p for p in new.phases if p in old.phases]
        for phase in new.phases:
            if phase not in old.phases:
                self.emit(
                    "phase-added",
                    pointer_join(base, "transitions", phase),
                    None,
                    _phase_facts(new, phase),
                    f"phase `{phase}` added ({_describe(new, phase)})",
                )
        for phase in old.phases:
            if phase not in new.phases:
                self.emit(
                    "phase-removed",
                    pointer_join(base, "transitions", phase),
                    _phase_facts(old, phase),
                    None,
                    f"phase `{phase}` removed (it was {_describe(old, phase)})",
                )
        for key in ("initial", "running", "stopping"):
            before, after = getattr(old, key), getattr(new, key)
            if before != after:
                self.emit(
                    f"{key}-phase-changed",
                    pointer_join(base, key),
                    before,
                    after,
                    f"the {key} phase changed from `{before}` to `{after}`",
                )
        old_final = sorted(p for p in old.final if p in common)
        new_final = sorted(p for p in new.final if p in common)
        if old_final != new_final:
            self.emit(
                "final-phase-changed",
                pointer_join(base, "final"),
                old_final,
                new_final,
                f"the final phases changed from {_fmt(old_final)} to {_fmt(new_final)}",
            )
        # A phase that became final loses its transitions and cannot be terminated, one that
        # stopped being final gains them: part of final-phase-changed.
        steady = [p for p in common if old.is_final(p) == new.is_final(p)]
        terminate = self.new_meaning.roles.terminate
        endpoint = f"{terminate.method.upper()} {terminate.path}"
        for phase in steady:
            was, now = old.can_terminate(phase), new.can_terminate(phase)
            if was != now:
                self.emit(
                    "terminable-phase-added" if now else "terminable-phase-removed",
                    pointer_join(base, "terminable"),
                    None if now else phase,
                    phase if now else None,
                    f"a job in `{phase}` "
                    + ("may now be terminated" if now else "may no longer be terminated"),
                    terminate.operation_id,
                    endpoint,
                )
        for source in steady:
            targets_before = [t for t in old.transitions.get(source, ()) if t in common]
            targets_after = [t for t in new.transitions.get(source, ()) if t in common]
            for target in targets_after:
                if target not in targets_before:
                    self.emit(
                        "transition-added",
                        pointer_join(base, "transitions", source),
                        None,
                        [source, target],
                        f"a job may now move from `{source}` to `{target}`",
                    )
            for target in targets_before:
                if target not in targets_after:
                    self.emit(
                        "transition-removed",
                        pointer_join(base, "transitions", source),
                        [source, target],
                        None,
                        f"a job may no longer move from `{source}` to `{target}`",
                    )
        for source in common:
            before_secondary = old.secondary_of.get(source, ())
            after_secondary = new.secondary_of.get(source, ())
            for value in after_secondary:
                if value not in before_secondary:
                    self.emit(
                        "secondary-phase-added",
                        pointer_join(base, "secondary-phases", source),
                        None,
                        value,
                        f"phase `{source}` may now show secondary phase `{value}`",
                    )
            for value in before_secondary:
                if value not in after_secondary:
                    self.emit(
                        "secondary-phase-removed",
                        pointer_join(base, "secondary-phases", source),
                        value,
                        None,
                        f"phase `{source}` no longer shows secondary phase `{value}`",
                    )
        for name in ("normal", "stop"):
            before, after = getattr(old, f"{name}_course"), getattr(new, f"{name}_course")
            if list(before) != list(after):
                self.emit(
                    "course-changed",
                    pointer_join(base, "transitions"),
                    list(before),
                    list(after),
                    f"the {name} course changed from {' -> '.join(before)} to {' -> '.join(after)}",
                )

    # errors --------------------------------------------------------------------------------------

    def errors(self) -> None:
        old, new = self.old_meaning.errors, self.new_meaning.errors
        old_statuses = {
            op.operation_id: {r.status for r in op.responses} for op in self.old.operations
        }
        new_ops = {op.operation_id: op for op in self.new.operations}
        for operation_id, statuses in old_statuses.items():
            operation = new_ops.get(operation_id)
            if operation is None:
                continue  # operation-removed judges it
            shared = statuses & {r.status for r in operation.responses}
            endpoint = f"{operation.method.upper()} {operation.path}"
            before = {r.status: r for r in old.responses if r.operation_id == operation_id}
            after = {r.status: r for r in new.responses if r.operation_id == operation_id}
            for status in sorted(shared):
                self.codes(before.get(status), after.get(status), status, operation_id, endpoint)
        old_gateway = {r.status: r for r in old.gateway}
        new_gateway = {r.status: r for r in new.gateway}
        for status in sorted(old_gateway.keys() | new_gateway.keys()):
            self.codes(
                old_gateway.get(status), new_gateway.get(status), status, GATEWAY, "every request"
            )
        before_rows = {(e.code, e.status): e for e in old.catalogue}
        after_rows = {(e.code, e.status): e for e in new.catalogue}
        base = "/" + CATALOGUE_KEY
        for index, key in enumerate(after_rows):
            row = after_rows[key]
            if before_rows.get(key) != row:
                was = before_rows.get(key)
                self.emit(
                    "error-catalogue-changed",
                    pointer_join(base, index),
                    None if was is None else _row(was),
                    _row(row),
                    f"catalogue row {row.code} ({row.status}) "
                    + ("added" if was is None else "changed"),
                )
        for key, row in before_rows.items():
            if key not in after_rows:
                self.emit(
                    "error-catalogue-changed",
                    base,
                    _row(row),
                    None,
                    f"catalogue row {row.code} ({row.status}) removed",
                )

    def codes(
        self,
        before: ResponseErrors | None,
        after: ResponseErrors | None,
        status: str,
        operation: str,
        endpoint: str,
    ) -> None:
        old = dict(before.by_meaning) if before is not None else {}
        new = dict(after.by_meaning) if after is not None else {}
        where = after.pointer if after is not None else before.pointer if before else ""
        for meaning, codes in new.items():
            if meaning not in old:
                self.emit(
                    "error-meaning-added",
                    pointer_join(where, meaning),
                    None,
                    list(codes),
                    f"status {status} may now mean `{meaning}` ({', '.join(codes)})",
                    operation,
                    endpoint,
                )
                continue
            for code in codes:
                if code not in old[meaning]:
                    self.emit(
                        "error-code-added",
                        pointer_join(where, meaning),
                        None,
                        code,
                        f"status {status} `{meaning}` accepts {code}",
                        operation,
                        endpoint,
                    )
            for code in old[meaning]:
                if code not in codes:
                    self.emit(
                        "error-code-removed",
                        pointer_join(where, meaning),
                        code,
                        None,
                        f"status {status} `{meaning}` no longer accepts {code}",
                        operation,
                        endpoint,
                    )
            if codes and old[meaning] and codes[0] != old[meaning][0]:
                self.emit(
                    "error-code-preferred-changed",
                    pointer_join(where, meaning),
                    old[meaning][0],
                    codes[0],
                    f"status {status} `{meaning}` is answered with {codes[0]} "
                    f"rather than {old[meaning][0]} (the first listed)",
                    operation,
                    endpoint,
                )
        for meaning, codes in old.items():
            if meaning not in new:
                self.emit(
                    "error-meaning-removed",
                    pointer_join(before.pointer if before else where, meaning),
                    list(codes),
                    None,
                    f"status {status} no longer means `{meaning}` ({', '.join(codes)})",
                    operation,
                    endpoint,
                )

    # guidance ------------------------------------------------------------------------------------

    def guidance(self) -> None:
        old_rules = {(r.pointer, r.keyword) for r in self.old_meaning.guidance.rules}
        new_rules = {(r.pointer, r.keyword) for r in self.new_meaning.guidance.rules}
        old_nodes = dict(iter_schemas(self.old.document))
        new_nodes = dict(iter_schemas(self.new.document))
        for pointer, keyword in sorted(new_rules - old_rules):
            # A keyword that is new at its node is a new rule: the schema rules judge it.
            if keyword in old_nodes.get(pointer, {}):
                self.emit(
                    "guidance-added",
                    pointer_join(pointer, GUIDANCE_KEY),
                    None,
                    keyword,
                    f"`{keyword}` at {pointer} became guidance (servers need not enforce it)",
                )
        for pointer, keyword in sorted(old_rules - new_rules):
            if keyword in new_nodes.get(pointer, {}):
                self.emit(
                    "guidance-removed",
                    pointer_join(pointer, GUIDANCE_KEY),
                    keyword,
                    None,
                    f"`{keyword}` at {pointer} is no longer guidance: servers must enforce it",
                )

    # paging (x-modelarts-paging) ---------------------------------------------------------------

    def paging(self) -> None:
        old, new = self.old_meaning.paging.operations, self.new_meaning.paging.operations
        present = {op.operation_id for op in self.new.operations}
        before = {op.operation_id for op in self.old.operations}
        for operation_id in sorted(old.keys() | new.keys()):
            was, now = old.get(operation_id), new.get(operation_id)
            if was is None and now is not None and operation_id in before:
                self.emit("paging-added", now.pointer, None, operation_id,
                          f"{operation_id} now says how it pages", operation_id)  # fmt: skip
            elif now is None and was is not None and operation_id in present:
                self.emit("paging-removed", was.pointer, operation_id, None,
                          f"{operation_id} no longer says how it pages", operation_id)  # fmt: skip
            elif was is not None and now is not None:
                for rule, pointer, old_value, new_value, message in paging_changes(was, now):
                    self.emit(rule, pointer, old_value, new_value, message, operation_id)

    # parameters (x-modelarts-parameters) ---------------------------------------------------------

    def parameters(self) -> None:
        """Parameters passed together, and formats stated in prose, per operation both sides
        have (an operation added or removed is judged by the operation rules)."""
        old_ops = {op.operation_id: op for op in self.old.operations}
        for new_op in self.new.operations:
            old_op = old_ops.get(new_op.operation_id)
            if old_op is None:
                continue
            where = pointer_join(new_op.pointer, PARAMETERS_KEY)
            for rule, old_value, new_value, message in parameter_changes(
                together_of(self.old, old_op), together_of(self.new, new_op),
                formats_of(self.old, old_op), formats_of(self.new, new_op),
            ):  # fmt: skip
                self.emit(rule, where, old_value, new_value, message, new_op.operation_id)

    # strengths (x-modelarts-schema-model) ---------------------------------------------------------

    def strengths(self) -> None:
        """Rules whose strength moved between documented and sdk/example, and changed evidence.

        A move to or from guidance is judged by :meth:`guidance` (the markers say it too); a
        rule that is new (or gone) at its node is judged by the schema rules."""
        old_model, new_model = self.old.schema_model, self.new.schema_model
        old_notes, new_notes = old_model.extension.annotations, new_model.extension.annotations
        where = "/" + SCHEMA_MODEL_KEY
        for pointer, keyword in sorted(old_notes.keys() | new_notes.keys()):
            if not (_is_rule_at(self.old.document, pointer, keyword)
                    and _is_rule_at(self.new.document, pointer, keyword)):  # fmt: skip
                continue
            old_rule = old_model.rule_at(pointer, keyword)
            new_rule = new_model.rule_at(pointer, keyword)
            strengths = {old_rule.strength, new_rule.strength}
            if Strength.GUIDANCE in strengths and len(strengths) > 1:
                continue
            here = f"{keyword} at {pointer}"
            if strengths == {Strength.DOCUMENTED, Strength.DECISION}:
                if new_rule.strength is Strength.DECISION:
                    rule, message = "rule-became-decision", f"{here} is now the ledger's decision"
                else:
                    rule, message = "rule-became-documented", f"{here} is documented now"
            elif old_rule.strength is Strength.DOCUMENTED and len(strengths) > 1:
                rule, message = "rule-became-lenient", f"{here} is now {new_rule.strength}"
            elif new_rule.strength is Strength.DOCUMENTED and len(strengths) > 1:
                rule, message = "rule-became-documented", f"{here} is documented now"
            elif old_rule != new_rule:
                rule, message = "evidence-changed", f"the evidence of {here} changed"
            else:
                continue
            old_value = {"strength": old_rule.strength.value, "evidence": _cited(old_rule)}
            new_value = {"strength": new_rule.strength.value, "evidence": _cited(new_rule)}
            self.emit(rule, f"{where}/rules", old_value, new_value, message)
        old_pages, new_pages = old_model.extension.pages, new_model.extension.pages
        for pointer in sorted(old_pages.keys() | new_pages.keys()):
            was, now = old_pages.get(pointer, ()), new_pages.get(pointer, ())
            if was != now:
                self.emit(
                    "evidence-changed",
                    f"{where}/pages",
                    [str(e) for e in was],
                    [str(e) for e in now],
                    f"the pages that document {pointer} changed",
                )
        old_quotes, new_quotes = old_model.extension.quotes, new_model.extension.quotes
        for pointer in sorted(old_quotes.keys() | new_quotes.keys()):
            was_block, now_block = old_quotes.get(pointer, {}), new_quotes.get(pointer, {})
            if was_block != now_block:
                self.emit(
                    "evidence-changed",
                    f"{where}/quotes",
                    _quoted(was_block),
                    _quoted(now_block),
                    f"the pages' words for {pointer} changed",
                )


def _quoted(block: Mapping[str, JSON]) -> dict[str, list[str]]:
    """A node's quotes by rule keyword, as strings (``PAGE | LOCATOR | QUOTE``)."""
    out: dict[str, list[str]] = {}
    for key, quotes in block.items():
        flat = [q for qs in quotes.values() for q in qs] if isinstance(quotes, Mapping) else quotes
        out[key] = [str(q) for q in flat]
    return out


def _cited(rule: Rule) -> list[str]:
    return [str(evidence) for evidence in rule.evidence]


def _segment(path: str, parameter: str) -> int | None:
    """The index of ``{parameter}`` among the path's segments (None when it is not there)."""
    segments = path.split("/")
    return segments.index(f"{{{parameter}}}") if f"{{{parameter}}}" in segments else None


def _phase_facts(lifecycle: Lifecycle, phase: str) -> dict[str, JSON]:
    return {
        "final": lifecycle.is_final(phase),
        "terminable": lifecycle.can_terminate(phase),
        "transitions": list(lifecycle.transitions.get(phase, ())),
        "secondary": list(lifecycle.secondary_of.get(phase, ())),
    }


def _describe(lifecycle: Lifecycle, phase: str) -> str:
    facts = _phase_facts(lifecycle, phase)
    parts = ["final" if facts["final"] else f"moves to {', '.join(facts['transitions'])}"]
    if facts["terminable"]:
        parts.append("terminable")
    return "; ".join(parts)


def _row(entry: CatalogueEntry) -> dict[str, JSON]:
    return asdict(entry)


# -- where the meaning layer reads, and the rest --------------------------------------------------


def _extensions(node: JSON, pointer: str = "") -> Iterator[tuple[str, JSON]]:
    """Every ``x-modelarts-*`` key in the document, by the pointer of the key."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            here = pointer_join(pointer, str(key))
            if str(key).startswith(EXTENSION_PREFIX):
                yield here, value
            else:
                yield from _extensions(value, here)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _extensions(value, pointer_join(pointer, index))


def _read_places(spec: Spec) -> frozenset[str]:
    """The pointers of the extension keys the meaning layer reads (where it reads them)."""
    places = {pointer_join("", key) for key in (LIFECYCLE_KEY, CATALOGUE_KEY, GATEWAY_KEY)}
    for operation in spec.operations:
        places.add(pointer_join(operation.pointer, ROLE_KEY))
        places.add(pointer_join(operation.pointer, PAGING_KEY))
        places.add(pointer_join(operation.pointer, PARAMETERS_KEY))
        for response in operation.responses:
            _, physical, _ = spec.walker.deref(spec.at(response.pointer), response.pointer)
            places.add(pointer_join(physical, ERROR_CODES_KEY))
    for pointer, _ in iter_schemas(spec.document):
        places.add(pointer_join(pointer, GUIDANCE_KEY))
    places.add(pointer_join("", SCHEMA_MODEL_KEY))
    return frozenset(places)


def _has_node(document: JSON, pointer: str) -> bool:
    try:
        resolve_pointer(document, pointer)
    except KeyError:
        return False
    return True


def _readable(spec: Spec) -> tuple[Meaning | None, str]:
    """The spec's meaning, or None and why not ('' when the spec declares no meaning at all)."""
    if not uses_meaning(spec):
        return None, ""
    problems = meaning_problems(spec)
    if problems:
        return None, f"{spec.path}: {problems[0]}"
    return spec.meaning, ""


def meaning_changed(old_doc: JSON, new_doc: JSON, sink: Emit, *, labels: tuple[str, str]) -> None:
    """Report every change of the ``x-modelarts-*`` extensions from ``old_doc`` to ``new_doc``."""
    try:
        old = parse_spec(old_doc, Path(labels[0]))
        new = parse_spec(new_doc, Path(labels[1]))
    except SpecError:
        return  # not an OpenAPI 3 document: read_source has refused it already
    old_meaning, old_why = _readable(old)
    new_meaning, new_why = _readable(new)
    typed = old_meaning is not None and new_meaning is not None
    if old_meaning is not None and new_meaning is not None:
        _Compare(old, new, old_meaning, new_meaning, sink).run()
    why = "; ".join(w for w in (old_why, new_why) if w)
    if not typed and not why and (uses_meaning(old) or uses_meaning(new)):
        why = "only one side declares the meaning extensions"
    old_read = _read_places(old) if typed else frozenset()
    new_read = _read_places(new) if typed else frozenset()
    before = {p: v for p, v in _extensions(old_doc) if p not in old_read}
    after = {p: v for p, v in _extensions(new_doc) if p not in new_read}
    clients, servers, _ = MEANING_IMPACT["extension-changed"]
    for pointer in sorted(before.keys() | after.keys()):
        was, now = before.get(pointer), after.get(pointer)
        if was == now:
            continue
        state = (
            "added" if pointer not in before else "removed" if pointer not in after else "changed"
        )
        # An extension on a node that is itself new (a new operation's schema) or gone comes
        # and goes with that node, whose own change is reported by the other rules.
        node = pointer.rsplit("/", 1)[0]
        if (state == "added" and not _has_node(old_doc, node)) or (
            state == "removed" and not _has_node(new_doc, node)
        ):
            continue
        reason = (
            f"the meaning cannot be read: {why}" if why else "the kit does not interpret it here"
        )
        sink(
            "extension-changed",
            DOCUMENT,
            "",
            pointer,
            was,
            now,
            (clients, servers),
            f"{pointer.rsplit('/', 1)[-1]} {state} at {pointer} ({reason})",
        )
