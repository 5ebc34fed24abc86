"""The one reader parses a YAML text once per process: a text read again (the spec and ledger
every step of a ``docs update`` re-reads) is a copy of the first parse, never the same objects,
and the cache stays bounded. The schema-model block is rendered once per extension likewise."""

from __future__ import annotations

import functools
from typing import Any

import pytest
import yaml
from modelarts_kit_spec import SPEC_PATH, SpecError, reader
from modelarts_kit_spec.reader import parse_yaml_text
from modelarts_kit_spec.schemamodel import block
from modelarts_kit_spec.schemamodel.extension import EXTENSION_KEY
from modelarts_kit_wire.recent import Recent

# Big enough to be cached; an anchor and its alias, so the copy must keep them one object.
BODY = "".join(f"key{n}: {{value: {n}, note: 'row {n}'}}\n" for n in range(300))
TEXT = "shared: &shared {items: [1, 2], name: x}\nagain: *shared\n" + BODY


@functools.cache
def expected() -> Any:
    """TEXT as PyYAML's own pure-Python loader reads it (parsed when a test asks, not at
    collection: every pytest worker collects this module; not through ``yaml.load``, which
    the tests count)."""
    loader = yaml.SafeLoader(TEXT)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text yaml.load is handed from now on (the cache emptied first; none on disk:
    ``test_parse_cache.py`` tests that one)."""
    monkeypatch.setattr(reader, "_PARSED", Recent(reader.CACHED_DOCUMENTS))
    monkeypatch.setenv("MODELARTS_KIT_CACHE_DIR", "off")
    return yaml_loads(monkeypatch)


def yaml_loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text yaml.load is handed from now on."""
    seen: list[str] = []
    load = yaml.load

    def counting(text: str, Loader: Any) -> Any:
        seen.append(text)
        return load(text, Loader=Loader)

    monkeypatch.setattr(yaml, "load", counting)
    return seen


def test_a_text_read_again_is_parsed_once_and_each_reader_gets_its_own_copy(
    loads: list[str],
) -> None:
    assert len(TEXT) >= reader.CACHED_TEXT[0]
    first = parse_yaml_text(TEXT, "first.yaml")
    assert first == expected()
    first["shared"]["items"].append(3)  # a reader that edits what it read
    first["key0"]["value"] = "changed"
    second = parse_yaml_text(TEXT, "second.yaml")
    third = parse_yaml_text(TEXT, "third.yaml")
    assert loads == [TEXT]  # parsed once
    assert second == third == expected()  # no edit of a reader reaches another
    assert second is not third
    assert second["key1"] is not third["key1"]
    # The alias is the anchored node itself in every copy, as yaml.load gives it.
    assert second["shared"] is second["again"]
    assert second["shared"] is not third["shared"]


def test_the_curated_spec_read_from_the_cache_is_what_a_parse_gives(loads: list[str]) -> None:
    text = SPEC_PATH.read_text(encoding="utf-8")
    parsed = parse_yaml_text(text, str(SPEC_PATH))
    assert parse_yaml_text(text, str(SPEC_PATH)) == parsed == yaml.load(text, yaml.CSafeLoader)
    assert loads.count(text) == 2  # the reader's one parse, and this test's own


def test_a_text_that_fails_fails_every_time_and_small_texts_are_not_kept(
    loads: list[str],
) -> None:
    broken = TEXT + "bad: [unclosed\n"
    for _ in range(2):
        with pytest.raises(SpecError, match=r"broken\.yaml:\d+:\d+: invalid YAML"):
            parse_yaml_text(broken, "broken.yaml")
    small = "a: 1\n"
    assert parse_yaml_text(small, "s.yaml") == parse_yaml_text(small, "s.yaml") == {"a": 1}
    assert loads == [small, small]  # the broken text never got past the parser
    assert len(reader._PARSED) == 0


def test_the_cache_keeps_the_last_texts_only(loads: list[str]) -> None:
    texts = [f"n: {n}\n{BODY}" for n in range(reader.CACHED_DOCUMENTS + 2)]
    for text in texts:
        parse_yaml_text(text, "t.yaml")
    assert len(reader._PARSED) == reader.CACHED_DOCUMENTS
    parse_yaml_text(texts[0], "t.yaml")  # the oldest was let go: parsed again
    parse_yaml_text(texts[-1], "t.yaml")  # the newest was kept
    assert loads == [*texts, texts[0]]


def test_the_schema_model_block_is_rendered_once_per_extension_and_anew_when_it_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(block, "_RENDERED", Recent(4))
    dumps: list[object] = []
    dump = yaml.safe_dump

    def counting(data: object, **options: Any) -> str:
        dumps.append(data)
        return str(dump(data, **options))

    monkeypatch.setattr(yaml, "safe_dump", counting)
    extension: dict[str, Any] = {"rules": {"/a": {"type": "string"}}, "values": [1, 2]}
    first = block.render(extension)
    assert block.render({"rules": {"/a": {"type": "string"}}, "values": [1, 2]}) == first
    assert len(dumps) == 1  # the same extension again: the text, not a second dump
    extension["values"].append(3)  # changed in place after its first render
    assert block.render(extension) == dump({EXTENSION_KEY: extension}, **RENDER_OPTIONS)
    # Values alike by == but not in YAML: each its own render.
    texts = {block.render({"v": value}) for value in (1, 1.0, True)}
    assert len(texts) == 3
    assert len(dumps) == 5


RENDER_OPTIONS: dict[str, Any] = {
    "sort_keys": False,
    "default_flow_style": None,
    "allow_unicode": True,
    "width": 4096,
}
