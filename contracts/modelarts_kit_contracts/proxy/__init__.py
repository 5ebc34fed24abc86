"""The validating proxy: forward traffic unchanged, report what breaks the spec (see
:mod:`.app`)."""

from modelarts_kit_contracts.proxy.app import HOP_BY_HOP, ValidatingProxy

__all__ = ["HOP_BY_HOP", "ValidatingProxy"]
