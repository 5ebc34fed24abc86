"""The plan of a run (``--dry-run`` prints it and sends nothing)."""

from __future__ import annotations

from dataclasses import dataclass

from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_contracts.server.checks import SCENARIOS
from modelarts_kit_contracts.server.guard import DESTRUCTIVE_ROLES
from modelarts_kit_contracts.server.options import RunOptions
from modelarts_kit_contracts.server.target import ServerTarget


@dataclass(frozen=True)
class RunPlan:
    """What a run would do (``--dry-run`` prints it and sends nothing)."""

    target: str
    live: bool
    scenarios: tuple[str, ...]
    phases: tuple[str, ...]
    operations: tuple[str, ...]
    caps: tuple[str, ...]

    def lines(self) -> list[str]:
        return [
            f"target: {self.target} ({'live' if self.live else 'local'})",
            f"scenarios: {', '.join(self.scenarios) or 'none'}",
            f"schemathesis phases: {', '.join(self.phases) or 'none'}",
            *[f"operation: {op}" for op in self.operations],
            *[f"cap: {cap}" for cap in self.caps],
        ]


def effective_phases(target: ServerTarget, options: RunOptions) -> tuple[str, ...]:
    # The stateful phase creates jobs through the spec's links: not on a live target, nor
    # under --read-only (whatever the target).
    if target.live or options.read_only:
        return tuple(p for p in options.phases if p != "stateful")
    return options.phases


def plan_run(target: ServerTarget, options: RunOptions, api: ApiMap | None = None) -> RunPlan:
    resolved = api if api is not None else ApiMap.from_spec()
    live = target.live
    # What the run guards: a live target, and any target under --read-only (run.py and the
    # traffic guard read the same two options).
    guarded = live or options.read_only
    operations = []
    for role, op in resolved.roles():
        mode = "positive and negative data"
        if guarded and role is Role.CREATE:
            mode = "negative data only (no job is created by the phases)"
        elif guarded and role is Role.TERMINATE:
            mode = "negative data only (no job is terminated by the phases)"
        elif options.read_only and role in DESTRUCTIVE_ROLES:
            mode = "not sent (--read-only: no delete, no description change)"
        elif live and role in DESTRUCTIVE_ROLES:
            mode = "not called by the phases (only jobs the run created are deleted or changed)"
        operations.append(f"{op.method.upper()} {op.path} ({role.value}): {mode}")
    budget = options.budget
    caps = [
        f"--max-examples {budget.max_examples} per operation and phase",
        f"--max-time {budget.max_time}s (hard)" if budget.max_time else "--max-time none",
        f"--request-timeout {options.request_timeout_s:g}s per request, body included",
        f"--rate {options.rate:g}/s" if options.rate else "--rate unlimited",
        f"--workers {options.workers}",
    ]
    if options.read_only:
        caps.append(
            "--read-only: no create a correct server could accept, no delete, no description change"
        )
    elif live:
        caps.append(
            f"--max-creates {options.max_creates} (creates the target could accept); "
            "jobs created are terminated at the end"
        )
    else:
        caps.append("creates uncapped (local target)")
    return RunPlan(
        target=target.base_url,
        live=live,
        scenarios=tuple(s.name for s in SCENARIOS) if options.scenarios else (),
        phases=effective_phases(target, options),
        operations=tuple(operations),
        caps=tuple(caps),
    )
