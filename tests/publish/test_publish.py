"""``publish``: determinism, version-reuse refusal, changelog, and the page in real Chromium."""

from __future__ import annotations

import copy
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_publish import PublishError, VersionReusedError, publish_spec
from modelarts_kit_spec import LEDGER_PATH, load_spec

from tests.yaml_files import dump_yaml

JSON = Any
REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

FIXTURE: JSON = {
    "openapi": "3.1.0",
    "info": {"title": "Fixture", "version": "1.0.0"},
    "paths": {
        "/jobs": {
            "post": {
                "operationId": "CreateJob",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Job"}}
                    },
                },
                "responses": {
                    "201": {
                        "description": "Created.",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Job"}}
                        },
                    }
                },
            }
        }
    },
    "components": {
        "schemas": {
            "Job": {
                "type": "object",
                "description": "A job.",
                "properties": {
                    "name": {"type": "string", "description": "Name.", "maxLength": 64},
                    "mode": {"type": "string", "description": "Mode.", "enum": ["a", "b"]},
                },
            }
        }
    },
}


def write_spec(directory: Path, document: JSON) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "openapi.yaml"
    path.write_text(dump_yaml(document, sort_keys=False), encoding="utf-8")
    return path


def snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The curated spec, published once for the page checks."""
    out = tmp_path_factory.mktemp("published")
    publish_spec(out)
    return out


def test_publish_writes_the_bundle_page_changelog_and_manifest(published: Path) -> None:
    assert sorted(p.name for p in published.iterdir()) == [
        "CHANGELOG.md",
        "index.html",
        "ledger.yaml",
        "openapi.json",
        "openapi.yaml",
        "published.json",
    ]
    # The spec's description says "see ledger.yaml next to this file": it is there, unchanged.
    assert "ledger.yaml" in str(load_spec().document["info"]["description"])
    assert (published / "ledger.yaml").read_bytes() == LEDGER_PATH.read_bytes()
    spec = load_spec()
    bundled = load_spec(published / "openapi.yaml")
    assert bundled.document == spec.document  # key order preserved too:
    assert list(bundled.document) == list(spec.document)
    assert (published / "CHANGELOG.md").read_text(encoding="utf-8") == (
        f"# Changelog\n\n## {spec.version}\n\n"
        "Vendor SDK checked (`modelarts-kit sdk diff`): `huaweicloudsdkmodelarts 3.1.219`.\n\n"
        "Initial release.\n"
    )
    html = (published / "index.html").read_text(encoding="utf-8")
    # Offline: no attribute points outside the page (an example's text may hold a URL: the
    # logs URL operation answers one).
    assert re.findall(r"""(?:href|src|action)\s*=\s*["']?(?:https?:)?//""", html) == []
    assert "<script src" not in html
    assert '<link rel="stylesheet"' not in html


