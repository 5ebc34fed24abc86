"""The base of every error the contract kit raises on bad input (CLI exit code 2)."""

from __future__ import annotations

from modelarts_kit_wire.errors import KitError

__all__ = ["ContractError"]


class ContractError(KitError):
    """Bad input to the contract kit: a report spec, credentials, a scenario, an adapter."""
