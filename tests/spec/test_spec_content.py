"""The curated spec says what the vendor pages say, and the ledger says where it does not.

Each check is a plain function returning its problems, so every test also runs it on a
deliberately broken copy of the spec or ledger and asserts that the breakage is caught.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import yaml
from modelarts_kit_spec import (
    LEDGER_PATH,
    Ledger,
    LedgerEntry,
    Spec,
    load_spec,
    parse_ledger,
    parse_spec,
    read_ledger,
    resolve_pointer,
)
from modelarts_kit_spec.paths import INVENTORIES_DIR
from modelarts_kit_spec.validate import subset_mismatch
from modelarts_kit_vendordocs import Inventory, compare, extract_page, load_decisions
from modelarts_kit_vendordocs.drift import normalise_field
from openapi_spec_validator import validate as openapi_validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from tests.yaml_files import dump_yaml

JSON = Any
REPO = Path(__file__).resolve().parents[2]
SEEDS_DIR = REPO / "spec" / "sources" / "seeds"  # the pages live in the repository
# where a ledger source's page may be: the seeds and the later pages (spec/sources/README.md)
PAGE_DIRS = (
    SEEDS_DIR,
    REPO / "spec" / "sources" / "family",
    REPO / "spec" / "sources" / "reference",
)
INVENTORY_PATH = INVENTORIES_DIR / "inventory_of_seeds.yaml"
CREATE = "CreateTrainingJob"
SHOW = "ShowTrainingJobDetails"
STOP = "StopTrainingJob"
LEDGER_KEYS = (
    "id",
    "pointer",
    "field",
    "side",
    "operations",
    "kind",
    "sources",
    "decision",
    "expect",
    "reason",
)
LEDGER_KINDS = {
    "type",
    "mandatory",
    "enum",
    "presence",
    "name",
    "required-response",
    "nullable",
    "constraint",
    "default",
    "example",
    "status-code",
    "guidance",
    "sensitive",
}
OPERATION_IDS = {CREATE, SHOW, STOP}
LIST = "ListTrainingJobs"
DELETE = "DeleteTrainingJob"
DESCRIBE = "ChangeTrainingJobDescription"
FAMILY_OPERATION_IDS = {LIST, DELETE, DESCRIBE}


class DocField(NamedTuple):
    """One documented field at one place (see inventory_of_seeds.yaml for the columns)."""

    operation: str
    location: str
    path: str
    type: str
    mandatory: str | None
    sources: dict[str, str]


def load_inventory() -> tuple[dict[str, str], tuple[DocField, ...]]:
    data = yaml.load(INVENTORY_PATH.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    fields = tuple(
        DocField(f["op"], f["at"], f["path"], f["type"], f["mandatory"], f["sources"])
        for f in data["fields"]
    )
    return dict(data["seeds"]), fields


SEED_FILES, INVENTORY = load_inventory()


@pytest.fixture(scope="module")
def spec() -> Spec:
    return load_spec()


@pytest.fixture(scope="module")
def ledger() -> Ledger:
    return read_ledger()


def broken(spec: Spec, pointer: str, mutate: Callable[[JSON], None]) -> Spec:
    """A deep copy of the spec with the node at ``pointer`` changed by ``mutate``."""
    document = copy.deepcopy(spec.document)
    mutate(resolve_pointer(document, pointer))
    return parse_spec(document, spec.path)


# --------------------------------------------------------------------------- OpenAPI validity


def openapi_problems(document: JSON) -> list[str]:
    try:
        openapi_validate(document)
    except OpenAPIValidationError as exc:
        return [str(exc).splitlines()[0]]
    return []


def test_spec_passes_openapi_spec_validator(spec: Spec) -> None:
    assert openapi_problems(spec.document) == []
    document = copy.deepcopy(spec.document)
    document["components"]["schemas"]["Status"]["properties"]["phase"]["type"] = "strng"
    assert openapi_problems(document), "a schema with an unknown type must be rejected"


def test_operations_and_success_statuses(spec: Spec) -> None:
    # the seeds' three and the list, delete and describe operations; the task and catalogue
    # operations are pinned in test_spec_events_logs_metrics_catalogue.py
    found = {
        (op.operation_id, op.method, op.path, op.success.status)
        for op in spec.operations
        if op.operation_id in OPERATION_IDS | FAMILY_OPERATION_IDS
    }
    assert found == {
        (CREATE, "post", "/v2/{project_id}/training-jobs", "201"),
        (SHOW, "get", "/v2/{project_id}/training-jobs/{training_job_id}", "200"),
        (STOP, "post", "/v2/{project_id}/training-jobs/{training_job_id}/actions", "202"),
        (LIST, "post", "/v2/{project_id}/training-job-searches", "200"),
        (DELETE, "delete", "/v2/{project_id}/training-jobs/{training_job_id}", "202"),
        (DESCRIBE, "put", "/v2/{project_id}/training-jobs/{training_job_id}", "200"),
    }
    assert spec.version == "3.0.0"


# --------------------------------------------------------------------------- the ledger


def ledger_problems(spec: Spec, ledger: Ledger) -> list[str]:
    problems = [f"entry {p.index}: {p.message}" for p in ledger.problems]
    for index, raw in enumerate(ledger.raw):
        missing = [key for key in LEDGER_KEYS if key not in raw]
        if missing:
            problems.append(f"entry {index}: missing {missing}")
    for entry in ledger.entries:
        where = f"entry {entry.index} ({entry.id!r})"
        if entry.kind not in LEDGER_KINDS:
            problems.append(f"{where}: unknown kind {entry.kind!r}")
        unknown_ops = set(entry.operations or ()) - {op.operation_id for op in spec.operations}
        if not entry.operations or unknown_ops:
            problems.append(f"{where}: operations {entry.operations!r}")
        for source in entry.sources:
            if source.sdk is not None:
                continue  # SDK evidence names a model attribute, not a page
            if source.client is not None:  # a real client's observed behaviour (clients README)
                if not source.version or not source.says:
                    problems.append(f"{where}: client source without version or says")
                continue
            if not any((folder / str(source.seed)).is_file() for folder in PAGE_DIRS):
                problems.append(f"{where}: source names no seed file: {source.seed!r}")
            if not source.table or source.says is None:
                problems.append(f"{where}: source without table or says: {source!r}")
        if not entry.reason.strip() or not entry.decision.strip():
            problems.append(f"{where}: empty decision or reason")
        try:
            actual = spec.at(entry.pointer or "")
        except KeyError as exc:
            problems.append(f"{where}: pointer does not resolve: {exc}")
            continue
        mismatch = subset_mismatch(spec.document, actual, entry.expect or {})
        if mismatch:
            problems.append(f"{where}: expect does not hold: {mismatch}")
    return problems


def test_ledger_entries_hold(spec: Spec, ledger: Ledger) -> None:
    assert len(ledger) >= 60
    assert ledger_problems(spec, ledger) == []


def test_ledger_check_catches_breakage(spec: Spec, ledger: Ledger) -> None:
    entries = copy.deepcopy(list(ledger.raw))
    entries.append(copy.deepcopy(entries[0]))  # duplicate id
    entries[1]["pointer"] = "/components/schemas/NoSuchSchema"
    entries[2]["sources"][0]["seed"] = "999_missing.txt"
    problems = ledger_problems(spec, parse_ledger(entries))
    assert any("duplicate id" in p for p in problems)
    assert any("pointer does not resolve" in p for p in problems)
    assert any("999_missing.txt" in p for p in problems)
    # The spec drifting away from a decision is caught: start_time back to a string.
    drifted = broken(
        spec, "/components/schemas/Status/properties/start_time", lambda n: n.update(type="string")
    )
    assert any("status-start-time-type" in p for p in ledger_problems(drifted, ledger))


def test_ledger_covers_the_disagreements_the_issue_names(ledger: Ledger) -> None:
    by_id = ledger.by_id()
    for required in (
        "status-start-time-type",
        "environments-request-map",
        "environments-response-array-of-maps",
        "action-type-mandatory",
        "npu-unit-num-string",
        "disk-size-string",
        "disk-response-size-integer",
        "resource-policy-regular-vs-economic",
        "stop-allowed-phases-wording",
        "spec-response-typo",
        "gpu-product-name-typo",
        "auto-search-table-missing",
    ):
        assert required in by_id, required


# --------------------------------------------------------------------------- examples


def iter_examples(spec: Spec) -> Iterator[tuple[str, JSON, JSON]]:
    """(where, schema, value) for every example of every request and response body."""
    for op in spec.operations:
        raw = spec.at(op.pointer)
        media_types: list[tuple[str, JSON]] = []
        body = spec.deref(raw.get("requestBody") or {})
        for name, media in (body.get("content") or {}).items():
            media_types.append((f"{op.operation_id} request {name}", media))
        for response in op.responses:
            content = spec.deref(spec.at(response.pointer)).get("content") or {}
            for name, media in content.items():
                media_types.append((f"{op.operation_id} {response.status} {name}", media))
        for where, media in media_types:
            for example_name, example in (media.get("examples") or {}).items():
                yield f"{where} {example_name}", media["schema"], spec.deref(example)["value"]


def example_problems(spec: Spec) -> list[str]:
    problems = []
    for where, schema, value in iter_examples(spec):
        for error in spec.validator(schema).iter_errors(value):
            problems.append(f"{where} /{'/'.join(map(str, error.absolute_path))}: {error.message}")
    return problems


def test_every_example_validates(spec: Spec) -> None:
    assert sum(1 for _ in iter_examples(spec)) >= 20
    assert example_problems(spec) == []

    # A string where the schema wants an int64 timestamp is caught.
    def corrupt(media: JSON) -> None:
        media["examples"]["seed-003-show-response"]["value"]["status"]["start_time"] = "0"

    show_200 = "/paths/~1v2~1{project_id}~1training-jobs~1{training_job_id}/get/responses/200"
    bad = broken(spec, show_200 + "/content/application~1json", corrupt)
    assert any("seed-003-show-response" in p for p in example_problems(bad))


def seed_json_examples(seed: str) -> list[JSON]:
    """Every JSON object printed in a seed page (its request and response examples)."""
    text = (SEEDS_DIR / seed).read_text(encoding="utf-8")
    decoder = json.JSONDecoder()
    found: list[JSON] = []
    position = text.find("{")
    while position >= 0:
        try:
            value, end = decoder.raw_decode(text, position)
        except json.JSONDecodeError:
            position = text.find("{", position + 1)
            continue
        if isinstance(value, dict) and value:
            found.append(value)
            position = text.find("{", end)
        else:
            position = text.find("{", position + 1)
    return found


def test_every_seed_example_is_in_the_spec(spec: Spec) -> None:
    in_spec = [value for _, _, value in iter_examples(spec)]
    total = 0
    for seed in SEED_FILES.values():
        for value in seed_json_examples(seed):
            total += 1
            assert value in in_spec, f"{seed}: example {json.dumps(value)[:120]} is not in the spec"
    assert total == 11  # 3 terminate requests, 5 job responses, 2 create requests, 1 error


# --------------------------------------------------------------------------- completeness


class Resolved:
    """A property reached by a dotted path: its schema, its pointer and its parent's."""

    def __init__(self, schema: JSON, pointer: str, parent: JSON, parent_pointer: str) -> None:
        self.schema = schema
        self.pointer = pointer
        self.parent = parent
        self.parent_pointer = parent_pointer


