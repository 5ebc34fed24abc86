"""``docs compare OLD NEW``: what the vendor changed between two versions of one page.

Independent of the spec: both versions are read into inventories (any of the three page
formats, and the two need not share a format) and compared field by field.

Each change has a kind (an id, like a rule of oasdiff) and says where and what:

* ``row-added`` / ``row-removed`` -- a field (at its dotted path, per side and status);
* ``type-changed`` / ``mandatory-changed`` / ``description-changed`` -- a row in both;
* ``enum-value-added`` / ``enum-value-removed`` -- values listed in a description;
* ``constraint-changed`` -- a limit the prose states (``0 to 256 characters`` -> ``0 to
  512``: ``maxLength``), see :mod:`modelarts_kit_vendordocs.constraints`;
* ``enum-value-respelled`` -- a spelling fix: a value dropped and a value added that differ by
  a letter or two (``discreate`` -> ``discrete``), one change rather than a loss and a gain;
* ``table-renamed`` -- the table a field points to has another name;
* ``table-moved`` -- a table of that name now sits under other fields (or another side);
* ``operation-changed`` -- the method or path template of the page;
* ``status-added`` / ``status-removed`` / ``status-changed`` -- the status code table;
* ``example-added`` / ``example-removed`` / ``example-changed`` -- the example sections.

Two pages of different operations share objects (the list page's ``items[]`` is the show
page's job): ``old_root`` / ``new_root`` (``response 200 items``: side, status, dotted path)
compare only the fields under that object of each page, at paths relative to it; a root
given for one page only is the whole body of the same side and status on the other.
Operation, status codes and examples are then not compared: they belong to the pages.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from modelarts_kit_wire.records import JsonField, JsonRecord

from modelarts_kit_vendordocs.constraints import prose_constraints
from modelarts_kit_vendordocs.errors import VendorDocsError
from modelarts_kit_vendordocs.extract import extract_page, read_page
from modelarts_kit_vendordocs.inventory import DocField, FieldEntry, Inventory
from modelarts_kit_vendordocs.model import HeadingKind
from modelarts_kit_vendordocs.text import classify_heading

__all__ = ["PageChange", "PageComparison", "Root", "compare_pages", "compare_paths", "parse_root"]

# Headings that end an example section ("Status code: 200" inside it does not).
_SECTION_ENDS = frozenset(
    {
        HeadingKind.STATUS_CODES,
        HeadingKind.ERROR_CODES,
        HeadingKind.REQUEST,
        HeadingKind.RESPONSE,
    }
)
_EXAMPLE_TITLE_RE = re.compile(
    r"^\s*(?:\*\*)?(example (?:requests?|responses?)|请求示例|响应示例)(?:\*\*)?\s*$", re.I
)


@dataclass(frozen=True)
class PageChange(JsonRecord):
    kind: str
    where: str  # "response 202 status.phase", "table Status", "status 409", "Example Responses"
    old: str
    new: str
    old_line: int | None = None
    new_line: int | None = None

    json_fields: ClassVar[tuple[JsonField, ...]] = (
        "kind",
        "where",
        "old",
        "new",
        "old_line",
        "new_line",
    )


@dataclass(frozen=True)
class PageComparison:
    old: str
    new: str
    changes: tuple[PageChange, ...]
    old_root: str | None = None  # the object compared on each page, when not the whole page
    new_root: str | None = None

    @property
    def same(self) -> bool:
        return not self.changes


def _key(entry: FieldEntry) -> tuple[str, int | None, str]:
    return entry.side, entry.status, re.sub(r"\[\]", "", entry.path)


def _label(key: tuple[str, int | None, str]) -> str:
    side, status, path = key
    if not side:  # a field under a root: its path relative to the root says where
        return path
    return f"{side}{'' if status is None else f' {status}'} {path}"


_SIDES = ("path", "query", "header", "request", "response")
_ROOT_RE = re.compile(r"^(?P<side>[a-z]+)(?:\s+(?P<status>\d{3}))?(?:\s+(?P<path>\S+))?$")


@dataclass(frozen=True)
class Root:
    """An object of a page: ``response 200 items`` (side, status, dotted path; no path: the
    whole body)."""

    side: str
    status: int | None
    path: str

    def __str__(self) -> str:
        return " ".join(
            part
            for part in (self.side, "" if self.status is None else str(self.status), self.path)
            if part
        )


def parse_root(text: str, option: str) -> Root:
    """``response 200 items[]`` as a :class:`Root` (array markers ignored)."""
    match = _ROOT_RE.match(text.strip())
    if match is None or match["side"] not in _SIDES:
        raise VendorDocsError(
            f"{option} {text!r}: not SIDE [STATUS] [PATH] (rule: SIDE is one of "
            f"{', '.join(_SIDES)}, e.g. 'response 200 items')"
        )
    status = match["status"]
    return Root(
        match["side"],
        None if status is None else int(status),
        re.sub(r"\[\]", "", match["path"] or ""),
    )


def _reroot(page: Inventory, root: Root, option: str) -> Inventory:
    """The page's fields under ``root``, at paths relative to it, with no side."""
    depth = len(root.path.split(".")) if root.path else 0
    under: list[FieldEntry] = []
    found = not root.path
    for entry in page.fields:
        if (entry.side, entry.status) != (root.side, root.status):
            continue
        parts = entry.path.split(".")
        plain = [re.sub(r"\[\]", "", part) for part in parts]
        if root.path and ".".join(plain) == root.path:
            found = found or entry.field.vendor_type.table_ref is not None
            continue
        if plain[:depth] == (root.path.split(".") if root.path else []) and len(parts) > depth:
            under.append(replace(entry, side="", status=None, path=".".join(parts[depth:])))
    if not found or not under:
        raise VendorDocsError(
            f"{option} {str(root)!r}: {Path(page.source).name} has no object field there "
            f"(rule: the root names an object field of the page with fields under it, "
            f"e.g. 'response 200 items')"
        )
    return replace(page, fields=under)


