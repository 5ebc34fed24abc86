"""Vendor documentation pages: parse them into field inventories and diff them with the spec."""
