"""Where the persistent index cache lives and how one of its entries is named and
checked, without numpy: :mod:`.index_cache` builds indexes from entries, and
:mod:`.cached_record` finds one record in them for a quick ``show``.

Entries live in the platform's cache directory (``$XDG_CACHE_HOME/tfr-viewer/index`` on
Linux, ``~/Library/Caches/tfr-viewer/index`` on macOS, ``%LOCALAPPDATA%\\tfr-viewer\\
Cache\\index`` on Windows; ``TFR_VIEWER_CACHE_DIR`` overrides). An entry is keyed by the
file's real path, size, modification and change times and inode, and is used only
while all of them still match. ``TFR_VIEWER_NO_CACHE=1`` (the CLI's ``--no-cache``)
turns the cache off.

An entry is one file: a magic line, the length of a JSON header, the header (identity,
flags, the name, type and size of each array) and the raw arrays, all covered by a
CRC32C at the end.
"""

from __future__ import annotations

import json
import os
import sys
import zlib
from pathlib import Path
from typing import Any

from ..crc32c import value as crc32c
from ..text import whole_number

VERSION = 2
SUFFIX = ".tfrindex"
EXTRA = ".tfrextra"  # other per-file results (statistics), kept by the same rules
MAGIC = b"tfr-viewer index\n"


def cache_dir() -> Path:
    """Where entries are kept (not created here)."""
    override = os.environ.get("TFR_VIEWER_CACHE_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
        return base / "tfr-viewer" / "Cache" / "index"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "tfr-viewer" / "index"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tfr-viewer" / "index"


def enabled() -> bool:
    """Whether the persistent cache is read and written (``TFR_VIEWER_NO_CACHE`` unset
    or 0)."""
    return os.environ.get("TFR_VIEWER_NO_CACHE", "").strip() in ("", "0")


def turn_off() -> None:
    """Neither read nor write the cache from now on, in this process and in the worker
    processes it starts (they inherit the setting)."""
    os.environ["TFR_VIEWER_NO_CACHE"] = "1"


def int_env(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


def identity(path: str) -> dict[str, Any] | None:
    """What must still match for an entry to be used; None when it cannot be told (a
    missing file, a remote object whose server gives no version tag)."""
    from .remote import is_url

    if is_url(path):
        from .remote import stat

        found = stat(path)
        if found.tag is None:
            return None
        return {"url": path, "size": found.size, "tag": found.tag, "version": VERSION}
    try:
        st = os.stat(path)
    except OSError:
        return None
    return {
        "path": os.path.realpath(path),
        "size": st.st_size,
        "mtime_ns": st.st_mtime_ns,
        "ctime_ns": st.st_ctime_ns,  # changes with every write, even if mtime is put back
        "inode": st.st_ino,
        "version": VERSION,
    }


def worth_keeping(found: dict[str, Any] | None) -> bool:
    """Local files from ``TFR_VIEWER_CACHE_MIN_BYTES`` on (default 8 MB); remote ones
    always (every scan of them costs requests)."""
    if found is None:
        return False
    return "url" in found or found["size"] >= int_env("TFR_VIEWER_CACHE_MIN_BYTES", 8 << 20)


def entry_path(key: dict[str, Any], suffix: str = SUFFIX) -> Path:
    """The entry's name: a digest of ``key`` (a collision only costs a rescan, since the
    identity stored inside is compared on load)."""
    text = json.dumps(key, sort_keys=True).encode()
    digest = f"{zlib.crc32(text):08x}{crc32c(text):08x}{zlib.adler32(text):08x}"
    return cache_dir() / (digest + suffix)


def _item_size(dtype: str) -> int | None:
    """Bytes per element of a numpy type string (``<u4``, ``|b1``, ``<f8``, ``|S16``,
    ``<U3``), or None for one an entry never holds."""
    code = dtype.lstrip("<>|=")
    if code == "?":
        return 1
    size = whole_number(code[1:], 9) if len(code) >= 2 else None
    if code[:1] not in set("biufcSUV") or size is None or size < 0:
        return None
    return size * (4 if code[0] == "U" else 1)


def parse(data: bytes) -> tuple[dict[str, Any], list[tuple[str, str, int, int]]] | None:
    """The header of a whole, intact entry and where its arrays lie, as ``(name, dtype,
    count, byte offset)``; None when ``data`` is not one (wrong magic, CRC, sizes)."""
    if len(data) < len(MAGIC) + 12 or not data.startswith(MAGIC):
        return None
    if crc32c(data[:-4]) != int.from_bytes(data[-4:], "little"):
        return None
    at = len(MAGIC) + 8
    end = at + int.from_bytes(data[len(MAGIC) : at], "little")
    try:
        meta = json.loads(data[at:end])
        layout = []
        for name, dtype, size in meta["arrays"]:
            item = _item_size(str(dtype))
            if item is None or int(size) < 0:
                return None
            layout.append((str(name), str(dtype), int(size), end))
            end += item * int(size)
    except (ValueError, TypeError, KeyError, RecursionError):
        return None  # an intact CRC over a header that is not ours
    if not isinstance(meta, dict):
        return None
    if end != len(data) - 4:
        return None
    return meta, layout
