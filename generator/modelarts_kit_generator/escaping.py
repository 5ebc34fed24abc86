"""The one way spec text reaches generated files: one escaping function per target.

A spec is input from outside: any string in it may hold quotes, triple quotes, backslashes,
newlines, template syntax, NUL, lone surrogates or bidirectional-control characters. The
IR passes every spec-derived string through one of these functions before a template
sees it; templates print the results and never escape anything themselves.

Targets and their normalisation (documented in ``generator/README.md`` terms):

* :func:`python_string` -- a Python string literal whose value is the text exactly.
* :func:`docstring_lines` -- prose for a docstring: whitespace runs are collapsed to one
  space (paragraphs and list items are kept, lines wrapped at word boundaries, words never
  split), then every character that could end the docstring, start an escape or not be
  written as UTF-8 source is escaped, so the docstring's value holds the normalised text
  exactly (NUL, lone surrogates and bidi marks included, as escapes).
* :func:`toml_string` -- a TOML basic string (``"..."``) holding the text exactly;
  refuses what TOML cannot represent (a lone surrogate).
* :func:`markdown_text` / :func:`markdown_code` -- Markdown prose or a code span, on one
  line, with Markdown and HTML syntax escaped; refuses a lone surrogate.

A text a target cannot represent raises :class:`UnrepresentableText` naming the JSON
pointer of the spec field, the (shortened) value and the rule.
"""

from __future__ import annotations

import math
import re
import textwrap
import unicodedata

__all__ = [
    "UnrepresentableText",
    "docstring_inline",
    "docstring_lines",
    "markdown_code",
    "markdown_text",
    "normalise_whitespace",
    "python_string",
    "shorten",
    "toml_string",
]


class UnrepresentableText(ValueError):
    """A spec string that a target format cannot hold; names field, value and rule."""

    def __init__(self, where: str, text: str, rule: str) -> None:
        self.where = where
        self.text = text
        self.rule = rule
        super().__init__(f"{where}: {shorten(text)}: {rule}")


def shorten(text: str, limit: int = 60) -> str:
    """``text`` as a short, printable, quoted value for a message."""
    shown = ascii(text[:limit])
    return shown + ("..." if len(text) > limit else "")


def normalise_whitespace(text: str) -> str:
    """Every whitespace run (as ``str.split`` defines it) as one space, ends stripped."""
    return " ".join(text.split())


def _escape_char(char: str) -> str:
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _needs_escape(char: str) -> bool:
    """Characters that are not safe to write literally into source text: controls, format
    characters (bidi marks, zero-width joiners), surrogates, unassigned and private-use
    code points, and separators other than the plain space."""
    return char != " " and (
        not char.isprintable() or unicodedata.category(char) in ("Cf", "Cs", "Co", "Cn")
    )


def python_string(text: str) -> str:
    """A Python string literal (with quotes) whose value is ``text`` exactly."""
    # repr escapes quotes, backslashes and every non-printable character (controls, NUL,
    # lone surrogates, bidi marks); printable text (Chinese, accents) stays readable.
    return repr(str(text))


def python_literal(value: object, indent: int = 0) -> str:
    """Python source whose value is the JSON value ``value``: one item a line in dicts and
    lists, every string through :func:`python_string`."""
    pad, close = "    " * (indent + 1), "    " * indent
    if isinstance(value, dict):
        items = [
            f"{pad}{python_string(k)}: {python_literal(v, indent + 1)}," for k, v in value.items()
        ]
        return "{\n" + "\n".join(items) + f"\n{close}}}" if items else "{}"
    if isinstance(value, list):
        items = [f"{pad}{python_literal(v, indent + 1)}," for v in value]
        return "[\n" + "\n".join(items) + f"\n{close}]" if items else "[]"
    if isinstance(value, str):
        return python_string(value)
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({python_string(repr(value))})"
    if value is None or isinstance(value, bool | int | float):
        return repr(value)
    raise TypeError(f"not a JSON value: {type(value).__name__}")


_QUOTE_RUN = re.compile(r'"(?=")|(?<=")"|^"|"$')


def _docstring_escape(line: str) -> str:
    r"""One line of docstring text, safe between ``\"\"\"`` delimiters.

    Backslashes are doubled; a double quote next to another double quote, or at either
    end of the line, is escaped, so no three unescaped quotes can ever meet (whatever
    text precedes or follows the line in the template)."""
    text = line.replace("\\", "\\\\")
    # isprintable() is false exactly where _needs_escape() is true for some character
    # ("Other" and "Separator" categories, the space excepted): one C call settles the
    # common line; only a line with such a character is escaped character by character.
    if not text.isprintable():
        text = "".join(_escape_char(char) if _needs_escape(char) else char for char in text)
    return _QUOTE_RUN.sub('\\\\"', text)


def docstring_inline(text: str) -> str:
    """``text`` on one line (whitespace collapsed), escaped to sit anywhere in a docstring."""
    return _docstring_escape(normalise_whitespace(text))


def docstring_lines(text: str, width: int) -> list[str]:
    """``text`` as escaped docstring lines: paragraphs kept, whitespace collapsed, wrapped
    at ``width`` without splitting words; list items (``- ``/``* ``) keep their lines."""
    lines: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        if not paragraph.strip():
            continue
        if lines:
            lines.append("")
        if re.search(r"^\s*[-*] ", paragraph, re.MULTILINE):
            for item in paragraph.splitlines():
                if item.strip():
                    lines.extend(_wrap(normalise_whitespace(item), width, "  "))
        else:
            lines.extend(_wrap(normalise_whitespace(paragraph), width, ""))
    return [_docstring_escape(line) for line in lines]


def _wrap(text: str, width: int, subsequent_indent: str) -> list[str]:
    return textwrap.wrap(
        text,
        width,
        subsequent_indent=subsequent_indent,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [""]


def _refuse_surrogates(text: str, where: str, target: str) -> None:
    for char in text:
        if unicodedata.category(char) == "Cs":
            raise UnrepresentableText(
                where,
                text,
                f"lone surrogate U+{ord(char):04X} cannot be represented in {target} "
                "(rule: text must be valid Unicode)",
            )


_TOML_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n"}
_TOML_ESCAPES |= {"\f": "\\f", "\r": "\\r"}


def toml_string(text: str, where: str) -> str:
    """A TOML basic string (with quotes) whose value is ``text`` exactly."""
    _refuse_surrogates(text, where, "TOML")
    out = ['"']
    for char in text:
        if char in _TOML_ESCAPES:
            out.append(_TOML_ESCAPES[char])
        elif _needs_escape(char):
            code = ord(char)
            out.append(f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


# Inline syntax only: the text never starts a line, so block markers (#, -, +) are inert.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]|<>~&])")


def _markdown_visible(text: str) -> str:
    """One line; invisible and control characters shown as ``U+XXXX``."""
    return "".join(
        f"U+{ord(char):04X}" if _needs_escape(char) else char for char in normalise_whitespace(text)
    )


def markdown_text(text: str, where: str) -> str:
    """Inline Markdown prose showing ``text`` literally (no emphasis, links or HTML)."""
    _refuse_surrogates(text, where, "Markdown")
    return _MARKDOWN_SPECIAL.sub(r"\\\1", _markdown_visible(text))


def markdown_code(text: str, where: str) -> str:
    """An inline code span (with its backticks) showing ``text``; safe in a table cell."""
    _refuse_surrogates(text, where, "Markdown")
    content = _markdown_visible(text).replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", content)), default=0)
    fence = "`" * (longest + 1)
    if content.startswith("`") or content.endswith("`"):
        content = f" {content} "
    return f"{fence}{content}{fence}"
