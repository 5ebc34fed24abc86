"""Body synthesis: valid request bodies the scenarios send, and the edits they make to them."""

from __future__ import annotations

import json
import random
import string
import uuid
from collections.abc import Iterator, Mapping

from modelarts_kit_spec import Spec
from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.core.envelopes import Placement
from modelarts_kit_contracts.server.api_map import JSON, ApiMap
from modelarts_kit_contracts.server.probe import Probe


def _unique_name(prefix: str = "contract") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def minimal_instance(spec: Spec, schema: JSON) -> JSON:
    """The smallest instance of ``schema``: required properties only, first enum value."""
    if not isinstance(spec.walker.deref(schema)[0], Mapping):
        return None
    schema = spec.walker.view(schema).schema  # $ref followed, allOf merged
    if "enum" in schema:
        return schema["enum"][0]
    if "default" in schema:
        return json.loads(json.dumps(schema["default"]))
    kind = schema.get("type")
    kind = next((k for k in kind if k != "null"), None) if isinstance(kind, list) else kind
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties") or {}
        return {
            name: minimal_instance(spec, properties.get(name, {}))
            for name in schema.get("required") or []
        }
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return schema.get("minimum", 1)
    if kind == "boolean":
        return False
    return "contract"


def job_templates(api: ApiMap) -> Iterator[JSON]:
    """Bodies to create jobs from: the spec's examples, then its minimal valid body."""
    op = api.create
    media = api.spec.deref(api.spec.at(op.pointer + "/requestBody"))["content"]["application/json"]
    for example in (media.get("examples") or {}).values():
        example = api.spec.deref(example)
        if "value" in example:
            yield example["value"]
    yield minimal_instance(api.spec, op.request_schema)


def new_job_body(probe: Probe) -> JSON:
    """A fresh job body (unique name) from the first template the server accepts.

    The choice is made once per probe: a template the server refuses is reported by the
    schemathesis phases (the examples phase sends every spec example), so the scenarios can
    still test the lifecycle with a body the server takes.
    """
    template = probe.state.get("job_template")
    if template is None:
        template = next(iter(job_templates(probe.api)))
        for candidate in () if probe.read_only else job_templates(probe.api):
            body = json.loads(json.dumps(candidate))
            body.setdefault("metadata", {})["name"] = _unique_name()
            response = probe.send(Role.CREATE, body=body)
            if response.status == int(probe.api.create.success.status):
                template = candidate
                break
        probe.state["job_template"] = template
    body = json.loads(json.dumps(template))
    body.setdefault("metadata", {})["name"] = _unique_name()
    return body


NAME_ALPHABET = string.ascii_letters + string.digits + "_-"
# Non-ASCII text of every width: Latin-1, CJK, an astral-plane character, a combining mark.
DESCRIPTION_TEXT = " Ünïcödé 训练作业 — \U0001d510odelArts e\u0301 ✓ "
# Valid but unusual keys: lower case, mixed, dots, leading underscore, digits first.
UNUSUAL_ENV_KEYS = ("lower_case", "MiXeD-Key.v2", "_LEADING", "9DIGIT_FIRST", "a")
UNUSUAL_PARAMETER_NAMES = ("Lr-Rate_2", "x", "UPPER.case", "名字")


def _string_rule(api: ApiMap, *path: str) -> Mapping[str, JSON]:
    """The (resolved) schema of a string property of the create body, or {}."""
    found = api.spec.walker.at_path(api.create.request_schema, ".".join(path))
    return found.schema if found is not None else {}


def echo_values(api: ApiMap, rng: random.Random) -> list[dict[str, JSON]]:
    """Values drawn over the whole space the spec allows, for the echo check.

    Two bodies' worth: a name of the maximum length in mixed case with digits, ``_`` and ``-``
    and a non-ASCII description of exactly the maximum length (starting and ending with a
    space), unusual parameter names and environment keys; then a one-character name with an
    empty description. A server that trims, re-cases, truncates or normalises what it stores
    returns something else.
    """
    name_rule = _string_rule(api, "metadata", "name")
    description_rule = _string_rule(api, "metadata", "description")
    longest = int(name_rule.get("maxLength", 64))
    shortest = max(1, int(name_rule.get("minLength", 1)))
    described = int(description_rule.get("maxLength", 256))
    mandatory = "aZ9_-"  # every class of the alphabet, in mixed case
    tail = "".join(rng.choice(NAME_ALPHABET) for _ in range(longest - len(mandatory)))
    long_name = "".join(rng.sample(mandatory, len(mandatory))) + tail
    text = (DESCRIPTION_TEXT * (described // len(DESCRIPTION_TEXT) + 1))[:described]
    description = " " + text[1:-1] + " "
    parameters = [
        {"name": name, "value": f" {rng.choice(NAME_ALPHABET)}Value {index} "}
        for index, name in enumerate(UNUSUAL_PARAMETER_NAMES)
    ]
    environments = {key: f"Value-{rng.randrange(10**6)} " for key in UNUSUAL_ENV_KEYS}
    short_name = "".join(rng.choice(NAME_ALPHABET) for _ in range(shortest))
    return [
        {
            "metadata": {"name": long_name, "description": description},
            "algorithm": {"parameters": parameters, "environments": environments},
        },
        {"metadata": {"name": short_name, "description": ""}},
    ]


def merge_json(base: JSON, extra: Mapping[str, JSON]) -> JSON:
    merged = json.loads(json.dumps(base))
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), dict):
            merged[key] = merge_json(merged[key], value)
        else:
            merged[key] = value
    return merged


def must_accept_body(probe: Probe, extra: Mapping[str, JSON]) -> JSON:
    """A job body with ``extra`` merged in that every correct server accepts (None: none).

    The server's own template first, then the spec's examples and its minimal body (an
    example may hold what only examples show, which a server may refuse); ``extra`` whole,
    then its metadata alone.
    """
    api = probe.api
    create_id = api.create.operation_id
    templates = [new_job_body(probe), *job_templates(api)]
    for template in templates:
        for part in (extra, {"metadata": extra.get("metadata", {})}):
            body = merge_json(template, part)
            if api.envelopes.place(create_id, body) is Placement.MUST_ACCEPT:
                return body
    return None


def at_pointer(document: JSON, pointer: str) -> JSON:
    for token in pointer.strip("/").split("/") if pointer.strip("/") else []:
        document = document[int(token)] if isinstance(document, list) else document[token]
    return document


def merge_at(
    spec: Spec, schema: JSON, document: JSON, path: tuple[str, ...], fields: Mapping[str, JSON]
) -> None:
    for name, value in fields.items():
        set_path(spec, schema, document, (*path, name), value)


def set_path(spec: Spec, schema: JSON, document: JSON, path: tuple[str, ...], value: JSON) -> None:
    node, view = document, spec.walker.view(schema)
    for key in path[:-1]:
        child = spec.walker.property(view, key) or spec.walker.view({})
        if not isinstance(node.get(key), dict):
            node[key] = minimal_instance(spec, child.schema) or {}
        node, view = node[key], child
    node[path[-1]] = value


MISSING = object()


def has_path(document: JSON, path: tuple[str, ...]) -> bool:
    node = document
    for key in path:
        if not isinstance(node, Mapping) or key not in node:
            return False
        node = node[key]
    return True


def drop_path(document: JSON, path: tuple[str, ...]) -> None:
    node = document
    for key in path[:-1]:
        node = node[key]
    node.pop(path[-1], None)