def _squash(text: str) -> str:
    return " ".join(text.split())


# A list item's mark: web text prints "•", reStructuredText "-" and pipe tables "*" or "-".
_BULLET_MARK_RE = re.compile(r"(?:^|(?<=\s))[•·▪●*\-](?=\s)")


def _same_prose(old: str, new: str) -> bool:
    """Whether two descriptions say the same, whatever the list marks and line breaks."""
    return _squash(_BULLET_MARK_RE.sub("-", old)) == _squash(_BULLET_MARK_RE.sub("-", new))


def _fields(page: Inventory) -> dict[tuple[str, int | None, str], FieldEntry]:
    out: dict[tuple[str, int | None, str], FieldEntry] = {}
    for entry in page.fields:
        out.setdefault(_key(entry), entry)
    return out


def _row_changes(old: Inventory, new: Inventory) -> list[PageChange]:
    changes: list[PageChange] = []
    before, after = _fields(old), _fields(new)
    for key, entry in before.items():
        if key not in after:
            changes.append(
                PageChange("row-removed", _label(key), entry.field.type, "", entry.field.line)
            )
    for key, entry in after.items():
        if key not in before:
            changes.append(
                PageChange("row-added", _label(key), "", entry.field.type, None, entry.field.line)
            )
            continue
        was = before[key].field
        now = entry.field
        lines = (was.line, now.line)
        where = _label(key)
        if _squash(was.type) != _squash(now.type):
            changes.append(PageChange("type-changed", where, was.type, now.type, *lines))
        if (was.mandatory or "") != (now.mandatory or ""):
            changes.append(
                PageChange(
                    "mandatory-changed", where, was.mandatory or "", now.mandatory or "", *lines
                )
            )
        if not _same_prose(was.description, now.description):
            changes.append(
                PageChange("description-changed", where, was.description, now.description, *lines)
            )
        changes.extend(_enum_changes(was.enum, now.enum, where, lines))
        changes.extend(_constraint_changes(was, now, where, lines))
    return changes


def _constraint_changes(
    was: DocField, now: DocField, where: str, lines: tuple[int, int]
) -> list[PageChange]:
    """A limit the prose states that the new version states otherwise (or no longer)."""
    before = {c.keyword: c for c in prose_constraints(was.description, was.vendor_type)}
    after = {c.keyword: c for c in prose_constraints(now.description, now.vendor_type)}
    out: list[PageChange] = []
    for keyword in dict.fromkeys([*before, *after]):
        old_c, new_c = before.get(keyword), after.get(keyword)
        if old_c is not None and new_c is not None and old_c.value == new_c.value:
            continue
        out.append(
            PageChange(
                "constraint-changed",
                where,
                "" if old_c is None else f"{keyword} {old_c.value:g} ({old_c.quote!r})",
                "" if new_c is None else f"{keyword} {new_c.value:g} ({new_c.quote!r})",
                *lines,
            )
        )
    return out


