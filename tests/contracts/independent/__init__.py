"""A second training-job server, written from the vendor's pages (``spec/sources``) alone.

See ``app.py``: it reads no spec, ledger or reference-server code, and plays two ends
(``lenient``, ``strict``) of what the pages allow.
"""

from .app import PROJECT, TOKEN, IndependentServer
from .rules import Mode

__all__ = ["PROJECT", "TOKEN", "IndependentServer", "Mode"]
