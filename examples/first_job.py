"""Your first training job from Python: the generated client against the embedded reference
server. Create a job, wait until it runs, stop it, and see it end.

    >>> from examples.first_job import first_job
    >>> phases = first_job()
    >>> phases["created"], phases["waited for"], phases["after stop"], phases["ended"]
    ('Creating', 'Running', 'Terminating', 'Terminated')

Run it from the repository root: ``python -m examples.first_job`` (it starts the reference
server on a free 127.0.0.1 port). Against another server, pass its URL and your credentials to
``TrainingJobsClient`` instead: the calls stay the same.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, ServerSettings, serve_in_thread
from modelarts_training_client import TokenAuth, TrainingJobsClient

__all__ = ["BODY", "first_job"]

# The body README.md and `modelarts-kit serve --help` show.
BODY: dict[str, Any] = {
    "kind": "job",
    "metadata": {"name": "my-first-job"},
    "algorithm": {
        "code_dir": "obs://my-bucket/code/",
        "boot_file": "obs://my-bucket/code/train.py",
        "engine": {
            "engine_name": "TensorFlow",
            "engine_version": "tensorflow_2.1.0-cuda_10.1-py_3.7-ubuntu_18.04-x86_64",
        },
    },
    "spec": {"resource": {"flavor_id": "modelarts.vm.cpu.8u", "node_count": 1}},
}
# The reference server simulates a job's lifecycle on its own clock; 60x real time brings a
# job to its running phase in a fraction of a second.
CLOCK_SPEED = 60.0


def first_job(base_url: str | None = None) -> dict[str, str]:
    """Create, wait, stop and wait again; the job's phase at each step.

    Without ``base_url``, against the reference server started here for the purpose.
    """
    with ExitStack() as stack:
        if base_url is None:
            base_url = stack.enter_context(serve_in_thread(ServerSettings(clock_speed=CLOCK_SPEED)))
        client = stack.enter_context(
            TrainingJobsClient(
                base_url=base_url, project_id=DEV_PROJECT_ID, auth=TokenAuth(DEV_TOKEN)
            )
        )
        created = client.create_training_job(BODY)
        job_id = created.metadata.id
        running = client.wait_for_training_job(job_id, until={"Running"}, timeout=60, poll=0.1)
        stopping = client.stop_training_job(job_id, {"action_type": "terminate"})
        ended = client.wait_for_training_job(job_id, timeout=60, poll=0.1)
        return {
            "created": str(created.status.phase),
            "waited for": str(running.status.phase),
            "after stop": str(stopping.status.phase),
            "ended": str(ended.status.phase),
        }


if __name__ == "__main__":
    for step, phase in first_job().items():
        print(f"{step:>11}: {phase}")
