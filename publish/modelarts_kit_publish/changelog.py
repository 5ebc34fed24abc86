"""``CHANGELOG.md``: one section per published version, newest first, from ``spec diff``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from modelarts_kit_spec.diff import Change, audience, release_level, render_markdown_sections

__all__ = [
    "TITLE",
    "Block",
    "Inline",
    "changelog_blocks",
    "merge_changelog",
    "section_for",
    "split_sections",
]

TITLE = "# Changelog\n"
SECTION = re.compile(r"^## (\S+)", re.MULTILINE)


def section_for(
    version: str,
    previous_version: str | None,
    changes: list[Change] | None,
    sdk_checked: str | None = None,
) -> str:
    """The section of ``version``: 'Initial release.' without a previous version.

    ``sdk_checked`` (``huaweicloudsdkmodelarts 3.1.219``): the vendor SDK release the ledger's
    SDK evidence comes from, stated under the heading.
    """
    sdk = (
        f"Vendor SDK checked (`modelarts-kit sdk diff`): `{sdk_checked}`.\n\n"
        if sdk_checked
        else ""
    )
    if previous_version is None or changes is None:
        return f"## {version}\n\n{sdk}Initial release.\n"
    if previous_version == version:
        return f"## {version}\n\n{sdk}Republished without changes.\n"
    body = render_markdown_sections(changes, level=3)
    level = release_level(changes)
    release = f"Release: {level}; to act: {audience(changes)}.\n\n"
    return f"## {version} (changes since {previous_version})\n\n{sdk}{release}{body}"


def split_sections(text: str) -> dict[str, str]:
    """Existing sections by version, in file order (the title is dropped)."""
    sections: dict[str, str] = {}
    starts = [m for m in SECTION.finditer(text)]
    for index, match in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(text)
        sections[match.group(1)] = text[match.start() : end].rstrip("\n") + "\n"
    return sections


def merge_changelog(existing: str | None, version: str, section: str) -> str:
    """Put ``section`` first, keep every other version's section as it was."""
    older = split_sections(existing or "")
    older.pop(version, None)
    return "\n".join([TITLE, section, *older.values()])


@dataclass(frozen=True)
class Inline:
    kind: str  # "text" | "code" | "strong"
    text: str


@dataclass(frozen=True)
class Block:
    kind: str  # "h1".."h4" | "p" | "ul"
    parts: tuple[Inline, ...] = ()
    items: tuple[tuple[Inline, ...], ...] = ()  # the bullets of a "ul"


INLINE = re.compile(r"`([^`]*)`|\*\*([^*]+)\*\*")


def _inline(text: str) -> tuple[Inline, ...]:
    parts: list[Inline] = []
    position = 0
    for match in INLINE.finditer(text):
        if match.start() > position:
            parts.append(Inline("text", text[position : match.start()]))
        if match.group(1) is not None:
            parts.append(Inline("code", match.group(1)))
        else:
            parts.append(Inline("strong", match.group(2)))
        position = match.end()
    if position < len(text):
        parts.append(Inline("text", text[position:]))
    return tuple(parts)


def changelog_blocks(markdown: str) -> list[Block]:
    """The subset of Markdown the changelog uses (headings, bullets, paragraphs) as blocks.

    Rendering is left to the template, which escapes every text part.
    """
    blocks: list[Block] = []
    for line in markdown.splitlines():
        if not line.strip():
            continue
        heading = re.match(r"^(#{1,4}) (.*)$", line)
        if heading:
            blocks.append(Block(f"h{len(heading.group(1))}", _inline(heading.group(2))))
        elif line.startswith("- "):
            if blocks and blocks[-1].kind == "ul":
                blocks[-1] = Block("ul", items=(*blocks[-1].items, _inline(line[2:])))
            else:
                blocks.append(Block("ul", items=(_inline(line[2:]),)))
        else:
            blocks.append(Block("p", _inline(line)))
    return blocks
