"""Scenario: the flavors filter is honoured.

The flavors operation takes one query parameter whose documented values name a field of each
flavor it answers (``flavor_type``: the flavors page's CPU and GPU). For each documented
value, every flavor answered has that value, and every flavor of the unfiltered answer that
has it is answered. A value a server refuses (the SDK's third one, say) is noted, not judged.
"""

from __future__ import annotations

from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.core import Finding
from modelarts_kit_contracts.server.api_map import JSON, ApiMap, member
from modelarts_kit_contracts.server.evidence import operation_evidence
from modelarts_kit_contracts.server.listing import array_property
from modelarts_kit_contracts.server.probe import Probe
from modelarts_kit_contracts.server.quotes import FLAVOR_TYPE, cite
from modelarts_kit_contracts.server.scenarios.steps import applicable


def _filter(api: ApiMap) -> tuple[str, tuple[str, ...]] | None:
    """The query parameter that filters the flavors, and its values a page documents."""
    operation = api.operation(Role.FLAVORS)
    for parameter in operation.parameters:
        if parameter.location != "query" or parameter.schema is None:
            continue
        documented = api.spec.walker.view(parameter.schema).documented
        if documented is None:
            continue
        return parameter.name, documented.values
    return None


def flavors_filter_honoured(probe: Probe) -> None:
    """Each documented flavor type keeps the flavors of that type, all of them."""
    check = "flavors_filter_honoured"
    if not applicable(probe, check, Role.FLAVORS):
        return
    api = probe.api
    entries_field = array_property(api, Role.FLAVORS)
    found = _filter(api)
    if entries_field is None or found is None:
        probe.note(f"{check}: not applicable: the flavors operation has no documented filter")
        return
    name, values = found
    every = probe.send(Role.FLAVORS)
    catalogue = member(every.json(), entries_field)
    if not 200 <= every.status < 300 or not isinstance(catalogue, list):
        probe.note(f"{check}: not evaluated: the unfiltered flavors were not answered")
        return
    evidence = cite(FLAVOR_TYPE, head=operation_evidence(api, Role.FLAVORS))
    for value in values:
        response = probe.send(Role.FLAVORS, query={name: value})
        answered = member(response.json(), entries_field)
        if not 200 <= response.status < 300 or not isinstance(answered, list):
            probe.note(f"{check}: {name}={value} was not answered (HTTP {response.status})")
            continue
        probe.record(
            check,
            _judged(name, value, entries_field, catalogue, answered, evidence),
            role=Role.FLAVORS,
            reproduce=response.curl,
        )


def _judged(
    name: str, value: str, field: str, catalogue: list[JSON], answered: list[JSON], evidence: str
) -> Finding | None:
    other = next((f for f in answered if member(f, name) not in (None, value)), None)
    if other is not None:
        return Finding(
            title="The flavors filter is not honoured",
            expected=f"every flavor of /{field} with {name} == {value!r}",
            got=f"a flavor with {name} == {member(other, name)!r}",
            pointer=f"/{field}",
            evidence=evidence,
        )
    missing = [f for f in catalogue if member(f, name) == value and f not in answered]
    if missing:
        return Finding(
            title="The flavors filter leaves out a flavor of its type",
            expected=f"the {sum(member(f, name) == value for f in catalogue)} flavors with "
            f"{name} == {value!r} of the unfiltered answer",
            got=f"{len(answered)} flavors, without {missing[0]!r:.120}",
            pointer=f"/{field}",
            evidence=evidence,
        )
    return None
