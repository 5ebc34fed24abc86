"""JSON Pointer tokens (RFC 6901) are escaped and read back in one module,
``modelarts_kit_wire.pointers``: every other module calls it (#37 item 4)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from modelarts_kit_wire.pointers import (
    escape_pointer_token,
    pointer_tokens,
    unescape_pointer_token,
)

from tests.product_code import ROOT, product_files

# An inline copy: a replace of "~", "~0" or "~1" (either quote), as the six copies were written.
INLINE_COPY = re.compile(r"""\.replace\(\s*(['"])~[01]?\1""")
THE_ONE_MODULE = ROOT / "wire/modelarts_kit_wire/pointers.py"


@given(st.text())
def test_a_token_reads_back_as_written(token: str) -> None:
    assert unescape_pointer_token(escape_pointer_token(token)) == token


def test_the_rfc_6901_examples() -> None:
    assert escape_pointer_token("a/b") == "a~1b"
    assert escape_pointer_token("m~n") == "m~0n"
    # "~01" is "~" then "1", never "/": ~1 is read before ~0.
    assert unescape_pointer_token("~01") == "~1"


@given(st.lists(st.text(), max_size=5))
def test_pointer_tokens_reads_back_a_joined_pointer(tokens: list[str]) -> None:
    pointer = "".join("/" + escape_pointer_token(t) for t in tokens)
    assert pointer_tokens(pointer) == tuple(tokens)
    assert pointer_tokens("#" + pointer) == tuple(tokens)


def test_the_root_pointer_has_no_tokens() -> None:
    assert pointer_tokens("") == ()
    assert pointer_tokens("#") == ()


def test_no_product_module_escapes_a_pointer_token_inline() -> None:
    copies = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in product_files((".py",))
        if path != THE_ONE_MODULE
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if INLINE_COPY.search(line)
    ]
    assert copies == []


def test_the_guard_sees_an_inline_copy() -> None:
    assert INLINE_COPY.search("""name.replace("~1", "/").replace("~0", "~")""")
    assert INLINE_COPY.search("""key.replace('~', '~0')""")
    assert not INLINE_COPY.search("""text.replace("~x", "")""")