# How close two spellings must be to be one value respelled (difflib's ratio; discreate and
# discrete score 0.94, max and min 0.33, job and mrs_job 0.6).
_RESPELLED = 0.8


def _respellings(removed: list[str], added: list[str]) -> list[tuple[str, str]]:
    """Pairs (old, new) of a removed and an added value that are one value spelt anew,
    closest first, each value in at most one pair."""
    scored = sorted(
        (
            (-difflib.SequenceMatcher(None, old.lower(), new.lower()).ratio(), old, new)
            for old in removed
            for new in added
        ),
    )
    pairs: list[tuple[str, str]] = []
    used: set[str] = set()
    for score, old, new in scored:
        if -score < _RESPELLED or old in used or new in used:
            continue
        pairs.append((old, new))
        used.update((old, new))
    return pairs


def _enum_changes(
    was: list[str], now: list[str], where: str, lines: tuple[int, int]
) -> list[PageChange]:
    added = [value for value in now if value not in was]
    removed = [value for value in was if value not in now]
    respelled = _respellings(removed, added)
    fixed = {old for old, _ in respelled} | {new for _, new in respelled}
    changes = [
        PageChange("enum-value-respelled", where, old, new, *lines) for old, new in respelled
    ]
    changes.extend(
        PageChange("enum-value-added", where, "", value, *lines)
        for value in added
        if value not in fixed
    )
    changes.extend(
        PageChange("enum-value-removed", where, value, "", *lines)
        for value in removed
        if value not in fixed
    )
    return changes


def _table_names(page: Inventory) -> dict[tuple[str, int | None, str], str]:
    """The name of the table each object field points to."""
    out: dict[tuple[str, int | None, str], str] = {}
    for entry in page.fields:
        ref = entry.field.vendor_type.table_ref
        if ref:
            out.setdefault(_key(entry), ref)
    return out


def _table_changes(old: Inventory, new: Inventory) -> list[PageChange]:
    changes: list[PageChange] = []
    before, after = _table_names(old), _table_names(new)
    for key, name in after.items():
        if key in before and before[key] != name:
            changes.append(PageChange("table-renamed", _label(key), before[key], name))

    def users(names: dict[tuple[str, int | None, str], str]) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for key, name in names.items():
            out.setdefault(name, set()).add(_label(key))
        return out

    was, now = users(before), users(after)
    renamed = {c.old for c in changes} | {c.new for c in changes}
    for name in sorted(set(was) & set(now) - renamed):
        if was[name] != now[name]:
            changes.append(
                PageChange(
                    "table-moved",
                    f"table {name}",
                    ", ".join(sorted(was[name])),
                    ", ".join(sorted(now[name])),
                )
            )
    return changes


def _status_changes(old: Inventory, new: Inventory) -> list[PageChange]:
    changes: list[PageChange] = []
    before = {s.code: s for s in old.status_codes}
    after = {s.code: s for s in new.status_codes}
    for code in sorted(set(before) | set(after)):
        was, now = before.get(code), after.get(code)
        where = f"status {code}"
        if now is None and was is not None:
            changes.append(PageChange("status-removed", where, was.description, "", was.line))
        elif was is None and now is not None:
            changes.append(PageChange("status-added", where, "", now.description, None, now.line))
        elif (
            was is not None
            and now is not None
            and not _same_prose(was.description, now.description)
        ):
            changes.append(
                PageChange(
                    "status-changed", where, was.description, now.description, was.line, now.line
                )
            )
    return changes


def examples(text: str) -> dict[str, tuple[int, str]]:
    """The example sections of a page: title -> (line, text up to the next section)."""
    lines = text.splitlines()
    out: dict[str, tuple[int, str]] = {}
    current: str | None = None
    start = 0
    body: list[str] = []
    for number, line in enumerate(lines, start=1):
        title = _EXAMPLE_TITLE_RE.match(line)
        heading = classify_heading(line, number)
        ends = heading is not None and heading.kind in _SECTION_ENDS
        if title is not None or (ends and current is not None):
            if current is not None:
                out[current] = (start, "\n".join(body))
            current, start, body = None, 0, []
            if title is not None:
                current, start = title.group(1).lower(), number
            continue
        if current is not None and not re.fullmatch(r"[=\-~^\s]*", line):
            body.append(line.strip())
    if current is not None:
        out[current] = (start, "\n".join(body))
    return out