def test_publishing_twice_is_byte_identical(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    publish_spec(first)
    publish_spec(second)
    assert snapshot(first) == snapshot(second)
    before = snapshot(first)
    publish_spec(first)  # again into the same directory: a republication
    assert snapshot(first) == before


def test_changed_spec_under_a_published_version_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    spec = write_spec(tmp_path / "v1", FIXTURE)
    assert (
        CliRunner().invoke(cli, ["publish", "--out", str(out), "--spec", str(spec)]).exit_code == 0
    )
    before = snapshot(out)
    changed = copy.deepcopy(FIXTURE)
    changed["components"]["schemas"]["Job"]["properties"]["name"]["maxLength"] = 32
    spec = write_spec(tmp_path / "v1-changed", changed)
    result = CliRunner().invoke(cli, ["publish", "--out", str(out), "--spec", str(spec)])
    assert result.exit_code == 1
    assert "version 1.0.0 was already published with different content" in result.output
    assert snapshot(out) == before  # nothing half-written
    # The same refusal against an explicitly given previous version, into a fresh directory.
    with pytest.raises(VersionReusedError, match=r"bump info\.version"):
        publish_spec(tmp_path / "fresh", spec_path=spec, previous=str(out / "openapi.yaml"))


def test_changelog_lists_breaking_changes_first_and_keeps_history(tmp_path: Path) -> None:
    out = tmp_path / "out"
    publish_spec(out, spec_path=write_spec(tmp_path / "v1", FIXTURE))
    v2 = copy.deepcopy(FIXTURE)
    v2["info"]["version"] = "1.1.0"
    job = v2["components"]["schemas"]["Job"]
    job["properties"]["mode"]["enum"] = ["a"]  # request narrowed: breaks clients
    job["properties"]["note"] = {"type": "string", "description": "Note."}
    result = publish_spec(out, spec_path=write_spec(tmp_path / "v2", v2))
    assert result.previous_version == "1.0.0"
    changelog = (out / "CHANGELOG.md").read_text(encoding="utf-8")
    assert changelog.startswith("# Changelog\n\n## 1.1.0 (changes since 1.0.0)\n\n")
    assert changelog.index("### Breaking changes") < changelog.index("## 1.0.0\n\nInitial release.")
    assert 'enum value "b" removed — **breaks clients**' in changelog
    assert "published.json" in result.files
    manifest = (out / "published.json").read_text(encoding="utf-8")
    assert '"1.0.0"' in manifest
    assert '"1.1.0"' in manifest
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "Breaking changes" in html
    # Republishing the older version keeps the history and the manifest as they were.
    again = publish_spec(out, spec_path=tmp_path / "v1" / "openapi.yaml")
    assert again.republished
    assert (out / "CHANGELOG.md").read_text(encoding="utf-8") == changelog
    assert (out / "published.json").read_text(encoding="utf-8") == manifest


def test_previous_version_from_a_git_tag(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    spec = write_spec(tmp_path / "spec", FIXTURE)
    git("add", "spec/openapi.yaml")
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "v1")
    git("tag", "v1.0.0")
    v2 = copy.deepcopy(FIXTURE)
    v2["info"]["version"] = "2.0.0"
    del v2["components"]["schemas"]["Job"]["properties"]["mode"]
    write_spec(tmp_path / "spec", v2)
    result = publish_spec(tmp_path / "out", spec_path=spec, previous="v1.0.0")
    assert result.previous_version == "1.0.0"
    # Job is the request and the response body: one removal, reached from both.
    assert [c.rule for c in result.changes] == ["property-removed"]
    assert len(result.changes[0].reached) == 2
    with pytest.raises(PublishError, match="previous version no-such-tag"):
        publish_spec(tmp_path / "out2", spec_path=spec, previous="no-such-tag")


def test_usage_and_invalid_bundle_exit_codes(tmp_path: Path) -> None:
    missing = CliRunner().invoke(
        cli, ["publish", "--out", str(tmp_path / "o"), "--spec", "nope.yaml"]
    )
    assert missing.exit_code == 2
    invalid = copy.deepcopy(FIXTURE)
    invalid["paths"]["/jobs"]["post"]["responses"] = "none"
    spec = write_spec(tmp_path / "bad", invalid)
    result = CliRunner().invoke(cli, ["publish", "--out", str(tmp_path / "o"), "--spec", str(spec)])
    assert result.exit_code == 1
    assert "not valid OpenAPI" in result.output
    assert not (tmp_path / "o").exists()


# --------------------------------------------------------------------------- real Chromium


@pytest.mark.chromium
def test_chromium_is_installed() -> None:
    """CI must install Debian's chromium; without it the proof cannot run, so this fails."""
    assert CHROMIUM.exists(), (
        "Debian's chromium is required for the publish proof test: "
        "apt-get install -y chromium (expected at /usr/bin/chromium)"
    )


@pytest.fixture(scope="module")
def browser_page(published: Path) -> Iterator[tuple[Any, list[str], list[str]]]:
    if not CHROMIUM.exists() or shutil.which("chromium") is None:
        pytest.fail(
            "Debian's chromium is required for the publish proof test: "
            "apt-get install -y chromium (expected at /usr/bin/chromium)"
        )
    from playwright.sync_api import sync_playwright

    console_errors: list[str] = []
    requests: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.on(
            "console",
            lambda m: console_errors.append(m.text) if m.type in ("error", "warning") else None,
        )
        page.on("pageerror", lambda e: console_errors.append(str(e)))
        page.on("request", lambda r: requests.append(r.url))
        page.goto((published / "index.html").as_uri())
        page.wait_for_load_state("load")
        yield page, console_errors, requests
        browser.close()


@pytest.mark.chromium
def test_page_shows_every_operation_and_its_schemas(
    browser_page: tuple[Any, list[str], list[str]],
) -> None:
    page, _, _ = browser_page
    spec = load_spec()
    # Every operation, #26's family included, and no other.
    assert page.locator("article.operation").count() == len(spec.operations)
    for op in spec.operations:
        article = page.locator(f"#op-{op.operation_id}")
        assert article.is_visible(), op.operation_id
        text = article.inner_text()
        assert op.path in text
        assert op.method.upper() in text
        schemas = [op.request_schema, op.success.schema]
        for schema in schemas:
            if isinstance(schema, dict) and "$ref" in schema:
                name = schema["$ref"].rsplit("/", 1)[1]
                link = article.locator(f'a[href="#schema-{name}"]').first
                assert link.is_visible(), (op.operation_id, name)
                assert page.locator(f"#schema-{name}").is_visible()
    for name in spec.schemas:
        assert page.locator(f"#schema-{name}").count() == 1, name


@pytest.mark.chromium
def test_every_internal_link_resolves(browser_page: tuple[Any, list[str], list[str]]) -> None:
    page, _, _ = browser_page
    broken = page.evaluate(
        """() => Array.from(document.querySelectorAll('a[href^="#"]'))
              .map(a => a.getAttribute('href').slice(1))
              .filter(id => !document.getElementById(decodeURIComponent(id)))"""
    )
    total = page.evaluate("() => document.querySelectorAll('a[href^=\"#\"]').length")
    assert total > 20
    assert broken == []
    # Following a link to a schema scrolls it into view.
    page.locator('#toc a[href^="#schema-"]').first.click()
    target = page.evaluate("() => location.hash")
    assert page.locator(target).is_visible()


@pytest.mark.chromium
def test_page_is_offline_and_console_clean(
    browser_page: tuple[Any, list[str], list[str]],
) -> None:
    page, console_errors, requests = browser_page
    page.fill("#filter", "Status")  # exercise the page's script
    page.fill("#filter", "")
    assert console_errors == []
    assert all(url.startswith(("file://", "data:")) for url in requests), requests
    page.evaluate("() => window.scrollTo(0, 0)")
    ARTIFACTS.mkdir(exist_ok=True)
    screenshot = ARTIFACTS / "publish-reference.png"
    page.screenshot(path=str(screenshot), full_page=False)
    assert screenshot.stat().st_size > 10_000


# --------------------------------------------------------------------------- hostile --out


def test_out_in_the_curated_spec_folder_is_refused_even_with_force() -> None:
    """Before: ``publish --out spec/modelarts_kit_spec`` overwrote the curated openapi.yaml."""
    from modelarts_kit_spec.load import SPEC_PATH

    before = SPEC_PATH.read_bytes()
    for out in (SPEC_PATH.parent, SPEC_PATH.parent / "dist"):
        for extra in ([], ["--force"]):
            result = CliRunner().invoke(cli, ["publish", "--out", str(out), *extra])
            assert result.exit_code == 2, result.output
            assert "curated spec's folder" in result.output
    assert SPEC_PATH.read_bytes() == before
    assert not (SPEC_PATH.parent / "dist").exists()


def test_out_onto_the_spec_being_read_is_refused_even_with_force(tmp_path: Path) -> None:
    spec = write_spec(tmp_path / "api", FIXTURE)
    before = spec.read_bytes()
    for extra in ([], ["--force"]):
        result = CliRunner().invoke(
            cli, ["publish", "--out", str(spec.parent), "--spec", str(spec), *extra]
        )
        assert result.exit_code == 2
        assert "would overwrite" in result.output
    assert spec.read_bytes() == before


def test_files_publish_did_not_write_are_not_replaced_without_force(tmp_path: Path) -> None:
    """Before: a hand-written index.html and CHANGELOG.md in --out were silently replaced."""
    spec = write_spec(tmp_path / "api", FIXTURE)
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("<h1>my site</h1>", encoding="utf-8")
    (out / "CHANGELOG.md").write_text("# my history\n", encoding="utf-8")
    before = snapshot(out)
    result = CliRunner().invoke(cli, ["publish", "--out", str(out), "--spec", str(spec)])
    assert result.exit_code == 2
    assert "index.html, CHANGELOG.md already exist(s) and were not written by publish" in (
        result.output
    )
    assert snapshot(out) == before
    forced = CliRunner().invoke(cli, ["publish", "--out", str(out), "--spec", str(spec), "--force"])
    assert forced.exit_code == 0, forced.output
    assert (out / "published.json").is_file()
    assert "my site" not in (out / "index.html").read_text(encoding="utf-8")
    # Now the directory is publish's own (published.json): publishing again needs no --force.
    again = CliRunner().invoke(cli, ["publish", "--out", str(out), "--spec", str(spec)])
    assert again.exit_code == 0, again.output


@pytest.mark.parametrize("out", ["/proc/modelarts-kit-x", "/proc/self/nonexistent/x"])
def test_out_on_an_unwritable_path_is_one_line(tmp_path: Path, out: str) -> None:
    spec = write_spec(tmp_path / "api", FIXTURE)
    result = CliRunner().invoke(cli, ["publish", "--out", out, "--spec", str(spec)])
    assert result.exit_code == 2
    assert result.output.startswith("error: ")
    assert len(result.output.splitlines()) == 1


def test_the_changelog_states_the_newest_sdk_release_the_ledger_checked(tmp_path: Path) -> None:
    spec = write_spec(tmp_path / "spec", FIXTURE)
    evidence = [
        {"sdk": version, "model": "Job", "attribute": "name", "says": "str"}
        for version in ("3.1.99", "3.1.206", "3.1.100")
    ]
    entry = {
        "id": "job-name",
        "pointer": "/components/schemas/Job/properties/name",
        "field": "name",
        "side": "both",
        "kind": "presence",
        "sources": evidence,
        "decision": "kept",
        "expect": {"type": "string"},
        "reason": "test",
    }
    (spec.parent / "ledger.yaml").write_text(dump_yaml({"entries": [entry]}), "utf-8")
    publish_spec(tmp_path / "out", spec_path=spec)
    changelog = (tmp_path / "out" / "CHANGELOG.md").read_text(encoding="utf-8")
    assert changelog == (
        "# Changelog\n\n## 1.0.0\n\n"
        "Vendor SDK checked (`modelarts-kit sdk diff`): `huaweicloudsdkmodelarts 3.1.206`.\n\n"
        "Initial release.\n"
    )


def _curated_copy(tmp_path: Path) -> tuple[Path, Path]:
    """The curated spec and its ledger, copied where a test may change them."""
    folder = tmp_path / "curated"
    folder.mkdir()
    spec = folder / "openapi.yaml"
    shutil.copyfile(load_spec().path, spec)
    ledger = folder / "ledger.yaml"
    shutil.copyfile(LEDGER_PATH, ledger)
    return spec, ledger


def test_a_ledger_spec_validate_refuses_is_not_published(tmp_path: Path) -> None:
    spec, ledger = _curated_copy(tmp_path)
    text = ledger.read_text(encoding="utf-8")
    first_decision = text.index("  decision: ")
    end = text.index("\n", first_decision)
    ledger.write_text(text[:first_decision] + "  decision: TODO" + text[end:], encoding="utf-8")
    validate = CliRunner().invoke(cli, ["spec", "validate", "--spec", str(spec)])
    assert validate.exit_code == 1
    assert "ledger-todo" in validate.output
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["publish", "--spec", str(spec), "--out", str(out)])
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert "ledger-todo" in lines[0]
    assert str(ledger) in lines[0]
    assert not out.exists()


