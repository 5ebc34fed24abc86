"""Which release a set of changes makes: versions by who breaks (semantic versioning).

* **major** -- a change breaks clients (a client built for the old version fails against a
  server of the new one), or tightens what servers must do in a way that is not a pure
  addition: a loosened request constraint or type (old servers reject what new clients may
  send), a response narrowed (what old servers send no longer conforms), a closed request enum
  opened;
* **minor** -- additive: new operations, new optional fields and parameters, new values,
  new statuses and media types (a server that does not implement them yet serves every old
  client as before), and every change that breaks nobody;
* **patch** -- the spec changed in what it says, not in what it allows (descriptions,
  examples, the evidence and quotes of a rule whose strength stays): ``spec diff`` reports
  no change, or only :data:`DOCS_ONLY_RULES`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from modelarts_kit_spec.diff.model import Change

__all__ = [
    "ADDITIVE_RULES",
    "DOCS_ONLY_RULES",
    "Level",
    "audience",
    "is_additive",
    "release_level",
]

Level = Literal["major", "minor", "patch"]

# Additions a server may implement later without failing any client of the old version.
ADDITIVE_RULES = frozenset(
    {
        "operation-added",
        "parameter-added",
        "property-added",
        "request-body-added",
        "media-type-added",
        "response-status-added",
        "response-header-added",
        "enum-value-added",
        "documented-value-added",
    }
)


# Changes of what the spec says about a rule, not of the rule: documentation.
DOCS_ONLY_RULES = frozenset({"evidence-changed"})


def is_additive(change: Change) -> bool:
    """A pure addition: it breaks no client (a required addition does, and is not)."""
    return change.rule in ADDITIVE_RULES and not change.breaks_clients


def release_level(changes: Iterable[Change]) -> Level:
    """The release ``changes`` make (module docstring)."""
    found = [c for c in changes if c.rule not in DOCS_ONLY_RULES or c.breaking]
    if any(c.breaks_clients or (c.breaks_servers and not is_additive(c)) for c in found):
        return "major"
    return "minor" if found else "patch"


def audience(changes: Iterable[Change]) -> str:
    """Whom the release asks to act, in words: ``clients and servers``, ``servers (to add
    what is new)``, ``nobody``."""
    found = list(changes)
    clients = any(c.breaks_clients for c in found)
    servers = [c for c in found if c.breaks_servers]
    servers_break = any(not is_additive(c) for c in servers)
    if clients and (servers_break or servers):
        return "clients and servers"
    if clients:
        return "clients"
    if servers_break:
        return "servers"
    if servers:
        return "servers, to implement what is new (no client breaks)"
    return "nobody"
