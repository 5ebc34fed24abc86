"""modelarts-macli 0.2.0 lists jobs by item offsets (issue 35): replaying its recorded
``jobs --limit 100`` (offset 0, then offset += 50) against a server that reads ``offset`` as a
page index, as the list page says, lists 50 of 55 jobs; paging by page number lists all 55.
The ledger entry ``list-offset-page-index`` records it as evidence for the page's reading."""

from __future__ import annotations

import httpx
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, ServerSettings, serve_in_thread
from modelarts_kit_spec import read_ledger

from .macli_traffic import TRAFFIC, replay

JOBS = 55


def _create(url: str, name: str) -> None:
    answer = httpx.post(
        f"{url}/v2/{DEV_PROJECT_ID}/training-jobs",
        json={"kind": "job", "metadata": {"name": name}},
        headers={"X-Auth-Token": DEV_TOKEN},
        timeout=30,
    )
    assert answer.status_code == 201, answer.text


def test_macli_pages_by_item_offsets_and_lists_50_of_55_jobs() -> None:
    """macli 0.2.0's ``jobs --limit 100``: offset 0, then offset += 50 (items); the second
    request asks for page 50, which is empty. Paging by page number lists all 55."""
    recorded = TRAFFIC["jobs"]
    assert [e["body"]["offset"] for e in recorded] == [0, 50]
    assert [e["items"] for e in recorded] == [50, 0]
    with serve_in_thread(ServerSettings()) as url:
        for index in range(JOBS):
            _create(url, f"macli-paging-{index:02d}")
        listed = [len(replay(url, e, []).json()["items"]) for e in recorded]
        by_page = [
            replay(url, {**recorded[0], "body": {**recorded[0]["body"], "offset": page}}, [])
            for page in (0, 1)
        ]
    assert listed == [50, 0]
    assert sum(len(answer.json()["items"]) for answer in by_page) == JOBS
    entry = next(e for e in read_ledger().entries if e.id == "list-offset-page-index")
    clients = [s for s in entry.sources if s.client == "modelarts-macli"]
    assert {c.version for c in clients} == {"0.2.0", "later upstream versions"}
    assert any("50 of 55" in str(c.says) for c in clients)
    assert "modelarts-macli 0.2.0" in [source.label for source in entry.sources]
