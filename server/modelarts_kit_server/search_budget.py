"""A search's time budget, held while SQLite runs it: the store asks the caller's budget
every :data:`SEARCH_PROGRESS_STEPS` virtual-machine steps (SQLite's progress handler) and
abandons the statement once it is spent, so a search costs at most its budget whatever its
filters are."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from modelarts_kit_server.errors import ServerError

__all__ = ["SEARCH_PROGRESS_STEPS", "SearchOverBudget", "budgeted"]

# How many SQLite virtual-machine steps pass between two looks at a search's budget.
SEARCH_PROGRESS_STEPS = 10_000


class SearchOverBudget(ServerError):
    """A search stopped because its caller's budget was spent (SQLite interrupted it)."""


@contextmanager
def budgeted(
    connection: sqlite3.Connection, over_budget: Callable[[], bool] | None
) -> Iterator[None]:
    """Run the statements of the block under ``over_budget``: SQLite asks it every
    :data:`SEARCH_PROGRESS_STEPS` steps and abandons the statement once it says yes."""
    if over_budget is None:
        yield
        return
    spent = False

    def progress() -> int:
        nonlocal spent
        spent = spent or over_budget()
        return 1 if spent else 0

    connection.set_progress_handler(progress, SEARCH_PROGRESS_STEPS)
    try:
        yield
    except sqlite3.OperationalError:
        if spent:
            raise SearchOverBudget("the search was stopped at its budget") from None
        raise
    finally:
        connection.set_progress_handler(None, 0)