def follow(spec: Spec, node: JSON, pointer: str) -> tuple[JSON, str]:
    """Follow $ref (keeping the pointer of the target) and step into arrays and nullables."""
    while True:
        if isinstance(node, Mapping) and "$ref" in node:
            pointer = str(node["$ref"]).removeprefix("#")
            node = spec.at(pointer)
            continue
        branches = [
            (index, key)
            for key in ("oneOf", "anyOf")
            for index, sub in enumerate(node.get(key) or [])
            if sub.get("type") != "null" and ("$ref" in sub or "properties" in sub)
        ]
        if "properties" not in node and len(branches) == 1:
            index, key = branches[0]
            node, pointer = node[key][index], f"{pointer}/{key}/{index}"
            continue
        types = node.get("type")
        if (types == "array" or (isinstance(types, list) and "array" in types)) and "items" in node:
            node, pointer = node["items"], f"{pointer}/items"
            continue
        return node, pointer


def body_schema(spec: Spec, field: DocField) -> tuple[JSON, str]:
    op = spec.operation(field.operation)
    if field.location == "request":
        return op.request_schema, f"{op.pointer}/requestBody/content/application~1json/schema"
    response = op.success if field.location == "response" else op.response_for(400)
    assert response is not None
    assert response.schema is not None
    return response.schema, f"{response.pointer}/content/application~1json/schema"


