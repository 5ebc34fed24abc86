"""The evidence a recorded revision carries over from the revision it replaces.

Under ``--replaces OLD`` a new page inherits OLD's evidence: what OLD said and the new page
still says stays settled. Once ``docs update`` records the new page, it is a page of its own:
a plain ``docs diff`` of every stored page reads it without OLD beside it as its predecessor,
and a source is evidence only about the page its ``seed`` names. So every ledger entry that
settles a finding of the new page (or one no single page makes: a field or status code no page
mentions) with OLD's evidence but not with the new page's own gets a source of the new page
(``seed: NEW``) saying what the new page says; OLD keeps its file and its sources.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from modelarts_kit_vendordocs.drift import Decision, DriftFinding, DriftReport
from modelarts_kit_vendordocs.propose import page_says
from modelarts_kit_vendordocs.settle import recorded_keys, says_recorded

__all__ = ["carried_sources"]


def _words(finding: DriftFinding, decision: Decision, listed: Sequence[int]) -> str | None:
    """What the page says, in its own words when they read back as what it says (a status
    code: every code the page lists), else in the words an earlier source recorded the same
    value with."""
    own = "; ".join(map(str, sorted(listed))) if finding.kind == "status-code" else None
    for says in (own or page_says(finding), *decision.says):
        if says_recorded(decision.kind, recorded_keys(decision.kind, [says]), finding.value):
            return says
    return None


def carried_sources(
    report: DriftReport,
    decisions: Iterable[Decision],
    *,
    page: str,
    seed: str,
    replaced: str,
    listed: Sequence[int],
) -> dict[str, list[dict[str, str]]]:
    """Per ledger entry id, the sources ``seed`` (the recorded name of the run's page ``page``,
    which lists the status codes ``listed``) needs so that each entry settles on the new
    page's own evidence what it settles in ``report`` (a run with ``--replaces replaced``)
    with the evidence of ``replaced``: the findings of the new page, and those no single page
    makes (a field or status code no page mentions)."""
    by_id: Mapping[str, Decision] = {d.id: d for d in decisions}
    out: dict[str, list[dict[str, str]]] = {}
    for operation in report.operations:
        for finding, entry_id in operation.reconciled:
            decision = by_id.get(entry_id)
            if finding.page not in (page, None) or decision is None:
                continue
            if decision.settles(replace(finding, page=seed, evidence=(seed,))):
                continue  # the page's own evidence settles it already
            if not decision.settles(replace(finding, evidence=(replaced,))):
                continue  # settled by what another page said, not by the old revision
            says = _words(finding, decision, listed)
            if says is None:
                continue
            table = finding.table or finding.pointer or ""
            source = {"seed": seed, "table": table, "says": says}
            sources = out.setdefault(entry_id, [])
            if source not in sources:
                sources.append(source)
    return out
