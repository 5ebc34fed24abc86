"""What the tests of ``docs update`` share: a repository-shaped copy's paths and files, the
command run in-process, and the results of updates that several tests start from."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner, Result
from modelarts_kit.main import cli
from modelarts_kit_spec.load import read_yaml

from .support import SEEDS_DIR


def root_of(spec: Path) -> Path:
    return spec.parents[2]


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def write_page(folder: Path, name: str, text: str) -> Path:
    page = folder / name
    page.write_text(text, encoding="utf-8")
    return page


def update(spec: Path, *pages: Path, dry_run: bool = False) -> Result:
    args = ["docs", "update", *map(str, pages), "--spec", str(spec)]
    return CliRunner().invoke(cli, [*args, *(["--dry-run"] if dry_run else [])])


def docs_diff_exit(spec: Path, *pages: Path) -> int:
    return (
        CliRunner().invoke(cli, ["docs", "diff", *map(str, pages), "--spec", str(spec)]).exit_code
    )


def todo_ids(spec: Path) -> list[str]:
    entries = read_yaml(spec.parent / "ledger.yaml")["entries"]
    return [e["id"] for e in entries if e["decision"] == "TODO"]


def api_of(spec: Path) -> object:
    """The spec without its version and schema model (the quotes an update refreshes)."""
    document = dict(read_yaml(spec))
    document.pop("x-modelarts-schema-model", None)
    document["info"] = {k: v for k, v in document["info"].items() if k != "version"}
    return document


def seed_path_bytes(name: str) -> bytes:
    return (SEEDS_DIR / name).read_bytes()


def seeds(spec: Path) -> Path:
    return root_of(spec) / "spec" / "sources" / "seeds"


@dataclass(frozen=True)
class Additive:
    """One additive update (a new optional request field) of a fresh copy, run once for the
    tests that read it (none writes): what each step gave, and the trees around the second
    run. Copied and updated per test before: about 3 s of CPU each."""

    repo: Path
    page: Path
    old_version: str
    stored_pages_settled_before: int  # docs diff's exit on every stored page, before
    result: Result
    again: Result
    before_again: dict[str, bytes]
    after_again: dict[str, bytes]


@dataclass(frozen=True)
class FirstUpdate:
    """A fresh copy after one update with an edited page, and the same update again: the copy
    to start from (each test copies it, since they write), the page, the API before, what
    each update said, and the trees around the second."""

    root: Path
    page: Path
    spec_before: object
    result: Result
    second: Result
    before_second: dict[str, bytes]
    after_second: dict[str, bytes]

    def copy_to(self, folder: Path) -> Path:
        """The spec of a copy of the updated tree under ``folder``."""
        shutil.copytree(self.root, folder / "repo")
        return folder / "repo" / "spec" / "modelarts_kit_spec" / "openapi.yaml"
