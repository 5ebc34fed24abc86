"""Where the SDK's model modules come from: the installed package, a wheel, or a version on PyPI.

Nothing here imports or installs the SDK. The installed package is located through its
distribution metadata; a wheel is read as the zip archive it is; a version is fetched with
``pip download --no-deps`` into a cache (``$MODELARTS_KIT_CACHE_DIR`` or
``~/.cache/modelarts-kit/sdk``) and then read as a wheel.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from email.parser import HeaderParser
from importlib import metadata
from pathlib import Path

from modelarts_kit_spec.load import InputError, decode_text, read_input_bytes

from modelarts_kit_sdk.errors import SdkError
from modelarts_kit_sdk.wheel import MAX_MEMBER_BYTES, Wheel

__all__ = [
    "DISTRIBUTION",
    "MODEL_PACKAGE",
    "SdkSource",
    "cache_dir",
    "from_version",
    "from_wheel",
    "installed",
    "resolve_source",
]

DISTRIBUTION = "huaweicloudsdkmodelarts"
MODEL_PACKAGE = "huaweicloudsdkmodelarts/v1/model"
CACHE_ENV = "MODELARTS_KIT_CACHE_DIR"
PIP_TIMEOUT_SECONDS = 300
# A release number such as 3.1.219 (PEP 440 public versions); anything else would be a pip
# requirement specifier, not a version.
_VERSION_RE = re.compile(r"[0-9]+(?:\.[0-9]+)*(?:(?:a|b|rc|\.post|\.dev)[0-9]+)*")


@dataclass(frozen=True)
class SdkSource:
    """One SDK release's model package, readable file by file (``job.py``, ``__init__.py``)."""

    version: str
    origin: str  # "installed (PATH)", "wheel PATH"
    read_module: Callable[[str], str] = field(repr=False, compare=False)

    @property
    def label(self) -> str:
        return f"{DISTRIBUTION} {self.version}"

    @property
    def where(self) -> str:
        """The release and where it was read (a wheel's path): how errors name it."""
        return f"{self.label} ({self.origin})"


def installed() -> SdkSource:
    """The SDK installed in this environment (located through its metadata, not imported)."""
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise SdkError(
            f"{DISTRIBUTION} is not installed; pass --sdk-version VERSION or --wheel FILE"
        ) from None
    package = Path(str(dist.locate_file(MODEL_PACKAGE)))
    if not (package / "__init__.py").is_file():
        raise SdkError(f"{DISTRIBUTION} {dist.version}: no model package at {package}")
    return SdkSource(
        version=dist.version,
        origin=f"installed ({package})",
        read_module=lambda name: _read_file(package / name),
    )


def _read_file(path: Path) -> str:
    try:
        return decode_text(read_input_bytes(path, MAX_MEMBER_BYTES), str(path))
    except InputError as exc:
        raise SdkError(str(exc)) from None


def from_wheel(path: Path | str) -> SdkSource:
    """A ``huaweicloudsdkmodelarts`` wheel, read in place (never extracted, never installed):
    each model module only when it is needed, under the byte caps of :mod:`.wheel`."""
    wheel = Wheel(Path(path))
    if f"{MODEL_PACKAGE}/__init__.py" not in wheel:
        raise SdkError(f"{wheel.path}: not a {DISTRIBUTION} wheel (no {MODEL_PACKAGE}/__init__.py)")
    version = _wheel_version(wheel)

    def read_module(name: str) -> str:
        return wheel.text(f"{MODEL_PACKAGE}/{name}")

    return SdkSource(version=version, origin=f"wheel {wheel.path}", read_module=read_module)


def _wheel_version(wheel: Wheel) -> str:
    for name in sorted(wheel.members):
        parts = name.split("/")
        if len(parts) == 2 and parts[0].endswith(".dist-info") and parts[1] == "METADATA":
            headers = HeaderParser().parsestr(wheel.read(name).decode("utf-8", "replace"))
            if headers.get("Name", "").lower() != DISTRIBUTION:
                raise SdkError(
                    f"{wheel.path}: not a {DISTRIBUTION} wheel (Name: {headers['Name']})"
                )
            return str(headers.get("Version", "unknown"))
    raise SdkError(f"{wheel.path}: not a wheel (no *.dist-info/METADATA)")


def cache_dir() -> Path:
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured)
    return Path.home() / ".cache" / "modelarts-kit" / "sdk"


def from_version(version: str, cache: Path | None = None) -> SdkSource:
    """That release's wheel: from the cache, else fetched with ``pip download --no-deps``."""
    if not _VERSION_RE.fullmatch(version):
        raise SdkError(f"--sdk-version {version!r}: not a release number (like 3.1.219)")
    directory = cache_dir() if cache is None else cache
    cached = _cached_wheel(directory, version)
    if cached is None:
        cached = _download(directory, version)
    return from_wheel(cached)


def _cached_wheel(directory: Path, version: str) -> Path | None:
    found = sorted(directory.glob(f"{DISTRIBUTION}-{version}-*.whl"))
    return found[0] if found else None


def _download(directory: Path, version: str) -> Path:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".download-", dir=directory))
    except OSError as exc:
        raise SdkError(f"{directory}: cannot create the SDK cache: {exc.strerror}") from exc
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",
        "--quiet",
        "--dest",
        str(staging),
        f"{DISTRIBUTION}=={version}",
    ]
    try:
        result = subprocess.run(
            command, capture_output=True, text=True, timeout=PIP_TIMEOUT_SECONDS, check=False
        )
        if result.returncode != 0:
            raise SdkError(
                f"{DISTRIBUTION} {version}: pip download failed: {_last_error(result.stderr)}"
            )
        wheels = sorted(staging.glob(f"{DISTRIBUTION}-{version}-*.whl"))
        if not wheels:
            raise SdkError(f"{DISTRIBUTION} {version}: pip download produced no wheel")
        target = directory / wheels[0].name
        wheels[0].replace(target)  # atomic: a half-downloaded wheel never sits in the cache
        return target
    except subprocess.TimeoutExpired:
        raise SdkError(
            f"{DISTRIBUTION} {version}: pip download took longer than {PIP_TIMEOUT_SECONDS} s"
        ) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _last_error(stderr: str) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    errors = [line.removeprefix("ERROR: ") for line in lines if line.startswith("ERROR:")]
    return (errors or lines or ["no output"])[-1]


def resolve_source(reference: str | None) -> SdkSource:
    """``None``/``installed``: the installed SDK; a file (``*.whl``): that wheel; else a version."""
    if reference is None or reference == "installed":
        return installed()
    if reference.endswith(".whl") or Path(reference).is_file():
        return from_wheel(reference)
    return from_version(reference)
