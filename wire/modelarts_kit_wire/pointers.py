"""JSON Pointer reference tokens (RFC 6901): how a key is written in a pointer and read back.

The wire decoder names where a body breaks a rule with a pointer, and the spec layer builds
its pointers with the same two functions (``modelarts_kit_spec.document`` re-exports them).
"""

from __future__ import annotations

__all__ = ["escape_pointer_token", "pointer_tokens", "unescape_pointer_token"]


def escape_pointer_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def unescape_pointer_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def pointer_tokens(pointer: str) -> tuple[str, ...]:
    """The keys a pointer (``/a/b``, ``#/a/b`` or ``""``) goes through, unescaped."""
    pointer = pointer.removeprefix("#")
    return tuple(unescape_pointer_token(raw) for raw in pointer.split("/")[1:])
