"""Every page quote a scenario of the nine further operations cites stands in its page."""

from __future__ import annotations

import pytest
from modelarts_kit_contracts.server.quotes import QUOTES
from modelarts_kit_spec.quotes import Quote, quote_problem
from modelarts_kit_spec.schemamodel.extension import SOURCES_DIR


@pytest.mark.parametrize("quote", QUOTES, ids=lambda q: q.locator)
def test_the_quote_stands_in_its_page(quote: Quote) -> None:
    assert quote_problem(quote, SOURCES_DIR) is None


def test_a_quote_not_on_its_page_is_caught() -> None:
    moved = Quote(QUOTES[0].page, QUOTES[0].locator, "Jobs of every project are listed.")
    assert "does not stand in page" in str(quote_problem(moved, SOURCES_DIR))
