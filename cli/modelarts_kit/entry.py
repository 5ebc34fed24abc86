"""The ``modelarts-kit`` console script (and ``python -m modelarts_kit``).

``modelarts-kit generate --check``, the command CI and ``scripts/check`` run, is answered
here from the generation manifest when the output is up to date, before click and the
command tree are imported (about a third of the process's own cost): the answer, its
output and its exit code are those of the ``generate`` command, which handles every
other case (a stale or missing manifest, any other option, an unreadable spec) exactly
as before. Every other command line goes straight to :data:`modelarts_kit.main.cli`.

At the process's exit, its objects are frozen out of the cyclic collector first: the
interpreter's exit runs one last full collection, which walks every object still alive for
nothing (the process is ending; its memory goes back whole). After a default
``contract server`` run that pass cost about 0.3 s of CPU. A caller that runs :func:`main`
in its own process (a test) is unchanged until that process exits.
"""

from __future__ import annotations

import atexit
import gc
import sys

__all__ = ["main"]


def main() -> None:
    atexit.unregister(gc.freeze)  # registered once, however often main runs in one process
    atexit.register(gc.freeze)  # the exit's last full collection would walk every object
    if sys.argv[1:] == ["generate", "--check"]:
        from modelarts_kit_generator.pipeline import default_output, up_to_date
        from modelarts_kit_wire.errors import KitError

        target = default_output()
        try:
            current = up_to_date(target)
        except KitError:
            current = False  # the command itself reports it, with its exit code
        if current:
            sys.stdout.write(up_to_date_message(target.name))
            raise SystemExit(0)
    from modelarts_kit.main import cli

    cli()


def up_to_date_message(name: str) -> str:
    """What ``generate --check`` prints when the output is up to date (both paths)."""
    return f"{name}/ is up to date.\n"
