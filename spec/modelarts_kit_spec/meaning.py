"""What the spec means: operation roles, the job lifecycle, the error model and guidance rules,
read from the spec's ``x-modelarts-*`` extensions into typed objects (``load_spec().meaning``).

The extensions (each documented with an example in ``spec/README.md``):

- ``x-modelarts-role`` on an operation: one of ``Role`` (``create``, ``show`` and ``terminate``
  are required; ``list``, ``delete``, ``describe``, ``events``, ... are optional);
- ``x-modelarts-lifecycle`` at the document root: the job id (response field and path
  parameter), the phase fields, the initial, running and stopping phases, the terminable and
  final phases, the transitions (the first target of each phase is its normal course), the
  secondary phases each phase shows, and the body of a terminate request. The phases themselves
  are the documented values of the phase field's schema;
- ``x-modelarts-error-codes`` on a response: ``{meaning: [ModelArts.NNNN, ...]}``, every code
  that can answer that operation with that status, grouped by meaning; at the document root, the
  errors any request can meet before it reaches an operation (unknown path, wrong method, ...);
- ``x-modelarts-error-catalogue`` at the document root: the vendor's row (status, name, message,
  solution) of every code the spec lists;
- ``x-modelarts-guidance`` on a schema node: the keywords at that node that are guidance (rules
  the spec infers from prose: clients must follow them, servers need not enforce them);
- ``x-modelarts-paging`` on a listing operation: how it pages (:mod:`modelarts_kit_spec.paging`).

:func:`meaning_problems` lists what is wrong with the extensions (``spec validate`` reports
them); :func:`read_meaning` builds :class:`Meaning` or raises :class:`MeaningError`.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from modelarts_kit_spec.document import SpecError, pointer_join
from modelarts_kit_spec.errormodel import CatalogueEntry, ErrorModel, ResponseErrors
from modelarts_kit_spec.paging import PAGING_KEY, Paging, read_paging
from modelarts_kit_spec.role import CORE_ROLES, ROLES, Role
from modelarts_kit_spec.walker import SchemaWalker, iter_schemas

if TYPE_CHECKING:
    from modelarts_kit_spec.operation import Operation
    from modelarts_kit_spec.view import SpecView

__all__ = [
    "CATALOGUE_KEY",
    "ERROR_CODES_KEY",
    "GATEWAY_KEY",
    "GUIDANCE_KEY",
    "LIFECYCLE_KEY",
    "PAGING_KEY",
    "ROLES",
    "ROLE_KEY",
    "CatalogueEntry",
    "ErrorModel",
    "Guidance",
    "GuidanceRule",
    "Lifecycle",
    "Meaning",
    "MeaningError",
    "Paging",
    "Problem",
    "ResponseErrors",
    "Role",
    "Roles",
    "meaning_problems",
    "read_meaning",
    "strip_guidance",
    "uses_meaning",
]

JSON = Any

ROLE_KEY = "x-modelarts-role"
LIFECYCLE_KEY = "x-modelarts-lifecycle"
ERROR_CODES_KEY = "x-modelarts-error-codes"
GATEWAY_KEY = "x-modelarts-gateway-errors"
CATALOGUE_KEY = "x-modelarts-error-catalogue"
GUIDANCE_KEY = "x-modelarts-guidance"
CODE_PATTERN = re.compile(r"^ModelArts\.\d{4}$")
MEANING_PATTERN = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


class MeaningError(SpecError):
    """The spec's meaning extensions are missing or inconsistent."""


@dataclass(frozen=True, order=True)
class Problem:
    pointer: str
    message: str

    def __str__(self) -> str:
        return f"{self.pointer or '/'}: {self.message}"


