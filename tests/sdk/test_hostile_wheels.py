"""Hostile wheels for ``sdk diff --wheel`` and ``sdk compare``: every one is exit 2 with one
``error:`` line naming the wheel, the member and the rule, in bounded memory and time.

Each command runs in a subprocess under a memory limit (``RLIMIT_AS``) that also reports its
peak RSS, so a regression fails the test instead of exhausting the machine. The 3 GiB member
is never written out: its deflate stream is one compressed MiB of zeros repeated (a full
flush makes each block independent), 3 MB on disk.
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import textwrap
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from modelarts_kit_sdk.sources import MODEL_PACKAGE
from modelarts_kit_sdk.wheel import MAX_MEMBER_BYTES, MAX_UNPACKED_BYTES

from .support import Models, fake_wheel, model_module
from .test_diff import BASE, variant

MIB = 1024 * 1024
MEMORY_LIMIT = 1536 * MIB  # far above a normal run, far below a 3 GiB member
# A normal run peaks near 40-60 MiB; main reached 1 GiB (and MemoryError under the cap). One
# full CI run measured 543 MiB for these cases (not reproduced alone): the bound leaves room.
PEAK_RSS_LIMIT = 800 * MIB
TIMEOUT = 120
THING = f"{MODEL_PACKAGE}/thing.py"  # a module every command reads (CreateThing's body)
UNUSED = f"{MODEL_PACKAGE}/unused.py"  # a module no class of the package imports

RUNNER = textwrap.dedent(
    """
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    from click.testing import CliRunner
    from modelarts_kit.main import cli
    results = {{}}
    for name, arguments in json.loads(sys.argv[1]).items():
        result = CliRunner().invoke(cli, arguments)
        results[name] = [result.exit_code, result.output, repr(result.exception)]
    print(json.dumps({{"results": results,
                      "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}}))
    """
)


# -- building hostile wheels ------------------------------------------------------------------


def deflated_zeros(mebibytes: int) -> bytes:
    """A raw deflate stream of ``mebibytes`` MiB of zeros, built without holding them."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = compressor.compress(bytes(MIB)) + compressor.flush(zlib.Z_FULL_FLUSH)
    return block * mebibytes + compressor.flush()


def add_member(wheel: Path, name: str, content: bytes) -> None:
    with zipfile.ZipFile(wheel, "a") as archive:
        archive.writestr(zipfile.ZipInfo(name), content, compress_type=zipfile.ZIP_STORED)


def patch_member(
    wheel: Path,
    name: str,
    *,
    deflated: bool = False,
    crc: int | None = None,
    file_size: int | None = None,
) -> None:
    """Rewrite what member ``name`` declares, in its local header and its directory entry."""
    data = bytearray(wheel.read_bytes())
    with zipfile.ZipFile(wheel) as archive:
        info = archive.getinfo(name)
    local = info.header_offset
    central = data.find(b"PK\x01\x02")
    while data[central + 46 : central + 46 + len(name)] != name.encode():
        central = data.find(b"PK\x01\x02", central + 4)
        assert central != -1, name
    for method_at, crc_at, size_at in ((local + 8, local + 14, local + 22),
                                       (central + 10, central + 16, central + 24)):  # fmt: skip
        if deflated:
            struct.pack_into("<H", data, method_at, zipfile.ZIP_DEFLATED)
        if crc is not None:
            struct.pack_into("<I", data, crc_at, crc)
        if file_size is not None:
            struct.pack_into("<I", data, size_at, file_size)
    wheel.write_bytes(bytes(data))


def zeros_member(wheel: Path, name: str, mebibytes: int, declared: int | None = None) -> None:
    """Member ``name``: ``mebibytes`` MiB of zeros, deflated, declaring ``declared`` bytes."""
    add_member(wheel, name, deflated_zeros(mebibytes))
    size = mebibytes * MIB if declared is None else declared
    patch_member(wheel, name, deflated=True, file_size=size, crc=zlib.crc32(b""))


def replace_member(wheel: Path, name: str, content: bytes) -> None:
    """The wheel with member ``name`` holding ``content`` (deflated) instead."""
    with zipfile.ZipFile(wheel) as archive:
        kept = [(info, archive.read(info)) for info in archive.infolist() if info.filename != name]
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for info, data in kept:
            archive.writestr(info, data)
        archive.writestr(name, content)


def chain(length: int) -> Models:
    """BASE with ``Inner`` holding a chain of ``length`` models, each inside the previous."""
    models = variant(Inner={"depth": "int", "next": "Link0"})
    for index in range(length):
        models[f"Link{index}"] = {"value": "str", "next": f"Link{index + 1}"}
    models[f"Link{length}"] = {"value": "str"}
    return models


def without_members(wheel: Path, *names: str) -> None:
    with zipfile.ZipFile(wheel) as archive:
        kept = [(info, archive.read(info)) for info in archive.infolist()]
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for info, data in kept:
            if info.filename not in names:
                archive.writestr(info, data)


Build = Callable[[Path], Path]


def _base(tmp: Path) -> Path:
    return fake_wheel(tmp, BASE)


def _unused_3_gib(tmp: Path) -> Path:
    wheel = _base(tmp)
    zeros_member(wheel, UNUSED, 3 * 1024)
    return wheel


def _used_8_mib(tmp: Path) -> Path:
    wheel = _base(tmp)
    without_members(wheel, THING)
    zeros_member(wheel, THING, 8)
    return wheel


def _lying_size(tmp: Path) -> Path:
    wheel = _base(tmp)
    without_members(wheel, THING)
    zeros_member(wheel, THING, 3 * 1024, declared=100)
    return wheel


def _bad_crc(tmp: Path) -> Path:
    wheel = _base(tmp)
    patch_member(wheel, THING, crc=0x12345678)
    return wheel


def _invalid_utf8(tmp: Path) -> Path:
    wheel = _base(tmp)
    module = model_module("Thing", BASE["Thing"]).replace("# coding: utf-8", "# caf\udcff")
    replace_member(wheel, THING, module.encode("utf-8", "surrogateescape"))
    return wheel


def _type_5000_deep(tmp: Path) -> Path:
    deep = "list[" * 5000 + "Part" + "]" * 5000
    return fake_wheel(tmp, variant(Thing={**BASE["Thing"], "parts": deep}))


def _expression_too_deep_to_parse(tmp: Path) -> Path:
    wheel = _base(tmp)
    module = model_module("Thing", BASE["Thing"]) + "x = a" + ".b" * 100_000 + "\n"
    replace_member(wheel, THING, module.encode())
    return wheel


def _models_1500_deep(tmp: Path) -> Path:
    return fake_wheel(tmp, chain(1500))


def _not_a_zip(tmp: Path) -> Path:
    wheel = tmp / "huaweicloudsdkmodelarts-0.0.1-py3-none-any.whl"
    wheel.write_bytes(b"PK\x03\x04" + bytes(200))
    return wheel


def _truncated(tmp: Path) -> Path:
    wheel = _base(tmp)
    wheel.write_bytes(wheel.read_bytes()[: wheel.stat().st_size // 2])
    return wheel


# case -> (how to build it, the member its error names, the rule it states)
CASES: dict[str, tuple[Build, str | None, str]] = {
    "unused 3 GiB module": (
        _unused_3_gib,
        UNUSED,
        f"rule: a wheel unpacks to at most {MAX_UNPACKED_BYTES} bytes",
    ),
    "used 8 MiB module": (
        _used_8_mib,
        THING,
        f"rule: a member is at most {MAX_MEMBER_BYTES} bytes",
    ),
    "3 GiB declaring 100 bytes": (
        _lying_size,
        THING,
        "rule: every member of a wheel is intact and unpacks to the size it declares",
    ),
    "bad CRC": (
        _bad_crc,
        THING,
        "rule: every member of a wheel is intact and unpacks to the size it declares",
    ),
    "invalid UTF-8": (_invalid_utf8, THING, "not UTF-8 text"),
    "openapi_types nested 5,000 deep": (
        _type_5000_deep,
        f"{THING}: Thing.parts",
        "rule: a type is at most 16 levels deep",
    ),
    "module too deep to parse": (
        _expression_too_deep_to_parse,
        THING,
        "nested too deeply to parse",
    ),
    "not a zip": (_not_a_zip, None, "not a wheel (not a zip archive)"),
    "truncated": (_truncated, None, "not a wheel (not a zip archive)"),
}
# sdk compare walks the SDK's own models (sdk diff follows the spec, which stops a chain).
COMPARE_ONLY: dict[str, tuple[Build, str | None, str]] = {
    "models nested 1,500 deep": (
        _models_1500_deep,
        "(Thing -> Inner -> Link0 -> ... -> Link62)",
        "rule: models are at most 64 levels deep",
    ),
}


def run_isolated(cases: dict[str, list[str]]) -> tuple[dict[str, list[object]], int]:
    completed = subprocess.run(
        [sys.executable, "-c", RUNNER.format(limit=MEMORY_LIMIT), json.dumps(cases)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    report = json.loads(completed.stdout.strip().splitlines()[-1])
    return report["results"], report["peak_rss"]


@pytest.mark.parametrize("command", ["sdk diff --wheel", "sdk compare"])
def test_every_hostile_wheel_is_one_line_exit_2(
    tmp_path: Path, small_spec: Path, command: str
) -> None:
    """Before: the 3 GiB module was read whole (MemoryError), the deep type and the model chain
    raised RecursionError, the bad CRC BadZipFile, invalid UTF-8 UnicodeDecodeError, the deep
    expression MemoryError: tracebacks, exit 1."""
    good = fake_wheel(tmp_path / "good", BASE, version="0.0.0")
    cases = {**CASES, **COMPARE_ONLY} if command == "sdk compare" else CASES
    wheels = {}
    arguments = {}
    for name, (build, _, _) in cases.items():
        folder = tmp_path / name.replace(" ", "-").replace(",", "")
        folder.mkdir()
        wheels[name] = wheel = build(folder)
        if command == "sdk compare":
            arguments[name] = ["sdk", "compare", str(good), str(wheel), "--spec", str(small_spec)]
        else:
            arguments[name] = ["sdk", "diff", "--wheel", str(wheel), "--spec", str(small_spec)]
    results, peak_rss = run_isolated(arguments)
    for name, (code, output, exception) in results.items():
        _, member, rule = cases[name]
        where = f"{command} / {name}: {str(output)[-500:]!r} {exception}"
        assert code == 2, where
        assert "Traceback" not in str(output), where
        errors = [line for line in str(output).splitlines() if line.startswith("error: ")]
        assert len(errors) == 1, where
        assert str(wheels[name]) in errors[0], where
        assert member is None or member in errors[0], where
        assert rule in errors[0], where
    assert peak_rss < PEAK_RSS_LIMIT, f"peak RSS {peak_rss / MIB:.0f} MiB"


def test_only_the_members_a_command_needs_are_read(tmp_path: Path, small_spec: Path) -> None:
    """A wheel whose unused module is corrupt and not UTF-8 still compares: nothing reads it."""
    wheel = _base(tmp_path)
    add_member(wheel, UNUSED, b"\xff\xfe not text")
    patch_member(wheel, UNUSED, crc=0x12345678)
    results, _ = run_isolated(
        {
            "diff": ["sdk", "diff", "--wheel", str(wheel), "--spec", str(small_spec)],
            "compare": ["sdk", "compare", str(wheel), str(wheel), "--spec", str(small_spec)],
        }
    )
    assert results["diff"][0] == 0, results["diff"]
    assert results["compare"][0] == 0, results["compare"]