def resolve_field(spec: Spec, field: DocField) -> Resolved | None:
    node, pointer = body_schema(spec, field)
    parent, parent_pointer = node, pointer
    for token in field.path.split("."):
        parent, parent_pointer = follow(spec, node, pointer)
        properties = parent.get("properties") or {}
        if token not in properties:
            return None
        node, pointer = properties[token], f"{parent_pointer}/properties/{token}"
    return Resolved(node, pointer, parent, parent_pointer)


def schema_types(spec: Spec, schema: JSON) -> tuple[set[str], JSON]:
    """The JSON types a property admits (through $ref and nullable unions), and its main schema."""
    target, _ = follow(spec, schema, "")
    if isinstance(schema, Mapping) and "$ref" not in schema and schema.get("type") == "array":
        target = schema  # keep the array itself for array checks
    declared = schema.get("type") if "$ref" not in schema else None
    if declared is None:
        declared = target.get("type")
    types = {declared} if isinstance(declared, str) else set(declared or [])
    for key in ("oneOf", "anyOf"):
        for sub in schema.get(key) or []:
            sub_type = spec.deref(sub).get("type")
            types |= {sub_type} if isinstance(sub_type, str) else set(sub_type or [])
    return types, target


MAP_OF_STRINGS = "Map<String,String>"


