"""Derive the spec's ``x-modelarts-schema-model`` extension and write it into openapi.yaml.

A thin wrapper around the library's one derivation,
:func:`modelarts_kit_spec.schemamodel.derive.derive` (the pages in ``spec/sources``, their
field inventories in ``spec/sources/inventories`` and the ledger; ``docs update`` calls the
same function in its transaction). Re-run it after the ledger, the pages or the inventories
change; ``--check`` exits 1 when the committed block is not what the pages and ledger give.

    python scripts/derive_schema_model.py [--check]
"""

from __future__ import annotations

import argparse
import sys

from modelarts_kit_spec import load_spec, read_ledger
from modelarts_kit_spec.paths import SPEC_PATH
from modelarts_kit_spec.schemamodel.derive import derive, render, splice
from modelarts_kit_spec.schemamodel.extension import EXTENSION_KEY


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if openapi.yaml is stale")
    args = parser.parse_args()
    derivation = derive(load_spec().document, read_ledger())
    for problem in derivation.problems:
        print(f"warning: {problem}", file=sys.stderr)
    old = SPEC_PATH.read_text(encoding="utf-8")
    new = splice(old, render(derivation.extension))
    if args.check:
        return 0 if new == old else 1
    SPEC_PATH.write_text(new, encoding="utf-8")
    extension = derivation.extension
    print(
        f"{EXTENSION_KEY}: {len(extension['rules'])} annotated nodes, "
        f"{len(extension.get('values', {}))} enums with values of their own, "
        f"{len(extension['quotes'])} nodes with quotes"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