# -- typed objects -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Roles:
    """Which operation creates, shows and terminates a job, and where the job id is."""

    create: Operation
    show: Operation
    terminate: Operation
    job_id_field: str  # JSON pointer into a job response, e.g. "/metadata/id"
    job_id_parameter: str  # the path parameter that carries it, e.g. "training_job_id"
    terminate_body: Mapping[str, JSON]  # the body of a terminate request
    # every role's operation: the three above, and the optional ones the spec has
    by_role: Mapping[Role, Operation] = field(default_factory=dict)

    def get(self, role: Role | str) -> Operation | None:
        """The operation of ``role``, or None where the spec has no operation with that role."""
        return self.by_role.get(Role(role))

    def role_of(self, operation_id: str) -> Role | None:
        for role, operation in self.by_role.items():
            if operation.operation_id == operation_id:
                return role
        return None


@dataclass(frozen=True)
class Lifecycle:
    """The job's phases and how a job moves between them."""

    phase_field: str  # JSON pointer into a job response, e.g. "/status/phase"
    secondary_phase_field: str
    phases: tuple[str, ...]  # the documented values of the phase field
    secondary_phases: tuple[str, ...]  # the documented values of the secondary phase field
    phases_open: bool  # whether the phase field's values are open (a service may add phases)
    initial: str
    running: str  # tasks run in this phase: start_time is when a job entered it
    stopping: str  # an accepted terminate moves the job to this phase
    terminable: frozenset[str]
    final: frozenset[str]
    transitions: Mapping[str, tuple[str, ...]]  # phase -> phases it may move to (normal first)
    secondary_of: Mapping[str, tuple[str, ...]]  # phase -> secondary phases it shows (usual first)

    def is_final(self, phase: str) -> bool:
        return phase in self.final

    def can_terminate(self, phase: str) -> bool:
        return phase in self.terminable

    def course(self, start: str) -> tuple[str, ...]:
        """``start`` and the phases that follow it when nothing goes wrong (first targets)."""
        out = [start]
        while out[-1] not in self.final and self.transitions.get(out[-1]):
            following = self.transitions[out[-1]][0]
            if following in out:
                break
            out.append(following)
        return tuple(out)

    @property
    def normal_course(self) -> tuple[str, ...]:
        """From the initial phase to the final phase of a job that runs to its end."""
        return self.course(self.initial)

    @property
    def stop_course(self) -> tuple[str, ...]:
        """From the stopping phase to the final phase of a terminated job."""
        return self.course(self.stopping)

    def reachable(self, phase: str) -> frozenset[str]:
        """Every phase a job in ``phase`` can be seen in later (``phase`` itself included)."""
        seen = {phase}
        pending = [phase]
        while pending:
            for target in self.transitions.get(pending.pop(), ()):
                if target not in seen:
                    seen.add(target)
                    pending.append(target)
        return frozenset(seen)

    def endings(self, phase: str) -> tuple[str, ...]:
        """The final phases a job in ``phase`` can move to directly, in the spec's order."""
        return tuple(t for t in self.transitions.get(phase, ()) if t in self.final)


@dataclass(frozen=True)
class GuidanceRule:
    """One keyword at one schema node that is guidance, not an obligation of servers."""

    pointer: str  # JSON pointer of the schema node
    keyword: str


@dataclass(frozen=True)
class Guidance:
    rules: tuple[GuidanceRule, ...]

    def at(self, pointer: str) -> frozenset[str]:
        return frozenset(self.listed_at(pointer))

    def listed_at(self, pointer: str) -> tuple[str, ...]:
        """The guidance keywords of the node at ``pointer``, in the spec's order."""
        return tuple(r.keyword for r in self.rules if r.pointer == pointer)

    @property
    def pointers(self) -> frozenset[str]:
        return frozenset(r.pointer for r in self.rules)


@dataclass(frozen=True)
class Meaning:
    roles: Roles
    lifecycle: Lifecycle
    errors: ErrorModel
    guidance: Guidance = field(default_factory=lambda: Guidance(()))
    paging: Paging = field(default_factory=lambda: Paging({}))  # x-modelarts-paging


# -- reading -------------------------------------------------------------------------------------


def _mapping(value: JSON) -> Mapping[str, JSON]:
    return value if isinstance(value, Mapping) else {}


def _strings(value: JSON) -> list[str] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