def type_matches(spec: Spec, doc_type: str, schema: JSON) -> bool:
    types, target = schema_types(spec, schema)
    if doc_type == "String":
        return "string" in types
    if doc_type == "Long":
        return "integer" in types and target.get("format", schema.get("format")) == "int64"
    if doc_type == "Integer":
        return "integer" in types
    if doc_type == "Boolean":
        return "boolean" in types
    if doc_type == MAP_OF_STRINGS:
        extra = spec.deref(target.get("additionalProperties") or {})
        return "object" in types and bool(extra.get("type") == "string")
    if doc_type.startswith("Array"):
        if "array" not in types:
            return False
        items = spec.deref(schema.get("items") or target.get("items") or {})
        if doc_type == "Array of strings":
            return bool(items.get("type") == "string")
        if doc_type == "Array<Array<Integer>>":
            inner = spec.deref(items.get("items") or {})
            return bool(items.get("type") == "array" and inner.get("type") == "integer")
        return bool(items.get("type") == "object")
    if doc_type.endswith(" object"):
        return "object" in types
    raise AssertionError(f"inventory type {doc_type!r} has no rule")


TYPE_KINDS = frozenset({"type", "name", "nullable"})
MANDATORY_KINDS = frozenset({"mandatory", "required-response"})


def covering_entries(
    ledger: tuple[LedgerEntry, ...], kinds: frozenset[str], *pointers: str
) -> list[str]:
    """Ids of the ledger entries of one of ``kinds`` that point at one of ``pointers``."""
    wanted = {p.removeprefix("#") for p in pointers}
    return [e.id for e in ledger if e.kind in kinds and e.pointer in wanted]


def renamed_in_ledger(ledger: tuple[LedgerEntry, ...], parent_pointer: str, token: str) -> bool:
    """A field the spec spells differently is covered by a ``name`` entry quoting its old name."""
    return any(
        entry.kind == "name"
        and (entry.pointer or "").startswith(parent_pointer + "/properties/")
        and any(token in str(source.says) for source in entry.sources)
        for entry in ledger
    )


