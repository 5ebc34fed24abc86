"""The pinned development environment: ``dev-constraints.txt``, README's test command, ``.ci/run``.

The lock pins every package the dev extra pulls in (transitive ones too), so main stays green
until someone moves the pins on purpose (``scripts/update-deps``). It must mean the same on every
machine: no paths, no index URLs, and not the two local packages (they install from the clone).
"""

from __future__ import annotations

import re
import shlex
from importlib import metadata

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.cli_support import REPO

LOCK = REPO / "dev-constraints.txt"
LOCAL_PACKAGES = {"modelarts-kit", "modelarts-training-client"}
PIN = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[^\s;]+)(\s*;.+)?$")


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = PIN.match(line)
        assert match, f"dev-constraints.txt: not an exact pin: {line!r}"
        pins[canonicalize_name(match["name"])] = match["version"]
    return pins


def _readme_test_command() -> list[str]:
    """The second command of README's opening ```sh block, as ``.ci/run`` reads it."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = text.split("```sh\n", 1)[1].split("\n```", 1)[0]
    return shlex.split(block.splitlines()[1])


def _dev_closure() -> set[str]:
    """Every distribution the dev extra of the installed kit needs, transitively."""
    seen: set[str] = set()
    pending = [("modelarts-kit", frozenset({"dev"}))]
    while pending:
        name, extras = pending.pop()
        requires = metadata.distribution(name).requires or []
        for text in requires:
            requirement = Requirement(text)
            environments = [{"extra": extra} for extra in extras] or [{"extra": ""}]
            if requirement.marker and not any(
                requirement.marker.evaluate(environment) for environment in environments
            ):
                continue
            key = canonicalize_name(requirement.name)
            if key not in seen:
                seen.add(key)
                pending.append((key, frozenset(requirement.extras)))
    return seen


def test_readme_test_command_installs_under_the_lock() -> None:
    words = _readme_test_command()
    assert words[:4] == ["pip", "install", "-c", LOCK.name], words
    assert "scripts/check" in words


def test_the_lock_pins_exactly_and_names_no_path_index_or_local_package() -> None:
    text = LOCK.read_text(encoding="utf-8")
    assert not re.search(r"^\s*-", text, re.MULTILINE), "an option (-e, --index-url) in the lock"
    assert "file:" not in text
    assert "://" not in text
    pins = _pins()
    assert not LOCAL_PACKAGES & set(pins), "the local packages install from the clone"
    assert len(pins) > 50, pins  # the whole tree, not only the direct dependencies


def test_every_package_the_dev_extra_needs_is_pinned() -> None:
    """Before: no lock; adding a dependency without `scripts/lock-deps` fails here."""
    missing = _dev_closure() - set(_pins()) - LOCAL_PACKAGES
    assert not missing, f"not in dev-constraints.txt (run scripts/lock-deps): {sorted(missing)}"
