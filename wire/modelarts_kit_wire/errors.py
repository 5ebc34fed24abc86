"""The root of every exception the kit raises on bad input: :class:`KitError`.

Each package's own error base subclasses it (``SpecError``, ``VendorDocsError``,
``GenerationError``, ``ServerError``, ``ContractError``, ``PublishError``), so a caller can catch
one class, and the command line maps every one of them to an exit code in one place (the root
group of ``modelarts-kit``): it prints ``error: <message>`` on one line of stderr, no traceback,
and exits with :attr:`KitError.exit_code`.

Exit codes everywhere: 0 success, 1 findings, 2 usage, parse or connection error.
"""

from __future__ import annotations

__all__ = ["EXIT_FINDINGS", "EXIT_OK", "EXIT_USAGE", "FindingsError", "KitError"]

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2


class KitError(Exception):
    """A user-facing failure: the message names the input, the value and the rule.

    ``exit_code`` is 2 (usage, parse or connection error) unless a subclass or the raiser says
    otherwise. Messages never carry secrets (tokens, AK/SK).
    """

    exit_code: int = EXIT_USAGE

    def __init__(self, *args: object, exit_code: int | None = None) -> None:
        super().__init__(*args)
        if exit_code is not None:
            self.exit_code = exit_code


class FindingsError(KitError):
    """The input was read, and the check it was given found problems (exit 1)."""

    exit_code = EXIT_FINDINGS