@pytest.mark.parametrize(
    "command",
    [
        ["spec", "validate", "--spec"],
        ["publish", "--out", "OUT", "--spec"],
        ["generate", "--out", "OUT", "--spec"],
        ["spec", "diff", "SPEC"],
    ],
)
@pytest.mark.parametrize("text", ["foo: 1\nbar: [1, 2]\n", "swagger: '2.0'\n", "- a\n- b\n"])
def test_a_yaml_file_that_is_not_a_spec_is_the_same_usage_error_everywhere(
    tmp_path: Path, command: list[str], text: str
) -> None:
    wrong = tmp_path / "notes.yaml"
    wrong.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    args = [
        str(out) if word == "OUT" else str(wrong) if word == "SPEC" else word for word in command
    ]
    args += (
        [str(LEDGER_PATH.parent / "openapi.yaml")]
        if command[:2] == ["spec", "diff"]
        else [str(wrong)]
    )
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error: ")
    assert str(wrong) in lines[0]
    assert not out.exists()


# The curated spec as published in 2.2.0 (the three operations of the first edition).
PUBLISHED_2_2_0 = Path(__file__).parent / "fixtures" / "openapi-2.2.0.yaml"
FIRST_EDITION = {"CreateTrainingJob", "ShowTrainingJobDetails", "StopTrainingJob"}