def completeness_problems(spec: Spec, ledger: tuple[LedgerEntry, ...]) -> list[str]:
    problems = []
    for field in INVENTORY:
        seeds = sorted(field.sources)
        where = f"{field.operation} {field.location} {field.path} ({field.type}, seeds {seeds})"
        if field.location == "path":
            params = {p.name: p for p in spec.operation(field.operation).parameters}
            param = params.get(field.path)
            if param is None or param.location != "path" or not param.required:
                problems.append(f"{where}: no required path parameter")
            elif field.type == "String" and param.schema.get("type") != "string":
                problems.append(f"{where}: path parameter is not a string")
            continue
        resolved = resolve_field(spec, field)
        if resolved is None:
            parent_path = field.path.rsplit(".", 1)
            parent = (
                resolve_field(spec, field._replace(path=parent_path[0]))
                if len(parent_path) == 2
                else None
            )
            parent_pointer = (
                follow(spec, parent.schema, parent.pointer)[1]
                if parent is not None
                else body_schema(spec, field)[1]
            )
            if not renamed_in_ledger(ledger, parent_pointer, parent_path[-1]):
                problems.append(f"{where}: not in the spec")
            continue
        target_pointer = follow(spec, resolved.schema, resolved.pointer)[1]
        if not type_matches(spec, field.type, resolved.schema) and not covering_entries(
            ledger, TYPE_KINDS, resolved.pointer, target_pointer
        ):
            problems.append(f"{where}: the spec has {resolved.schema!r} at {resolved.pointer}")
        if not (
            resolved.schema.get("description") or spec.deref(resolved.schema).get("description")
        ):
            problems.append(f"{where}: no description")
        if field.location == "request" and field.mandatory is not None:
            required = field.path.rsplit(".", 1)[-1] in (resolved.parent.get("required") or [])
            if required != (field.mandatory == "Yes") and not covering_entries(
                ledger, MANDATORY_KINDS, resolved.pointer, resolved.parent_pointer
            ):
                problems.append(
                    f"{where}: Mandatory {field.mandatory} but required={required}"
                    f" at {resolved.parent_pointer}"
                )
    return problems


def test_every_documented_field_is_in_the_spec(spec: Spec, ledger: Ledger) -> None:
    assert len(INVENTORY) > 800
    assert {f.operation for f in INVENTORY} == OPERATION_IDS
    assert completeness_problems(spec, ledger.entries) == []


def test_completeness_check_catches_breakage(spec: Spec, ledger: Ledger) -> None:
    entries = ledger.entries

    def drop_property(node: JSON) -> None:
        del node["properties"]["exit_code"]

    dropped = broken(spec, "/components/schemas/TaskStatuses", drop_property)
    assert any(
        "task_statuses.exit_code" in p and "not in the spec" in p
        for p in completeness_problems(dropped, entries)
    )

    retyped = broken(
        spec, "/components/schemas/Cpu/properties/core_num", lambda n: n.update(type="string")
    )
    assert any("cpu.core_num" in p for p in completeness_problems(retyped, entries))

    optional = broken(spec, "/components/schemas/JobMetadata", lambda n: n.update(required=[]))
    assert any(
        "metadata.name" in p and "Mandatory Yes" in p
        for p in completeness_problems(optional, entries)
    )

    # A disagreement the ledger records is accepted only while the ledger records it.
    without = tuple(e for e in entries if e.id != "status-start-time-type")
    assert any("status.start_time (String" in p for p in completeness_problems(spec, without))


# --------------------------------------------------------------------------- the docs parser

# Fields the explicit inventory takes from a table the page prints elsewhere: seed 004's request
# references log_export_path but prints its table only in the response section. The parser
# reports the reference as unresolved instead of borrowing the table.
BORROWED_BY_THE_INVENTORY = {
    ("004", "request", "spec.log_export_path.obs_url"),
    ("004", "request", "spec.log_export_path.host_path"),
}


@pytest.fixture(scope="module")
def parsed_pages() -> dict[str, Inventory]:
    return {number: extract_page(SEEDS_DIR / seed) for number, seed in SEED_FILES.items()}


def parser_fields(page: Inventory) -> set[tuple[str, str, str, str | None]]:
    fields = set()
    for entry in page.fields:
        is_error = entry.side == "response" and entry.status is not None and entry.status >= 400
        side = "error" if is_error else entry.side
        fields.add((side, normalise_field(entry.path), entry.field.type, entry.field.mandatory))
    return fields


