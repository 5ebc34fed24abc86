"""A wheel's members, read under byte caps: a hostile wheel never exhausts the memory.

A wheel is a zip archive from anywhere (a cache, a download, a user's file), and its members
declare their own sizes, which can lie. So: the wheel file is read whole but capped; the
declared sizes of all members together are capped before anything is decompressed (a zip
bomb is refused up front); a member is read only when asked for, refused when it declares
more than a member's cap, and decompressed at most to that cap (plus one byte, to see a lie);
the bytes actually decompressed are capped in total too. Every failure is a one-line
:class:`~modelarts_kit_sdk.errors.SdkError` naming the wheel, the member and the rule.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from pathlib import Path

from modelarts_kit_spec.load import InputError, decode_text

from modelarts_kit_sdk.errors import SdkError

__all__ = ["MAX_MEMBER_BYTES", "MAX_UNPACKED_BYTES", "MAX_WHEEL_BYTES", "Wheel"]

# Far above the real release (huaweicloudsdkmodelarts 3.1.219: its largest model module is
# 119 KB, the 1,278 of them 9.6 MB together), far below what hurts a small machine.
MAX_WHEEL_BYTES = 64 * 1024 * 1024
MAX_MEMBER_BYTES = 4 * 1024 * 1024
MAX_UNPACKED_BYTES = 256 * 1024 * 1024

# What zipfile and zlib raise for a member that does not unpack to what it declares: a bad
# CRC or header (BadZipFile), a corrupt or truncated stream (zlib.error, EOFError), an
# unsupported method (NotImplementedError), encryption (RuntimeError).
_UNPACK_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError)


class Wheel:
    """One wheel file, held in memory (at most :data:`MAX_WHEEL_BYTES`), read member by member."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            with open(path, "rb") as stream:
                data = stream.read(MAX_WHEEL_BYTES + 1)
        except FileNotFoundError:
            raise SdkError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise SdkError(f"{path}: not a wheel (not a zip archive)") from None
        except OSError as exc:
            raise SdkError(f"{path}: cannot read: {exc.strerror}") from None
        if len(data) > MAX_WHEEL_BYTES:
            raise SdkError(
                f"{path}: larger than {MAX_WHEEL_BYTES} bytes (rule: a wheel is at most "
                f"{MAX_WHEEL_BYTES} bytes)"
            )
        try:
            self._archive = zipfile.ZipFile(io.BytesIO(data))
        except (zipfile.BadZipFile, ValueError, EOFError):
            raise SdkError(f"{path}: not a wheel (not a zip archive)") from None
        self.members = {info.filename: info for info in self._archive.infolist()}
        self._unpacked = 0
        declared = sum(info.file_size for info in self.members.values())
        if declared > MAX_UNPACKED_BYTES:
            largest = max(self.members.values(), key=lambda info: info.file_size)
            raise SdkError(
                f"{path}: its members declare {declared} bytes unpacked ({largest.filename}: "
                f"{largest.file_size}) (rule: a wheel unpacks to at most {MAX_UNPACKED_BYTES} "
                "bytes)"
            )

    def __contains__(self, name: object) -> bool:
        return name in self.members

    def read(self, name: str) -> bytes:
        """The bytes of member ``name``, never more than :data:`MAX_MEMBER_BYTES` unpacked."""
        info = self.members.get(name)
        if info is None:
            raise SdkError(f"{self.path}: no {name}")
        where = f"{self.path}: {name}"
        if info.file_size > MAX_MEMBER_BYTES:
            raise SdkError(
                f"{where}: declares {info.file_size} bytes unpacked (rule: a member is at most "
                f"{MAX_MEMBER_BYTES} bytes)"
            )
        budget = min(MAX_MEMBER_BYTES, MAX_UNPACKED_BYTES - self._unpacked)
        try:
            with self._archive.open(info) as member:
                data = member.read(budget + 1)  # decompresses at most this much
        except _UNPACK_ERRORS as exc:
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise SdkError(
                f"{where}: cannot be unpacked ({reason}) (rule: every member of a wheel is "
                "intact and unpacks to the size it declares)"
            ) from None
        self._unpacked += len(data)
        if len(data) > budget:
            raise SdkError(
                f"{where}: unpacks to more than {budget} bytes, declaring {info.file_size} "
                f"(rule: a member is at most {MAX_MEMBER_BYTES} bytes, a wheel at most "
                f"{MAX_UNPACKED_BYTES})"
            )
        return data

    def text(self, name: str) -> str:
        """Member ``name`` as UTF-8 text (binary content and other encodings refused)."""
        try:
            return decode_text(self.read(name), f"{self.path}: {name}")
        except InputError as exc:
            raise SdkError(str(exc)) from None
