"""HTTP headers as they travel: case-insensitive, multi-valued, in wire order, and in the byte
form ASGI carries them (latin-1, names in lower case on the way out).

The mock, the proxy and the contract checks hold headers in :class:`Headers`; the reference
server and the mock write response headers with :func:`asgi_headers`. A credential header's
value (:func:`~modelarts_kit_wire.redaction.is_secret_header`) never shows in a ``repr``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from modelarts_kit_wire.redaction import REDACTED, is_secret_header

__all__ = ["Headers", "asgi_headers"]


class Headers:
    """Case-insensitive, multi-valued HTTP headers, kept in wire order."""

    def __init__(self, items: Mapping[str, str] | Iterable[tuple[str, str]] = ()) -> None:
        pairs = items.items() if isinstance(items, Mapping) else items
        self.items: list[tuple[str, str]] = [(str(k), str(v)) for k, v in pairs]

    @classmethod
    def from_asgi(cls, raw: Iterable[tuple[bytes, bytes]]) -> Headers:
        """The headers of an ASGI scope, byte for byte (latin-1 keeps obs-text bytes)."""
        return cls((name.decode("latin-1"), value.decode("latin-1")) for name, value in raw)

    def get(self, name: str, default: str | None = None) -> str | None:
        lowered = name.lower()
        for key, value in self.items:
            if key.lower() == lowered:
                return value
        return default

    def get_all(self, name: str) -> list[str]:
        lowered = name.lower()
        return [value for key, value in self.items if key.lower() == lowered]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __repr__(self) -> str:
        # Never print credential values.
        shown = [(k, REDACTED if is_secret_header(k) else v) for k, v in self.items]
        return f"Headers({shown!r})"


def asgi_headers(items: Iterable[tuple[str, str]]) -> list[tuple[bytes, bytes]]:
    """Response headers as ``http.response.start`` takes them: names in lower case (ASGI
    requires it), latin-1 bytes."""
    return [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in items]