def test_documentation_parser_agrees_with_the_inventory(parsed_pages: dict[str, Inventory]) -> None:
    """Two independent readings of the pages (the parser, the hand-checked inventory) agree."""
    for number, page in parsed_pages.items():
        ours = {(f.location, f.path, f.type, f.mandatory) for f in INVENTORY if number in f.sources}
        theirs = parser_fields(page)
        assert theirs - ours == set(), number
        borrowed = {(number, side, path) for side, path, _, _ in ours - theirs}
        assert borrowed <= BORROWED_BY_THE_INVENTORY, number


def test_docs_diff_finds_every_disagreement_reconciled(
    spec: Spec, parsed_pages: dict[str, Inventory], tmp_path: Path
) -> None:
    pages = list(parsed_pages.values())
    report = compare(pages, None, load_decisions(None, None))
    unreconciled = [f for op in report.operations for f in op.findings]
    assert unreconciled == []
    assert report.unmatched_pages == []
    assert sum(len(op.reconciled) for op in report.operations) > 100

    # Without its ledger entry, the start_time disagreement is drift again.
    ledger_copy = tmp_path / "ledger.yaml"
    entries = [e for e in read_ledger().raw if e["id"] != "status-start-time-type"]
    ledger_copy.write_text(dump_yaml({"entries": entries}), encoding="utf-8")
    report = compare(pages, None, load_decisions(ledger_copy, None))
    fields = {(f.kind, f.field) for op in report.operations for f in op.findings}
    assert ("type", "status.start_time") in fields

    # A spec that loses a documented field drifts, whatever the ledger says.
    document = copy.deepcopy(spec.document)
    del document["components"]["schemas"]["Status"]["properties"]["duration"]
    spec_copy = tmp_path / "spec" / "openapi.yaml"
    spec_copy.parent.mkdir()
    spec_copy.write_text(dump_yaml(document), encoding="utf-8")
    report = compare(pages, spec_copy, load_decisions(LEDGER_PATH, spec_copy))
    assert any(f.field == "status.duration" for op in report.operations for f in op.findings)


# --------------------------------------------------------------------------- honest responses


def response_schemas(spec: Spec) -> Iterator[tuple[str, JSON]]:
    """Every schema reachable from a response body, once, with its pointer."""
    seen: set[str] = set()
    pending: list[tuple[str, JSON]] = []
    for op in spec.operations:
        for response in op.responses:
            if response.schema is not None:
                pending.append(
                    (f"{response.pointer}/content/application~1json/schema", response.schema)
                )
    while pending:
        pointer, node = pending.pop()
        if isinstance(node, Mapping) and "$ref" in node:
            pointer = str(node["$ref"]).removeprefix("#")
            node = spec.at(pointer)
        if pointer in seen or not isinstance(node, Mapping):
            continue
        seen.add(pointer)
        yield pointer, node
        for key in ("items", "additionalProperties", "not"):
            if isinstance(node.get(key), Mapping):
                pending.append((f"{pointer}/{key}", node[key]))
        for key in ("oneOf", "anyOf", "allOf"):
            for index, sub in enumerate(node.get(key) or []):
                pending.append((f"{pointer}/{key}/{index}", sub))
        for name, sub in (node.get("properties") or {}).items():
            pending.append((f"{pointer}/properties/{name}", sub))


def closed_response_objects(spec: Spec) -> list[str]:
    return [p for p, node in response_schemas(spec) if node.get("additionalProperties") is False]


def test_response_objects_tolerate_unknown_members(spec: Spec) -> None:
    assert sum(1 for _ in response_schemas(spec)) > 100
    assert closed_response_objects(spec) == []
    closed = broken(spec, "/components/schemas/Cpu", lambda n: n.update(additionalProperties=False))
    assert closed_response_objects(closed) == ["/components/schemas/Cpu"]


