"""``spec diff``: classify every change between two OpenAPI versions, like oasdiff.

Both documents are walked operation by operation (matched by method and path template, with
parameter names ignored), with ``$ref`` followed on the fly (cycle-safe). A change is reported
once, at the pointer where the changed keyword is declared (a shared component's own pointer),
with every operation that reaches it (``operations``) and every pointer it is reached at
(``reached``); ``operation``/``endpoint`` name the first of them. Where a shared schema serves
both requests and responses, the change breaks whoever it breaks on either side. A field whose
type and format change together is one ``type-changed`` (old and new carry both).

Each change says whether it **breaks clients** (a client built for OLD, talking to a server
that implements NEW) and whether it **breaks servers** (a server that implements OLD exactly,
serving clients built for NEW: the implementation must change). One principle decides:

=========  ====================================  ====================================
side       what the change does                  breaks
=========  ====================================  ====================================
request    narrows what may be sent              clients (old requests are rejected)
request    widens what may be sent / adds input  servers (they must accept and honour it)
response   widens what may come back             clients (they meet the unexpected)
response   narrows what may come back            servers (what they send no longer conforms)
=========  ====================================  ====================================

Consequences worth stating: a new optional request field breaks servers, not clients; a new
optional response field breaks nothing (responses are open: clients must ignore unknown
fields) unless the old response object was closed (``additionalProperties: false``); an enum
value added to a response breaks clients; a value removed from a response enum breaks nobody
(the one exception, as issue #3 and oasdiff rate it). Open enums (``anyOf: [{enum: [...]},
{type: string}]``, read through :func:`modelarts_kit_spec.values.documented_values`) accept any
string, so their documented values are compared on their own: a documented value added or
removed breaks nobody (``documented-value-added``/``-removed``, also when a plain string gains
or loses its list), while opening a closed enum widens it and closing an open one narrows it
(``enum-opened``/``enum-closed``, judged by the principle); a new operation breaks servers
only; a new error status breaks nobody (clients handle unknown errors generically) while a new
success status breaks clients. What the spec means (its ``x-modelarts-*`` extensions: roles,
lifecycle, error codes, guidance, and any extension the kit does not know) is compared by
:mod:`modelarts_kit_spec.diff_meaning`, under the same principle.

The package, by concept: :mod:`.model` (rule ids, ``Change``, the walk), :mod:`.source`
(reading a version), :mod:`.schema_rules`, :mod:`.operation_rules`, :mod:`.compare`
(``diff_documents``), :mod:`.render` (JSON, Markdown) and :mod:`.release` (which release the
changes make: major, minor or patch, by who breaks).
"""

from modelarts_kit_spec.diff.compare import diff_documents
from modelarts_kit_spec.diff.model import RULES, Change, SpecSource
from modelarts_kit_spec.diff.release import audience, is_additive, release_level
from modelarts_kit_spec.diff.render import render_json, render_markdown, render_markdown_sections
from modelarts_kit_spec.diff.source import read_source

__all__ = [
    "RULES",
    "Change",
    "SpecSource",
    "audience",
    "diff_documents",
    "is_additive",
    "read_source",
    "release_level",
    "render_json",
    "render_markdown",
    "render_markdown_sections",
]
