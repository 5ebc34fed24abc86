"""Worked examples that the test suite runs (see each folder's docstring)."""
