"""Derive the spec's ``x-modelarts-schema-model`` extension and write it into openapi.yaml.

One-off derivation (re-run it after the ledger or the page inventory changes):

- ``rules``: the rules that are not ``documented``, from the ledger where it already says so
  (``kind: guidance`` entries, ``sdk-added-*`` and ``*-example`` presence entries, ``nullable``
  entries; :func:`modelarts_kit_spec.schemamodel.extension.ledger_rule` is the mapping);
- ``pages``: per property and per object, the page tables that state the field (or the
  object's fields), from the field-by-field
  inventories of the pages (``tests/spec/inventory_of_*.yaml``, each cross-checked against
  the vendordocs extractor).

The extension is the last top-level key of openapi.yaml; the block is emitted by the YAML
emitter and replaces the previous one (the rest of the curated file is kept byte for byte).

    python scripts/derive_schema_model.py [--check]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from modelarts_kit_spec import load_spec, read_ledger
from modelarts_kit_spec.load import Spec, pointer_join, read_yaml
from modelarts_kit_spec.paths import SPEC_PATH
from modelarts_kit_spec.schemamodel.extension import EXTENSION_KEY, ledger_rule

ROOT = Path(__file__).resolve().parents[1]
# The field inventories of the pages: the seeds' and one per group of later pages, each
# naming its folder of spec/sources (``folder:``, default ``seeds``).
INVENTORIES = sorted((ROOT / "tests" / "spec").glob("inventory_of_*.yaml"))
JSON = Any
# Rules outside the request and response bodies the inventory covers, and the page that
# states them.
PAGES_BEYOND_THE_INVENTORY = {
    "/components/headers/Retry-After": ["reference/status_code.rst: Table 1 Status codes"],
}


def derive_rules() -> dict[str, dict[str, dict[str, JSON]]]:
    rules: dict[str, dict[str, dict[str, JSON]]] = {}
    for entry in read_ledger().entries:
        for keyword, strength in ledger_rule(entry.kind, entry.id, entry.expect):
            at = rules.setdefault(entry.pointer or "", {})
            rule = at.setdefault(keyword, {"strength": strength, "ledger": []})
            rule["ledger"].append(entry.id)
            for source in entry.sources:
                if source.sdk is not None:
                    models = rule.setdefault("sdk", [])
                    text = f"{source.sdk} {source.model}"
                    if text not in models:
                        models.append(text)
    return {pointer: rules[pointer] for pointer in sorted(rules)}


def _roots(spec: Spec, operation_id: str, at: str) -> tuple[JSON, str] | None:
    op = spec.operation(operation_id)
    media = pointer_join("", "content", "application/json", "schema")
    if at == "request" and op.request_schema is not None:
        return op.request_schema, pointer_join(op.pointer, "requestBody") + media
    if at == "response":
        return op.success.schema, op.success.pointer + media
    if at == "error":
        for response in op.responses:
            if response.status.startswith("4") and response.schema is not None:
                return response.schema, response.pointer + media
    return None


def _holder(spec: Spec, field: Mapping[str, JSON]) -> str | None:
    """The pointer of the property that declares the field (a parameter for ``path``; the
    array or object node for a field the spec does not name as a property)."""
    if field["at"] == "path":
        parameters = spec.document["components"]["parameters"]
        for name, parameter in parameters.items():
            if parameter.get("name") == field["path"]:
                return pointer_join("/components/parameters", name)
        return None
    if field["at"] in ("query", "header"):
        return _operation_parameter(spec, str(field["op"]), str(field["path"]))
    roots = _roots(spec, str(field["op"]), str(field["at"]))
    if roots is None:
        return None
    *parents, name = str(field["path"]).split(".")
    view = spec.walker.view(roots[0], roots[1], alternatives=True)
    for token in [*parents, name]:
        while view.items is not None and token not in view.properties:
            items = pointer_join(view.pointer, "items")
            view = spec.walker.view(view.items, items, alternatives=True)
        if token == name:
            break
        if token not in view.properties:
            return None
        pointer = view.property_pointers.get(token, "")
        view = spec.walker.view(view.properties[token], pointer, alternatives=True)
    return view.property_pointers.get(name) or view.pointer or None


def _operation_parameter(spec: Spec, operation_id: str, name: str) -> str | None:
    """The pointer of an operation's own parameter named ``name``, wherever the spec puts it
    (a page's header may be the spec's query parameter: the ledger says why)."""
    op = spec.operation(operation_id)
    for index, parameter in enumerate(spec.at(op.pointer).get("parameters", [])):
        if isinstance(parameter, Mapping) and parameter.get("name") == name:
            return pointer_join(op.pointer, "parameters", str(index))
    return None


def _tables_of(holder: str) -> list[str]:
    """Where a field's tables count: at its property (every rule of the field) and at the
    object holding it (the object's own rules: ``required``, closing, choose-one)."""
    if "/properties/" not in holder:
        return [holder]
    return [holder, holder.rsplit("/properties/", 1)[0]]


def derive_pages(spec: Spec) -> tuple[dict[str, list[str]], list[str]]:
    pages: dict[str, list[str]] = {}
    missed: list[str] = []
    for path in INVENTORIES:
        inventory = read_yaml(path)
        folder = inventory.get("folder", "seeds")
        files = inventory["seeds"]
        for field in inventory["fields"]:
            holder = _holder(spec, field)
            if holder is None:
                missed.append(f"{field['op']} {field['at']} {field['path']}")
                continue
            for pointer in _tables_of(holder):
                tables = pages.setdefault(pointer, [])
                for seed, table in field["sources"].items():
                    text = f"{folder}/{files[seed]}: {table}"
                    if text not in tables:
                        tables.append(text)
    for pointer, tables in list(pages.items()):
        target = _referenced(spec, pointer)
        if target is not None and target not in pages:
            pages[target] = tables  # no row inside it: the row "X object" states its type
    for pointer, tables in PAGES_BEYOND_THE_INVENTORY.items():
        pages.setdefault(pointer, []).extend(tables)
    return {pointer: sorted(pages[pointer]) for pointer in sorted(pages)}, missed


def _referenced(spec: Spec, pointer: str) -> str | None:
    """The component a property refers to (directly or as its items), if any."""
    if "/properties/" not in pointer:
        return None
    node = spec.at(pointer)
    if isinstance(node, Mapping) and isinstance(node.get("items"), Mapping):
        node = node["items"]
    ref = node.get("$ref") if isinstance(node, Mapping) else None
    return ref.removeprefix("#") if isinstance(ref, str) and ref.startswith("#/") else None


def render(extension: JSON) -> str:
    return yaml.safe_dump(
        {EXTENSION_KEY: extension},
        sort_keys=False,
        default_flow_style=None,
        allow_unicode=True,
        width=4096,  # one line per node: the block stays compact
    )


def splice(text: str, block: str) -> str:
    """``text`` with its top-level extension block replaced by (or appended as) ``block``."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, ln in enumerate(lines) if ln.startswith(f"{EXTENSION_KEY}:")), None)
    if start is None:
        return text.rstrip("\n") + "\n" + block
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i][:1] not in (" ", "\n", "")),
        len(lines),
    )
    return "".join(lines[:start]) + block + "".join(lines[end:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if openapi.yaml is stale")
    args = parser.parse_args()
    spec = load_spec()
    pages, missed = derive_pages(spec)
    for field in missed:
        print(f"warning: no schema node for {field}", file=sys.stderr)
    block = render({"rules": derive_rules(), "pages": pages})
    old = SPEC_PATH.read_text(encoding="utf-8")
    new = splice(old, block)
    if args.check:
        return 0 if new == old else 1
    SPEC_PATH.write_text(new, encoding="utf-8")
    print(f"{EXTENSION_KEY}: {len(derive_rules())} annotated nodes, {len(pages)} nodes with pages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
