"""The rules of ``spec diff`` on the meaning extensions (``x-modelarts-*``): each rule's id,
whom a change of that kind breaks, and why, in one line. :mod:`modelarts_kit_spec.diff_meaning`
finds the changes; the table is here so that the README's table and the diff's model read one
list."""

from __future__ import annotations

__all__ = ["MEANING_IMPACT", "MEANING_RULES"]

# rule id -> (breaks clients, breaks servers, why: one line)
MEANING_IMPACT: dict[str, tuple[bool, bool, str]] = {
    "error-code-added": (
        True, False, "a new accepted code widens the response: clients switching on codes meet it",
    ),
    "error-code-removed": (
        False, True, "narrows the response: servers answering the old code no longer conform",
    ),
    "error-meaning-added": (
        True, False, "a new kind of error widens the response: clients meet codes they never saw",
    ),
    "error-meaning-removed": (
        False, True, "narrows the response: servers answering that error no longer conform",
    ),
    "error-code-preferred-changed": (
        False, False, "the first code of a meaning changed; both were and are accepted",
    ),
    "error-catalogue-changed": (
        False, False, "a catalogue row documents a code; which codes answer is judged elsewhere",
    ),
    "phase-added": (
        True, False, "widens the response: clients polling meet a phase they cannot place",
    ),
    "phase-removed": (
        False, True, "narrows the response: servers moving jobs through it no longer conform",
    ),
    "secondary-phase-added": (
        True, False, "a phase may show a new secondary phase: the response widens",
    ),
    "secondary-phase-removed": (
        False, True, "a phase no longer shows a secondary phase: servers showing it break",
    ),
    "final-phase-changed": (
        True, True, "clients stop waiting at other phases; servers must stop or move jobs on",
    ),
    "terminable-phase-added": (
        False, True, "widens terminate: servers must accept a terminate they used to refuse",
    ),
    "terminable-phase-removed": (
        True, False, "narrows terminate: clients' terminates in that phase are now refused",
    ),
    "transition-added": (
        True, False, "widens the response: clients meet a phase change they did not expect",
    ),
    "transition-removed": (
        False, True, "narrows the response: servers making that phase change no longer conform",
    ),
    "initial-phase-changed": (
        True, True, "new jobs start in another phase: clients see it, servers must produce it",
    ),
    "running-phase-changed": (
        True, True, "tasks run (and start_time is set) in another phase, on both ends",
    ),
    "stopping-phase-changed": (
        True, True, "an accepted terminate moves the job to another phase, on both ends",
    ),
    "course-changed": (
        False, False, "the normal or stop course changed order; the allowed transitions did not",
    ),
    "phase-field-changed": (
        True, True, "the phase is read from another response field, on both ends",
    ),
    "terminate-body-changed": (
        True, True, "clients send another terminate body; servers must recognise it",
    ),
    "role-changed": (
        True, True, "another operation creates, shows or terminates: both ends follow roles",
    ),
    "job-id-field-changed": (
        True, True, "the job id is carried elsewhere: clients and servers must both move it",
    ),
    "guidance-added": (
        False, False,
        "clients must still follow the rule and servers may still enforce it: nobody breaks",
    ),
    "guidance-removed": (
        False, True, "guidance becomes an obligation: servers that ignored it must now reject",
    ),
    "rule-became-lenient": (
        True, False, "only the SDK or an example has it now: it leaves must-accept, senders break",
    ),
    "rule-became-documented": (
        False, True, "a page states it now: every server must accept it (must-accept grew)",
    ),
    "rule-became-decision": (
        False, False,
        "only the ledger decides it now: clients still respect it, servers need not enforce it",
    ),
    "evidence-changed": (
        False, False, "a rule's evidence changed (pages, SDK models, ledger), not its strength",
    ),
    "extension-changed": (
        True, True, "an x-modelarts-* value the kit does not interpret changed: review it",
    ),
    "paging-added": (
        False, False, "a listing now says how it pages: the wire is unchanged, iterators appear",
    ),
    "paging-removed": (
        True, False, "a listing no longer says how it pages: clients lose their iterators",
    ),
    "paging-offset-changed": (
        True, True, "offset counts something else (or travels elsewhere): both ends must follow",
    ),
    "paging-limit-narrowed": (
        True, False, "narrows the request: clients asking for the old page sizes are refused",
    ),
    "paging-limit-widened": (
        False, True, "widens the request: servers must answer page sizes they used to refuse",
    ),
    "paging-default-changed": (
        True, True, "a request without limit gets another page size, on both ends",
    ),
    "paging-count-changed": (
        True, True, "total or count counts something else: clients and servers must follow",
    ),
    "paging-order-changed": (
        True, True, "entries come in another order by default: clients see it, servers make it",
    ),
    "paging-evidence-changed": (
        False, False, "a paging rule quotes other words of the pages, not another rule",
    ),
    "parameters-together-added": (
        True, True, "clients may no longer send one alone; servers must refuse it (both envelopes)",
    ),
    "parameters-together-removed": (
        False, True, "one alone is now allowed: servers that refused it no longer conform",
    ),
    "parameter-format-changed": (
        False, False, "a prose format is guidance: clients follow it, servers may enforce it",
    ),
    "parameters-evidence-changed": (
        False, False, "a parameter rule quotes other words of the pages, not another rule",
    ),
}  # fmt: skip

MEANING_RULES: dict[str, str] = {rule: why for rule, (_, _, why) in MEANING_IMPACT.items()}
