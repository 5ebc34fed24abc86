"""The requests a scenario's failure needs: every request of its sequence, as curl lines.

A stateful failure (a terminate that did not take effect, a deleted job still shown) is
reproduced only by the requests before it: the create of the job, the terminate, then the
show that failed. :class:`RequestSequence` remembers, in order, the curl line of every request
the current scenario sent, and the create of each job the run made (a scenario may use a job
an earlier one created); :meth:`RequestSequence.steps_to` gives the lines up to a request.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["MAX_SEQUENCE_STEPS", "RequestSequence"]

# A report stays readable: a longer sequence keeps its first request (the create) and its
# last ones, and says how many it left out.
MAX_SEQUENCE_STEPS = 24


@dataclass
class RequestSequence:
    """The curl lines of the current scenario, in the order their requests were sent."""

    steps: list[str] = field(default_factory=list)
    creates: dict[str, str] = field(default_factory=dict)  # job id -> the create's curl line

    def begin(self, resumed: list[str] | None = None) -> None:
        """A new scenario: its sequence starts empty (the jobs created stay known), or with
        ``resumed``, the steps a scenario that waited had sent before."""
        self.steps = list(resumed or ())

    def sent(self, curl: str, *, job_id: str | None = None) -> None:
        """One request sent; a request on a job an earlier scenario created brings that
        job's create into this sequence first."""
        create = self.creates.get(job_id or "")
        if create is not None and create not in self.steps:
            self.steps.append(create)
        self.steps.append(curl)

    def created(self, job_id: str, curl: str) -> None:
        self.creates[job_id] = curl

    def steps_to(self, curl: str) -> str:
        """Every request of the sequence up to ``curl`` (its last sending), one per line;
        ``curl`` alone when the sequence never sent it (a finding of another origin)."""
        if curl not in self.steps:
            return curl
        end = len(self.steps) - self.steps[::-1].index(curl)
        lines = self.steps[:end]
        if len(lines) > MAX_SEQUENCE_STEPS:
            left_out = len(lines) - MAX_SEQUENCE_STEPS
            tail = lines[-(MAX_SEQUENCE_STEPS - 1) :]
            lines = [lines[0], f"# ... {left_out} request(s) of this sequence left out", *tail]
        return "\n".join(lines)