def unjustified_required(spec: Spec, ledger: Ledger) -> list[str]:
    justified = {
        (entry.pointer, name)
        for entry in ledger.entries
        if entry.kind == "required-response"
        for name in (entry.expect or {}).get("required", [])
    }
    # Only object schemas declare fields; the required lists inside anyOf/not clauses
    # (InputDataInfo: dataset or obs) are choices, recorded as constraint entries.
    return [
        f"{pointer}: {name}"
        for pointer, node in response_schemas(spec)
        if "properties" in node
        for name in node.get("required") or []
        if (pointer, name) not in justified
    ]


def test_required_response_fields_are_required_and_justified(spec: Spec, ledger: Ledger) -> None:
    body = spec.deref(spec.operation(SHOW).success.schema)
    metadata = spec.deref(body["properties"]["metadata"])
    status = spec.deref(body["properties"]["status"])
    assert {"kind", "metadata", "status"} <= set(body["required"])
    assert {"id", "name", "create_time"} <= set(metadata["required"])
    assert "phase" in status["required"]
    for op in spec.operations:  # one job body answers the three job operations of the seeds
        if op.operation_id in OPERATION_IDS:
            assert op.success.schema == spec.operation(SHOW).success.schema
    assert unjustified_required(spec, ledger) == []
    stricter = broken(spec, "/components/schemas/Cpu", lambda n: n.update(required=["arch"]))
    assert unjustified_required(stricter, ledger) == ["/components/schemas/Cpu: arch"]


def test_fields_shown_as_null_are_nullable(spec: Spec) -> None:
    status = spec.at("/components/schemas/Status/properties/node_count_metrics")
    assert "null" in status["type"]
    parameter = spec.at("/components/schemas/Parameter/properties/i18n_description")
    assert {"type": "null"}.items() <= parameter["oneOf"][1].items()


# --------------------------------------------------------------------------- constraints


def request_errors(spec: Spec, operation_id: str, body: JSON) -> list[str]:
    schema = spec.operation(operation_id).request_schema
    return [error.message for error in spec.validator(schema).iter_errors(body)]


def minimal_job(**algorithm: JSON) -> JSON:
    job: dict[str, JSON] = {
        "kind": "job",
        "metadata": {"name": "job-1"},
        "spec": {"resource": {"flavor_id": "modelarts.p3.large.public.free", "node_count": 1}},
    }
    if algorithm:
        job["algorithm"] = algorithm
    return job


@pytest.mark.parametrize(
    ("body", "valid"),
    [
        (minimal_job(), True),
        (minimal_job(id="a"), True),
        (minimal_job(subscription_id="s", item_version_id="v"), True),
        (minimal_job(code_dir="/c/", boot_file="/c/b.py"), True),
        (minimal_job(engine={"image_url": "org/img:1"}, command="sh run.sh"), True),
        (minimal_job(subscription_id="s"), False),
        (minimal_job(code_dir="/c/"), False),
        (minimal_job(id="a", code_dir="/c/", boot_file="/c/b.py"), False),
        (minimal_job(id="a", subscription_id="s", item_version_id="v"), False),
        (minimal_job(engine={"engine_id": "e", "engine_name": "n", "engine_version": "v"}), False),
        (minimal_job(engine={"engine_name": "n"}), False),
        (minimal_job(engine={"engine_name": "n", "engine_version": "v", "image_url": "i"}), True),
        ({**minimal_job(), "metadata": {"name": "bad name!"}}, False),
        ({**minimal_job(), "metadata": {"name": "x" * 65}}, False),
        ({**minimal_job(), "metadata": {"name": "x" * 64, "description": "d" * 257}}, False),
        ({**minimal_job(), "spec": {"resource": {"node_count": 1}}}, False),
        ({**minimal_job(), "spec": {"resource": {"pool_id": "p", "node_count": 0}}}, False),
        ({**minimal_job(), "spec": {"resource": {"pool_id": "p"}}}, True),
        ({**minimal_job(), "tasks": []}, False),
        ({"metadata": {"name": "job-1"}}, False),
    ],
)
def test_create_request_constraints(spec: Spec, body: JSON, valid: bool) -> None:
    errors = request_errors(spec, CREATE, body)
    assert (errors == []) is valid, errors