class _Reader:
    """Reads the extensions, collecting every problem instead of stopping at the first."""

    def __init__(self, spec: SpecView) -> None:
        self.spec = spec
        self.document = spec.document
        self.walker = SchemaWalker(spec.document)
        self.problems: list[Problem] = []

    def problem(self, pointer: str, message: str) -> None:
        self.problems.append(Problem(pointer, message))

    # roles ---------------------------------------------------------------------------------------

    def roles(self, lifecycle: Mapping[str, JSON]) -> Roles | None:
        found: dict[str, Operation] = {}
        for operation in self.spec.operations:
            raw = self.document["paths"][operation.path][operation.method]
            role = raw.get(ROLE_KEY)
            if role is None:
                continue
            where = pointer_join(operation.pointer, ROLE_KEY)
            if role not in ROLES:
                self.problem(where, f"role {role!r} is not one of {[r.value for r in ROLES]}")
            elif role in found:
                other = found[role].operation_id
                self.problem(where, f"role {role!r} is already {other}'s")
            else:
                found[role] = operation
        for role in CORE_ROLES:
            if role not in found:
                self.problem("/paths", f"no operation has {ROLE_KEY}: {role}")
        job_id = _mapping(lifecycle.get("job-id"))
        where = pointer_join("", LIFECYCLE_KEY, "job-id")
        id_field = job_id.get("field")
        id_parameter = job_id.get("parameter")
        if not isinstance(id_field, str) or not id_field.startswith("/"):
            self.problem(where, "job-id.field must be a JSON pointer into a job response")
            id_field = None
        if not isinstance(id_parameter, str):
            self.problem(where, "job-id.parameter must name the path parameter of the job id")
            id_parameter = None
        body = lifecycle.get("terminate-body")
        if not isinstance(body, Mapping):
            self.problem(
                pointer_join("", LIFECYCLE_KEY, "terminate-body"),
                "terminate-body must be the JSON object a terminate request sends",
            )
            body = None
        missing = any(role not in found for role in CORE_ROLES)
        if missing or id_field is None or id_parameter is None or body is None:
            return None
        for role in ("show", "terminate"):
            names = {p.name for p in found[role].parameters if p.location == "path"}
            if id_parameter not in names:
                self.problem(
                    where,
                    f"job-id.parameter {id_parameter!r} is not a path parameter of "
                    f"{found[role].operation_id}",
                )
        create_schema = found["create"].success.schema
        if create_schema is not None and self.walker.at_pointer(create_schema, id_field) is None:
            self.problem(where, f"job-id.field {id_field} is not a field of the create response")
        terminate_schema = found["terminate"].request_schema
        if terminate_schema is not None:
            errors = list(self.spec.validator(terminate_schema).iter_errors(body))
            if errors:
                self.problem(
                    pointer_join("", LIFECYCLE_KEY, "terminate-body"),
                    f"terminate-body is not a valid terminate request: {errors[0].message}",
                )
        return Roles(
            create=found["create"],
            show=found["show"],
            terminate=found["terminate"],
            job_id_field=id_field,
            job_id_parameter=id_parameter,
            terminate_body=dict(body),
            by_role={Role(role): operation for role, operation in found.items()},
        )

    # lifecycle -----------------------------------------------------------------------------------

    def lifecycle(self, raw: Mapping[str, JSON], roles: Roles | None) -> Lifecycle | None:
        base = "/" + LIFECYCLE_KEY
        if not raw:
            self.problem(base, f"the document has no {LIFECYCLE_KEY}")
            return None
        job_schema = roles.show.success.schema if roles is not None else None

        def values_at(key: str) -> tuple[tuple[str, ...], bool] | None:
            where = pointer_join(base, key)
            pointer = raw.get(key)
            if not isinstance(pointer, str) or not pointer.startswith("/"):
                self.problem(where, f"{key} must be a JSON pointer into a job response")
                return None
            if job_schema is None:
                return None
            view = self.walker.at_pointer(job_schema, pointer)
            documented = view.documented if view is not None else None
            if documented is None:
                self.problem(where, f"{pointer} is not a field of the job with documented values")
                return None
            return documented.values, documented.open

        phases_found = values_at("phase-field")
        secondary_found = values_at("secondary-phase-field")
        phases = phases_found[0] if phases_found else ()
        secondary = secondary_found[0] if secondary_found else ()
        known = set(phases)

        def phase(key: str) -> str:
            value = raw.get(key)
            if not isinstance(value, str) or (phases and value not in known):
                self.problem(pointer_join(base, key), f"{key} {value!r} is not a phase {phases}")
                return ""
            return value

        def phase_set(key: str) -> frozenset[str]:
            values = _strings(raw.get(key))
            if values is None:
                self.problem(pointer_join(base, key), f"{key} must be a list of phases")
                return frozenset()
            for value in values:
                if phases and value not in known:
                    self.problem(pointer_join(base, key), f"{value!r} is not a phase {phases}")
            return frozenset(values)

        initial, running, stopping = phase("initial"), phase("running"), phase("stopping")
        terminable, final = phase_set("terminable"), phase_set("final")
        transitions: dict[str, tuple[str, ...]] = {}
        for source, targets in _mapping(raw.get("transitions")).items():
            where = pointer_join(base, "transitions", source)
            listed = _strings(targets)
            if phases and source not in known:
                self.problem(where, f"{source!r} is not a phase {phases}")
            if listed is None or not listed:
                self.problem(where, "transitions must list the phases a phase may move to")
                continue
            for target in listed:
                if phases and target not in known:
                    self.problem(where, f"target {target!r} is not a phase {phases}")
            if source in final:
                self.problem(where, f"final phase {source!r} cannot move on")
            transitions[str(source)] = tuple(listed)
        if not transitions:
            self.problem(pointer_join(base, "transitions"), "transitions are missing")
        secondary_of: dict[str, tuple[str, ...]] = {}
        for name, listed_raw in _mapping(raw.get("secondary-phases")).items():
            where = pointer_join(base, "secondary-phases", name)
            listed = _strings(listed_raw)
            if phases and name not in known:
                self.problem(where, f"{name!r} is not a phase {phases}")
            if not listed:
                self.problem(where, "list the secondary phases this phase shows")
                continue
            for value in listed:
                if secondary and value not in secondary:
                    self.problem(where, f"{value!r} is not a documented secondary phase")
            secondary_of[str(name)] = tuple(listed)
        for name in phases:
            if name not in secondary_of:
                self.problem(
                    pointer_join(base, "secondary-phases"), f"phase {name!r} has no secondary phase"
                )
            if name not in final and name not in transitions:
                self.problem(
                    pointer_join(base, "transitions"),
                    f"phase {name!r} is neither final nor has transitions",
                )
        if self.problems:
            return None
        lifecycle = Lifecycle(
            phase_field=str(raw["phase-field"]),
            secondary_phase_field=str(raw["secondary-phase-field"]),
            phases=phases,
            secondary_phases=secondary,
            phases_open=bool(phases_found and phases_found[1]),
            initial=initial,
            running=running,
            stopping=stopping,
            terminable=terminable,
            final=final,
            transitions=transitions,
            secondary_of=secondary_of,
        )
        self._check_courses(lifecycle, base)
        return lifecycle

    def _check_courses(self, lifecycle: Lifecycle, base: str) -> None:
        if lifecycle.normal_course[-1] not in lifecycle.final:
            self.problem(
                pointer_join(base, "transitions"),
                f"the normal course {list(lifecycle.normal_course)} does not end in a final phase",
            )
        if lifecycle.running in lifecycle.final or lifecycle.stopping in lifecycle.final:
            self.problem(base, "the running and stopping phases cannot be final")
        if lifecycle.running not in lifecycle.normal_course:
            self.problem(
                pointer_join(base, "running"),
                f"running phase {lifecycle.running!r} is not on the normal course",
            )
        if lifecycle.stop_course[-1] not in lifecycle.final:
            self.problem(
                pointer_join(base, "stopping"),
                f"the stop course {list(lifecycle.stop_course)} does not end in a final phase",
            )
        for name in sorted(lifecycle.terminable):
            if lifecycle.stopping not in lifecycle.transitions.get(name, ()):
                self.problem(
                    pointer_join(base, "terminable"),
                    f"terminable phase {name!r} has no transition to {lifecycle.stopping!r}",
                )
        if lifecycle.terminable & lifecycle.final:
            self.problem(pointer_join(base, "terminable"), "a final phase cannot be terminable")
        unreachable = set(lifecycle.phases) - lifecycle.reachable(lifecycle.initial)
        if unreachable:
            self.problem(
                pointer_join(base, "transitions"),
                f"phases {sorted(unreachable)} cannot be reached from {lifecycle.initial!r}",
            )

    # errors --------------------------------------------------------------------------------------

    def catalogue(self) -> tuple[CatalogueEntry, ...]:
        base = "/" + CATALOGUE_KEY
        raw = self.document.get(CATALOGUE_KEY)
        if not isinstance(raw, list):
            self.problem(base, f"{CATALOGUE_KEY} must be a list of vendor error rows")
            return ()
        entries: list[CatalogueEntry] = []
        seen: set[tuple[str, int]] = set()
        for index, row in enumerate(raw):
            where = pointer_join(base, index)
            row = _mapping(row)
            code, status = row.get("code"), row.get("status")
            if not isinstance(code, str) or not CODE_PATTERN.match(code):
                self.problem(where, f"code {code!r} is not ModelArts.NNNN")
                continue
            if not isinstance(status, int) or not 100 <= status <= 599:
                self.problem(where, f"status {status!r} is not an HTTP status")
                continue
            if (code, status) in seen:
                self.problem(where, f"{code} with status {status} is listed twice")
            seen.add((code, status))
            texts = [row.get(k) for k in ("name", "message", "solution")]
            if not all(isinstance(t, str) for t in texts):
                self.problem(where, "name, message and solution must be strings")
                continue
            entries.append(CatalogueEntry(code, status, *(str(t) for t in texts)))
        return tuple(entries)

    def codes_map(
        self, raw: JSON, where: str, catalogue: tuple[CatalogueEntry, ...], status: str
    ) -> dict[str, tuple[str, ...]]:
        out: dict[str, tuple[str, ...]] = {}
        if not isinstance(raw, Mapping) or not raw:
            self.problem(where, f"{ERROR_CODES_KEY} must map meanings to lists of codes")
            return out
        for meaning, codes_raw in raw.items():
            here = pointer_join(where, meaning)
            codes = _strings(codes_raw)
            if not MEANING_PATTERN.match(str(meaning)):
                self.problem(here, f"meaning {meaning!r} must be lower-case-with-hyphens")
            if not codes:
                self.problem(here, "list at least one code")
                continue
            for code in codes:
                rows = [e for e in catalogue if e.code == code]
                if not CODE_PATTERN.match(code):
                    self.problem(here, f"{code!r} is not ModelArts.NNNN")
                elif not rows:
                    self.problem(here, f"{code} is not in {CATALOGUE_KEY}")
                elif status.isdigit() and all(e.status != int(status) for e in rows):
                    shown = sorted({e.status for e in rows})
                    self.problem(here, f"{code} is a {shown} code, not {status}")
            if len(set(codes)) != len(codes):
                self.problem(here, "a code is listed twice")
            out[str(meaning)] = tuple(codes)
        return out

    def errors(self) -> ErrorModel:
        catalogue = self.catalogue()
        responses: list[ResponseErrors] = []
        for operation in self.spec.operations:
            for response in operation.responses:
                raw_response = self.walker.deref(self.spec.at(response.pointer))[0]
                raw = _mapping(raw_response).get(ERROR_CODES_KEY)
                where = pointer_join(response.pointer, ERROR_CODES_KEY)
                if raw is None:
                    if not response.status.startswith(("2", "3")):
                        self.problem(response.pointer, f"error response without {ERROR_CODES_KEY}")
                    continue
                by_meaning = self.codes_map(raw, where, catalogue, response.status)
                responses.append(
                    ResponseErrors(operation.operation_id, response.status, where, by_meaning)
                )
        gateway: list[ResponseErrors] = []
        for status, raw in _mapping(self.document.get(GATEWAY_KEY)).items():
            where = pointer_join("", GATEWAY_KEY, str(status))
            if not str(status).isdigit():
                self.problem(where, f"{status!r} is not an HTTP status")
                continue
            by_meaning = self.codes_map(raw, where, catalogue, str(status))
            gateway.append(ResponseErrors("", str(status), where, by_meaning))
        return ErrorModel(tuple(responses), tuple(gateway), catalogue)

    # guidance ------------------------------------------------------------------------------------

    def guidance(self) -> Guidance:
        rules: list[GuidanceRule] = []
        for pointer, schema in iter_schemas(self.document):
            raw = schema.get(GUIDANCE_KEY)
            if raw is None:
                continue
            where = pointer_join(pointer, GUIDANCE_KEY)
            keywords = _strings(raw)
            if not keywords:
                self.problem(where, f"{GUIDANCE_KEY} must list keywords of this schema")
                continue
            for keyword in keywords:
                if keyword not in schema or keyword.startswith("x-"):
                    self.problem(where, f"{keyword!r} is not a keyword of this schema")
                else:
                    rules.append(GuidanceRule(pointer, keyword))
        return Guidance(tuple(rules))


