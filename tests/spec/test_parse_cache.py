"""A large YAML text's parse is kept on disk for the next process (parsecache): what it reads
back is what a parse gives, a copy each time; an entry that is not one is a miss; nothing in
an entry runs; small texts, refused texts and a turned-off cache keep nothing."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
import yaml
from modelarts_kit_spec import SPEC_PATH, SpecError, parsecache, reader
from modelarts_kit_spec.reader import parse_yaml_text
from modelarts_kit_wire.recent import Recent

from tests.spec.test_reader_cache import yaml_loads

# Large enough to be kept on disk; an anchor and its alias (one object in each copy) and a
# timestamp (a class YAML gives, which the reader loads back).
ROWS = "".join(f"key{n}: {{value: {n}, note: 'row {n}'}}\n" for n in range(3000))
TEXT = "shared: &shared {items: [1, 2], at: 2026-11-29 02:00:00+01:00}\nagain: *shared\n" + ROWS


class _Ran(Exception):
    """Raised by what a planted entry would run, were it loaded."""


def _run_on_load() -> None:
    raise _Ran


class _Planted:
    def __reduce__(self) -> tuple[Any, ...]:
        return (_run_on_load, ())


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """Every text yaml.load is handed from now on, as in a fresh process (nothing parsed in
    this one), with the disk cache in ``tmp_path``."""
    monkeypatch.setenv("MODELARTS_KIT_CACHE_DIR", str(tmp_path))
    fresh_process(monkeypatch)
    return yaml_loads(monkeypatch)


def fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "_PARSED", Recent(reader.CACHED_DOCUMENTS))


def entries(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "parsed").glob("*.pickle"))


def test_the_next_process_reads_the_parse_back_a_copy_each_time(
    parses: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert len(TEXT) >= parsecache.MIN_CHARS
    first = parse_yaml_text(TEXT, "first.yaml")
    assert parses == [TEXT]
    assert len(entries(tmp_path)) == 1
    fresh_process(monkeypatch)
    second = parse_yaml_text(TEXT, "second.yaml")
    third = parse_yaml_text(TEXT, "third.yaml")
    assert parses == [TEXT]  # parsed once, by the first process
    assert second == third == first == yaml.load(TEXT, yaml.CSafeLoader)
    assert second is not third
    assert second["shared"] is second["again"]  # the alias, one object in each copy
    assert second["shared"] is not third["shared"]


def test_the_curated_spec_read_back_is_what_a_parse_gives(
    parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = SPEC_PATH.read_text(encoding="utf-8")
    parsed = parse_yaml_text(text, str(SPEC_PATH))
    fresh_process(monkeypatch)
    assert parse_yaml_text(text, str(SPEC_PATH)) == parsed == yaml.load(text, yaml.CSafeLoader)
    assert parses.count(text) == 2  # the first process's parse, and this test's own


def test_another_text_is_another_entry_and_the_oldest_entries_go(
    parses: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(parsecache, "MAX_ENTRIES", 3)
    texts = [f"n: {n}\n{ROWS}" for n in range(5)]
    for text in texts:
        assert parse_yaml_text(text, "t.yaml")["n"] == texts.index(text)
    assert len(entries(tmp_path)) == 3
    fresh_process(monkeypatch)
    assert parse_yaml_text(texts[-1], "t.yaml")["n"] == 4  # kept: read back
    assert parse_yaml_text(texts[0], "t.yaml")["n"] == 0  # let go: parsed again
    assert parses == [*texts, texts[0]]


@pytest.mark.parametrize(
    "planted",
    [
        b"not a pickle at all",
        parsecache.FORMAT + b"\x80\x05truncated",
        parsecache.FORMAT + pickle.dumps(_Planted(), protocol=5),  # names a function
        pickle.dumps({"a": 1}),  # a pickle without the cache's own header
    ],
    ids=["garbage", "truncated", "runs-code", "foreign"],
)
def test_an_entry_that_is_not_one_is_a_miss_and_nothing_in_it_runs(
    parses: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, planted: bytes
) -> None:
    parse_yaml_text(TEXT, "t.yaml")
    [entry] = entries(tmp_path)
    entry.write_bytes(planted)
    fresh_process(monkeypatch)
    assert parse_yaml_text(TEXT, "t.yaml") == yaml.load(TEXT, yaml.CSafeLoader)  # no _Ran
    assert parses.count(TEXT) == 3  # parsed again (and by this test)
    fresh_process(monkeypatch)
    parse_yaml_text(TEXT, "t.yaml")
    assert parses.count(TEXT) == 3  # the entry was written anew: read back


def test_small_texts_refused_texts_and_a_cache_turned_off_keep_nothing(
    parses: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    small = "".join(ROWS.splitlines(keepends=True)[:100])
    assert len(small) < parsecache.MIN_CHARS
    parse_yaml_text(small, "s.yaml")
    with pytest.raises(SpecError, match="invalid YAML"):
        parse_yaml_text(TEXT + "bad: [unclosed\n", "broken.yaml")
    assert entries(tmp_path) == []
    monkeypatch.setenv("MODELARTS_KIT_CACHE_DIR", "off")
    parse_yaml_text(TEXT, "t.yaml")
    assert entries(tmp_path) == []
    assert parsecache.cache_dir() is None


def test_a_cache_that_cannot_be_written_costs_speed_only(
    parses: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("MODELARTS_KIT_CACHE_DIR", str(blocked))  # parsed/ cannot be made
    assert parse_yaml_text(TEXT, "t.yaml") == yaml.load(TEXT, yaml.CSafeLoader)
    fresh_process(monkeypatch)
    parse_yaml_text(TEXT, "t.yaml")
    assert parses.count(TEXT) == 3