def test_stop_request_accepts_only_terminate(spec: Spec) -> None:
    assert request_errors(spec, STOP, {"action_type": "terminate"}) == []
    assert request_errors(spec, STOP, {"action_type": "restart"})
    assert request_errors(spec, STOP, {})
    assert request_errors(spec, STOP, {"action_type": "terminate", "force": True})


# --------------------------------------------------------------------------- errors, auth, links


ERROR_CODE = re.compile(r"^ModelArts\.\d{4}$")


def error_codes_by_status(spec: Spec, operation_id: str) -> dict[str, set[str]]:
    codes: dict[str, set[str]] = {}
    for response in spec.operation(operation_id).responses:
        if response.status.startswith("2"):
            continue
        content = spec.deref(spec.at(response.pointer))["content"]["application/json"]
        assert spec.deref(content["schema"])["required"] == ["error_code", "error_msg"]
        codes[response.status] = {
            spec.deref(example)["value"]["error_code"] for example in content["examples"].values()
        }
    return codes


def test_error_responses_as_the_service_sends_them(spec: Spec) -> None:
    create, show, stop = (error_codes_by_status(spec, op) for op in (CREATE, SHOW, STOP))
    assert set(show) == {"400", "401", "403", "404", "429", "500", "503"}
    assert set(create) == set(show) | {"413"}  # a body can be too large
    assert set(stop) == set(create) | {"409"}
    for codes in (create, stop):
        assert codes["413"] == {"ModelArts.4104"}  # the vendor's 413 (reference/error_codes.rst)
    for codes in (create, show, stop):
        assert codes["503"] == {"ModelArts.4302", "ModelArts.4700"}  # the vendor's 503 codes
    assert {"ModelArts.2787", "ModelArts.2788", "ModelArts.2751"} <= create["400"]
    assert "ModelArts.2775" in show["400"]
    assert {"ModelArts.2775", "ModelArts.2812", "ModelArts.2787"} <= stop["400"]
    assert stop["409"] == {"ModelArts.2796"}
    assert show["404"] == {"ModelArts.2786"}
    assert "ModelArts.2784" in show["403"]
    for codes in (create, show, stop):
        assert all(ERROR_CODE.match(code) for group in codes.values() for code in group)
        assert codes["429"] == {"ModelArts.2799"}
    for op in spec.operations:
        too_many = op.response_for(429)
        assert too_many is not None
        assert "Retry-After" in too_many.headers


def test_security_schemes(spec: Spec) -> None:
    schemes = spec.document["components"]["securitySchemes"]
    assert schemes["token"] == {
        **schemes["token"],
        "type": "apiKey",
        "in": "header",
        "name": "X-Auth-Token",
    }
    assert schemes["aksk"] == {
        **schemes["aksk"],
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
    }
    for needle in ("SDK-HMAC-SHA256", "X-Sdk-Date", "Host", "X-Project-Id"):
        assert needle in schemes["aksk"]["description"]
    for op in spec.operations:
        assert spec.at(op.pointer)["security"] == [{"token": []}, {"aksk": []}]


def test_links_chain_create_to_every_operation_on_the_job(spec: Spec) -> None:
    """Create's answer links to every operation that takes the job id (issue 35): each path
    parameter from the request's project, the answer's job id, or the answer's first task
    (`status.tasks`, where the pages say task ids come from)."""
    created = spec.at(spec.operation(CREATE).success.pointer)["links"]
    shown = spec.at(spec.operation(SHOW).success.pointer)["links"]
    on_a_job = {
        op.operation_id
        for op in spec.operations
        if "training_job_id" in {p.name for p in op.parameters if p.location == "path"}
    }
    assert len(on_a_job) == 8
    assert {link["operationId"] for link in created.values()} == on_a_job
    sources = {
        "project_id": "$request.path.project_id",
        "training_job_id": "$response.body#/metadata/id",
        "task_id": "$response.body#/status/tasks/0",
    }
    for link in [*created.values(), *shown.values()]:
        target = spec.operation(link["operationId"])
        path_names = {p.name for p in target.parameters if p.location == "path"}
        assert set(link["parameters"]) == path_names, link["operationId"]
        assert link["parameters"] == {name: sources[name] for name in path_names}
    assert {link["operationId"] for link in shown.values()} == {STOP}
