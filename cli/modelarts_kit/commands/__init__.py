"""The click face of each concept: one module per command group, using ``modelarts_kit.options``.

Library packages import no click; these modules parse arguments, call the library's plain
functions and print their typed results. ``modelarts_kit.main`` imports them lazily.
"""
