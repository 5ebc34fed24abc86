"""The client checks that differ only by data are one parametrised check each (#37 item 6):
they keep their names, titles, meanings and report order."""

from __future__ import annotations

import modelarts_kit_contracts.client  # noqa: F401 - registers the client checks
from modelarts_kit_contracts.core import REGISTRY

# (name, title, meaning) as reports and the README show them, in registration order.
PARAMETRISED = [
    (
        "fidelity_dropped_field",
        "a field the server sent is missing",
        "no field the server sent goes missing",
    ),
    (
        "fidelity_null_to_absent",
        "a null the server sent became an absent field",
        "a null stays a null",
    ),
    (
        "fidelity_absent_to_null",
        "a field the server did not send appears as null",
        "an absent field stays absent",
    ),
    (
        "fidelity_coerced_type",
        "a value changed type",
        "no value changes JSON type (5 stays 5, not '5')",
    ),
    ("fidelity_value_changed", "a value changed", "no value changes"),
    (
        "fidelity_unknown_field",
        "an unknown field the server sent was lost",
        "fields the spec does not name (yet) are kept",
    ),
    (
        "error_code_intact",
        "the error does not carry the server's error_code",
        "the error carries the server's error_code",
    ),
    (
        "error_msg_intact",
        "the error does not carry the server's error_msg",
        "the error carries the server's error_msg",
    ),
]


def test_the_parametrised_checks_keep_their_names_titles_and_meanings() -> None:
    registered = [(c.name, c.title, c.meaning) for c in REGISTRY.select("client")]
    assert [entry for entry in registered if entry in PARAMETRISED] == PARAMETRISED
    assert all(REGISTRY[name].function is not None for name, _, _ in PARAMETRISED)


def test_the_report_order_of_the_client_checks_is_kept() -> None:
    names = [c.name for c in REGISTRY.select("client")]
    assert names.index("response_accepted") + 1 == names.index("fidelity_dropped_field")
    assert names.index("fidelity_unknown_field") + 1 == names.index("error_surfaced")
    assert names[-3:] == ["error_status", "error_code_intact", "error_msg_intact"]
