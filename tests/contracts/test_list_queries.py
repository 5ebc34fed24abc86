"""How the list-filter scenario judges one listed value against one filter (the list page's
operators: between (range), like (similar), in (included), not (not))."""

from __future__ import annotations

import pytest
from modelarts_kit_contracts.server.scenarios.list_queries import holds


@pytest.mark.parametrize(
    ("operator", "value", "wanted", "verdict"),
    [
        ("in", "contract-ab12", ["contract-ab12"], True),
        ("in", "contract-ab12", ["contract-cd34"], False),
        ("not", "Running", ["Running"], False),
        ("not", "Running", ["Failed"], True),
        ("like", "contract-AB12", ["ab12"], True),  # contains, whatever the case
        ("like", "contract-ab12", ["cd34"], False),
        ("between", 1636447346315, ["1636447346315", "1636447346315"], True),
        ("between", 1636447346316, ["1636447346300", "1636447346315"], False),
        ("between", 99, ["100", "1000"], False),  # numbers compare as numbers, not as text
        ("in", 1636447346315, ["1636447346315"], True),
        ("in", None, ["x"], None),  # a job without the field: nothing to judge
        ("like", {"nested": 1}, ["x"], None),
    ],
)
def test_holds(operator: str, value: object, wanted: list[str], verdict: bool | None) -> None:
    assert holds(operator, value, wanted) is verdict
