"""The console script's exit: the process's objects are frozen out of the cyclic collector
before the interpreter's last full collection, which would walk them all for nothing."""

from __future__ import annotations

from tests.fresh_process import printed_in_a_fresh_process

# This test's exit handler is registered before main() runs, so it runs after main()'s (the
# last registered runs first): it sees what the interpreter's exit then sees. gc.freeze is
# counted, to see it run once however often main ran.
SEEN_AT_EXIT = """\
import atexit, gc, sys
freeze, calls = gc.freeze, []
def counted():
    calls.append(1)
    freeze()
gc.freeze = counted
atexit.register(lambda: print("at exit:", gc.get_freeze_count() > 0, len(calls)))
from modelarts_kit.entry import main
sys.argv = ["modelarts-kit", "--help"]
for _ in range(3):
    try:
        main()
    except SystemExit as exc:
        assert exc.code in (0, None), exc.code
print("before exit:", gc.get_freeze_count() > 0, len(calls))
"""


def test_the_console_script_freezes_its_objects_at_exit_once() -> None:
    lines = printed_in_a_fresh_process(SEEN_AT_EXIT)
    # A caller's own process runs as before until its end; then its objects are frozen, once.
    assert lines[-2:] == ["before exit: False 0", "at exit: True 1"]