def _example_changes(old_text: str, new_text: str) -> list[PageChange]:
    changes: list[PageChange] = []
    before, after = examples(old_text), examples(new_text)
    for title in sorted(set(before) | set(after)):
        was, now = before.get(title), after.get(title)
        if now is None and was is not None:
            changes.append(PageChange("example-removed", title, was[1], "", was[0]))
        elif was is None and now is not None:
            changes.append(PageChange("example-added", title, "", now[1], None, now[0]))
        elif was is not None and now is not None:
            old_lines = [line for line in was[1].splitlines() if line]
            new_lines = [line for line in now[1].splitlines() if line]
            if old_lines != new_lines:
                delta = [
                    line
                    for line in difflib.unified_diff(old_lines, new_lines, lineterm="", n=0)
                    if line[:1] in "+-" and not line.startswith(("+++", "---"))
                ]
                changes.append(
                    PageChange(
                        "example-changed",
                        title,
                        "\n".join(d[1:] for d in delta if d.startswith("-")),
                        "\n".join(d[1:] for d in delta if d.startswith("+")),
                        was[0],
                        now[0],
                    )
                )
    return changes


def compare_pages(
    old: Inventory,
    new: Inventory,
    old_text: str = "",
    new_text: str = "",
    *,
    old_root: Root | None = None,
    new_root: Root | None = None,
) -> PageComparison:
    """Every change between two versions of one page (texts give the example sections), or
    between one object of each page when a root is given."""
    if old_root is None and new_root is not None:
        old_root = Root(new_root.side, new_root.status, "")
    if new_root is None and old_root is not None:
        new_root = Root(old_root.side, old_root.status, "")
    if old_root is not None and new_root is not None:
        old_part = _reroot(old, old_root, "--old-root")
        new_part = _reroot(new, new_root, "--new-root")
        found = (*_row_changes(old_part, new_part), *_table_changes(old_part, new_part))
        return PageComparison(old.source, new.source, found, str(old_root), str(new_root))
    changes: list[PageChange] = []
    if (old.method, old.path) != (new.method, new.path):
        changes.append(
            PageChange(
                "operation-changed",
                "operation",
                f"{old.method} {old.path}",
                f"{new.method} {new.path}",
                old.operation_line,
                new.operation_line,
            )
        )
    changes.extend(_row_changes(old, new))
    changes.extend(_table_changes(old, new))
    changes.extend(_status_changes(old, new))
    changes.extend(_example_changes(old_text, new_text))
    return PageComparison(old.source, new.source, tuple(changes))


def compare_paths(
    old: Path, new: Path, old_root: Root | None = None, new_root: Root | None = None
) -> PageComparison:
    """``docs compare``: read both pages (parse errors name file and line) and compare."""
    old_page, new_page = extract_page(old), extract_page(new)
    return compare_pages(
        old_page,
        new_page,
        read_page(old),
        read_page(new),
        old_root=old_root,
        new_root=new_root,
    )


def render_comparison_text(result: PageComparison) -> str:
    lines = [
        f"old: {result.old}" + (f" (at {result.old_root})" if result.old_root else ""),
        f"new: {result.new}" + (f" (at {result.new_root})" if result.new_root else ""),
    ]
    for change in result.changes:
        detail = (
            f"{change.old!r} -> {change.new!r}"
            if change.old and change.new
            else repr(change.new or change.old)
        )
        if change.kind.startswith(("description", "example")):
            detail = f"{_squash(change.old)[:80]!r} -> {_squash(change.new)[:80]!r}"
        lines.append(f"  {change.kind:<20} {change.where}: {detail}")
    compared = "objects" if result.old_root else "versions"
    lines.append(
        ("the two objects are the same" if result.old_root else "the pages are the same")
        if result.same
        else f"{len(result.changes)} change(s) between the two {compared}"
    )
    return "\n".join(lines)


def render_comparison_json(result: PageComparison) -> dict[str, Any]:
    return {
        "old": result.old,
        "new": result.new,
        "old_root": result.old_root,
        "new_root": result.new_root,
        "same": result.same,
        "changes": [c.to_json() for c in result.changes],
    }
