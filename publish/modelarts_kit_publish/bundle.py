"""Bundle the spec into single ``openapi.yaml`` / ``openapi.json`` files, deterministically."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml
from modelarts_kit_spec.load import JSON, parse_yaml_text
from modelarts_kit_spec.validate import RULES, validate_document

from modelarts_kit_publish.errors import InvalidBundleError

__all__ = ["Bundle", "bundle_document", "content_digest"]

BUNDLE_RULES = ("openapi", "ref-resolves")


@dataclass(frozen=True)
class Bundle:
    document: JSON
    yaml_text: str
    json_text: str
    sha256: str  # of json_text: the identity of a published version

    @property
    def version(self) -> str:
        return str(self.document.get("info", {}).get("version", ""))


def content_digest(document: JSON) -> str:
    """SHA-256 of the canonical JSON form (key order as in the source, so formatting-free)."""
    return hashlib.sha256(_json_text(document).encode("utf-8")).hexdigest()


def _json_text(document: JSON) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _external_refs(node: JSON, pointer: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, Mapping):
        ref = node.get("$ref")
        if isinstance(ref, str) and not ref.startswith("#"):
            yield pointer, ref
        for key, value in node.items():
            yield from _external_refs(value, f"{pointer}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _external_refs(value, f"{pointer}/{index}")


def bundle_document(document: JSON, source: Path) -> Bundle:
    """Serialise ``document`` (already one file, local refs only) and validate the result.

    The bundle is re-parsed from its own YAML text and checked with openapi-spec-validator,
    so what is published is exactly what was validated.
    """
    external = list(_external_refs(document))
    if external:
        where, ref = external[0]
        raise InvalidBundleError(
            f"{source}{where}: external $ref {ref!r}; the curated spec must be one self-contained "
            f"file ({len(external)} external ref(s))"
        )
    yaml_text = yaml.safe_dump(
        document, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False
    )
    # Read back by the kit's one reader (libyaml's parser: PyYAML's pure-Python one took
    # about 0.4 s of every publish for the same values).
    reparsed = parse_yaml_text(yaml_text, str(source))
    json_text = _json_text(reparsed)
    rules = [r for r in RULES if r.id in BUNDLE_RULES]
    findings = validate_document(reparsed, path=source, ledger=None, rules=rules)
    if findings:
        raise InvalidBundleError(
            f"{source}: the bundled spec is not valid OpenAPI ({len(findings)} problem(s); "
            f"the first: {findings[0]}); 'modelarts-kit spec validate --spec {source}' lists them"
        )
    digest = hashlib.sha256(json_text.encode("utf-8")).hexdigest()
    return Bundle(document=reparsed, yaml_text=yaml_text, json_text=json_text, sha256=digest)
