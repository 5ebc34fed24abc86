"""An answer over the size cap: the one exception the server checker and the proxy raise for it."""

from __future__ import annotations

import requests

__all__ = ["AnswerTooLarge"]


class AnswerTooLarge(requests.exceptions.RequestException):
    """An answer's body (decoded) exceeds the cap: it is not read or buffered further.

    The server's violation (no API answer is that large). The server checker records it as a
    finding of ``answer_body_decodable`` and stops, since nothing more can be checked over such
    answers; the proxy answers 502. A ``requests`` exception, so the checker's transport
    handles it as it does the others; the proxy (httpx) catches it by name.
    """