def test_the_family_operations_are_added_since_2_2_0_and_break_no_one(tmp_path: Path) -> None:
    """#26: the changelog against 2.2.0 lists each new operation as added, none breaking."""
    result = publish_spec(tmp_path / "out", previous=str(PUBLISHED_2_2_0))
    assert result.previous_version == "2.2.0"
    new = {op.operation_id for op in load_spec().operations} - FIRST_EDITION
    assert new, "the curated spec has no operation beyond the first edition's"
    added = {c.operation for c in result.changes if c.rule == "operation-added"}
    assert added == new
    # The one change that breaks: a task's algorithm.engine took the job engine's choose-one
    # guidance (issue 31 item 6), which the generated client now enforces.
    breaking = [c for c in result.changes if c.breaking]
    assert [c.message for c in breaking if "tasks[].algorithm.engine" not in c.message] == []
    assert all(c.pointer.startswith("/components/schemas/TaskAlgorithmEngine") for c in breaking)
    changelog = (tmp_path / "out" / "CHANGELOG.md").read_text(encoding="utf-8")
    assert changelog.startswith(f"# Changelog\n\n## {result.version} (changes since 2.2.0)")
    breaks = changelog.partition("### Breaking changes")[2].split("\n### ", 1)[0]
    assert all("TaskAlgorithmEngine" in ln for ln in breaks.splitlines() if ln.startswith("- "))
    for operation in new:
        assert f"operation {operation} (" in changelog
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert all(f'id="op-{operation}"' in html for operation in new)


def test_a_previous_version_that_does_not_resolve_fails_before_any_expensive_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34 item 10: ``publish --previous BADREV`` failed only after 34 s of ledger
    check, bundling and parsing. The order, not the time: none of those steps runs."""
    from modelarts_kit_publish import publish as module

    called: list[str] = []

    def expensive(name: str) -> Any:
        def step(*args: Any, **kwargs: Any) -> Any:
            called.append(name)
            raise AssertionError(f"{name} ran before --previous was resolved")

        return step

    for name in ("_check_ledger", "bundle_document", "parse_spec", "check_out_dir"):
        monkeypatch.setattr(module, name, expensive(name))
    result = CliRunner().invoke(
        cli, ["publish", "--out", str(tmp_path / "out"), "--previous", "BADREV"]
    )
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: previous version BADREV: ")
    assert len(result.output.splitlines()) == 1
    assert called == []
    assert not (tmp_path / "out").exists()