def _read(spec: SpecView) -> tuple[Meaning | None, list[Problem]]:
    reader = _Reader(spec)
    raw_lifecycle = _mapping(spec.document.get(LIFECYCLE_KEY))
    roles = reader.roles(raw_lifecycle)
    lifecycle = reader.lifecycle(raw_lifecycle, roles)
    errors = reader.errors()
    guidance = reader.guidance()
    paging, paging_problems = read_paging(spec, reader.walker)
    reader.problems.extend(Problem(pointer, message) for pointer, message in paging_problems)
    problems = sorted(set(reader.problems))
    if problems or roles is None or lifecycle is None:
        return None, problems
    return Meaning(roles, lifecycle, errors, guidance, paging), problems


def uses_meaning(spec: SpecView) -> bool:
    """Whether the document declares any of the meaning extensions."""
    document = _mapping(spec.document)
    if any(key in document for key in (LIFECYCLE_KEY, CATALOGUE_KEY, GATEWAY_KEY)):
        return True
    paths = _mapping(document.get("paths"))
    return any(
        ROLE_KEY in _mapping(_mapping(paths.get(op.path)).get(op.method)) for op in spec.operations
    )


def meaning_problems(spec: SpecView) -> list[Problem]:
    """Everything wrong with the spec's meaning extensions (empty when they are consistent)."""
    return _read(spec)[1]


def read_meaning(spec: SpecView) -> Meaning:
    """The spec's meaning; :class:`MeaningError` names the first problem."""
    meaning, problems = _read(spec)
    if meaning is None:
        first = problems[0] if problems else Problem("", "the meaning extensions are incomplete")
        more = f" (and {len(problems) - 1} more; run `modelarts-kit spec validate`)"
        raise MeaningError(f"{spec.path}: {first}{more if len(problems) > 1 else ''}")
    return meaning


def strip_guidance(document: JSON) -> JSON:
    """A copy of ``document`` without the guidance keywords (and their markers): the obligations.

    Each schema node's ``x-modelarts-guidance`` keywords are removed from that node; a node left
    with ``additionalProperties`` removed accepts unknown properties, as JSON Schema says.
    """
    stripped = copy.deepcopy(document)
    for _, schema in list(iter_schemas(stripped)):
        keywords = schema.get(GUIDANCE_KEY)
        if not isinstance(keywords, list):
            continue
        assert isinstance(schema, dict)
        for keyword in keywords:
            schema.pop(keyword, None)
        schema.pop(GUIDANCE_KEY, None)
    return stripped
