"""A sequential, forgiving decoder for GZIP and ZLIB streams that fail part-way.

rapidgzip refuses a whole stream whose trailer is wrong, that has bytes after its end or
that stops early; this decoder keeps every byte decoded before the failure (in a
temporary file, so memory stays bounded), and says what stopped it and where. Headers
and trailers are read here and the deflate data is inflated raw, so a bad checksum costs
no decoded byte. GZIP files of several members are followed member by member, as
TensorFlow's reader does.
"""

from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from .framing import Compression

# Where compressed bytes come from: a local path, or a function that opens a file object
# (a remote file read by range requests).
Input = str | Callable[[], BinaryIO]


def open_input(src: Input) -> BinaryIO:
    """A new file object over ``src``, positioned at its start."""
    return open(src, "rb") if isinstance(src, str) else src()  # noqa: SIM115


TRAILING = "follow the end of the"  # in the message about bytes after a stream
_IN_BLOCK = 1 << 20
_OUT_BLOCK = 1 << 22


@dataclass
class Inflated:
    """The decoded bytes (``size`` of them, in a temporary file) and why decoding
    stopped early (``problem`` None when the stream was complete and checked)."""

    file: BinaryIO | _Discard
    size: int
    problem: str | None

    @property
    def kept(self) -> BinaryIO | None:
        """The file holding the decoded bytes; None when they were only checked."""
        return None if isinstance(self.file, _Discard) else self.file

    def read_at(self, offset: int, n: int) -> bytes:
        """Up to ``n`` decoded bytes from ``offset`` (of bytes that were kept)."""
        if offset >= self.size or n <= 0 or self.kept is None:
            return b""
        return os.pread(self.kept.fileno(), min(n, self.size - offset), offset)

    def close(self) -> None:
        self.file.close()


_STEP = 512  # compressed bytes fed at a time when finding where a block fails


def _decoded(d: Any, data: bytes) -> Iterator[bytes]:
    """What ``d`` decodes from ``data``, at most ``_OUT_BLOCK`` bytes at a time."""
    chunk = d.decompress(data, _OUT_BLOCK)
    while True:
        yield chunk
        # at the end marker the rest is in unused_data (and stays in unconsumed_tail too:
        # decoding it again would give nothing, forever)
        if d.eof or not d.unconsumed_tail:
            return
        chunk = d.decompress(d.unconsumed_tail, _OUT_BLOCK)


class _Discard:
    """A file that forgets what is written to it (for checking a stream)."""

    def write(self, data: bytes) -> int:
        return len(data)

    def tell(self) -> int:
        return 0

    def seek(self, offset: int) -> int:
        return 0

    def truncate(self) -> int:
        return 0

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


class _Input:
    """The compressed bytes, read forward in blocks, with a count of what was used."""

    def __init__(self, f: BinaryIO) -> None:
        self.f, self.buf, self.used = f, b"", 0

    def take(self, n: int) -> bytes:
        while len(self.buf) < n:
            more = self.f.read(_IN_BLOCK)
            if not more:
                break
            self.buf += more
        out, self.buf = self.buf[:n], self.buf[n:]
        self.used += len(out)
        return out

    def block(self) -> bytes:
        out = self.buf or self.f.read(_IN_BLOCK)
        self.buf = b""
        self.used += len(out)
        return out

    def give_back(self, data: bytes) -> None:
        self.buf = data + self.buf
        self.used -= len(data)

    def rest(self) -> bytes:
        out = self.buf + self.f.read()
        self.buf = b""
        return out


def _gzip_header(inp: _Input) -> bool:
    """Skip one GZIP member header; False when the bytes are not one."""
    head = inp.take(10)
    if len(head) < 10 or head[:3] != b"\x1f\x8b\x08":
        return False
    flags = head[3]
    if flags & 4:  # FEXTRA
        (n,) = struct.unpack("<H", inp.take(2) or b"\0\0")
        inp.take(n)
    for bit in (8, 16):  # FNAME, FCOMMENT: zero-terminated
        if flags & bit:
            while (c := inp.take(1)) and c != b"\x00":
                pass
    if flags & 2:  # FHCRC
        inp.take(2)
    return True


def check_stream(path: Input, compression: Compression) -> str | None:
    """Decode ``path`` to its end without keeping the bytes; what is wrong, or None."""
    return inflate(path, compression, keep=False).problem


def inflate(path: Input, compression: Compression, keep: bool = True) -> Inflated:
    """Decode ``path`` from the start as far as it goes (``keep`` False: only check)."""
    import tempfile  # only when a damaged stream is decoded this way

    out = tempfile.TemporaryFile(prefix="tfr-viewer-inflated-") if keep else _Discard()
    kind = compression.value
    gzip = compression is Compression.GZIP
    size = 0
    problem: str | None = None
    with open_input(path) as src:
        inp = _Input(src)
        while True:
            if gzip and not _gzip_header(inp):
                problem = f"the file does not start with a {kind} header"
                break
            if not gzip and len(inp.take(2)) < 2:
                problem = f"the file does not start with a {kind} header"
                break
            d = zlib.decompressobj(-15)
            check = 0 if gzip else 1  # CRC-32 or Adler-32, as each format keeps it
            member = 0
            update = zlib.crc32 if gzip else zlib.adler32
            while not d.eof:
                data = inp.block()
                if not data:
                    break
                before = (d.copy(), size, member, check, out.tell())
                exc: zlib.error | None = None
                try:
                    for chunk in _decoded(d, data):
                        out.write(chunk)
                        size, member = size + len(chunk), member + len(chunk)
                        check = update(chunk, check)
                except zlib.error:
                    # zlib drops what the failing call decoded: decode the block again
                    # in small steps from where it began, to keep every byte before
                    # the damage.
                    d, size, member, check, at = before
                    out.seek(at)
                    out.truncate()
                    for step in range(0, len(data), _STEP):
                        try:
                            for chunk in _decoded(d, data[step : step + _STEP]):
                                out.write(chunk)
                                size, member = size + len(chunk), member + len(chunk)
                                check = update(chunk, check)
                        except zlib.error as error:
                            exc = error
                            break
                        if d.eof:
                            break
                if exc is not None:
                    problem = (
                        f"the {kind} stream cannot be decoded after uncompressed byte "
                        f"{size:,} (near compressed byte {inp.used:,}: {exc}); what follows "
                        "is lost"
                    )
                    break
                inp.give_back(d.unused_data)
            if problem is not None:
                break
            if not d.eof:
                problem = (
                    f"the {kind} stream ends before its end marker (after uncompressed byte "
                    f"{size:,}): the file is truncated"
                )
                break
            problem = _trailer(inp, kind, gzip, check, member, size)
            if problem is not None:
                break
            rest = inp.rest()
            if gzip and rest[:2] == b"\x1f\x8b":
                inp.give_back(rest)  # the next member
                continue
            if rest:
                what = "zero bytes" if not rest.strip(b"\x00") else "bytes"
                problem = (
                    f"{len(rest):,} {what} {TRAILING} {kind} stream (at compressed "
                    f"byte {inp.used:,}); they were ignored"
                )
            break
    out.flush()
    return Inflated(out, size, problem)


def _trailer(inp: _Input, kind: str, gzip: bool, check: int, member: int, size: int) -> str | None:
    """Compare the stored checksum (and GZIP's length) with what was decoded."""
    trailer = inp.take(8 if gzip else 4)
    if len(trailer) < (8 if gzip else 4):
        return (
            f"the {kind} stream ends before its checksum (after uncompressed byte {size:,}): "
            "the file is truncated"
        )
    if gzip:
        stored, length = struct.unpack("<II", trailer)
        good = stored == check & 0xFFFFFFFF and length == member & 0xFFFFFFFF
    else:
        good = struct.unpack(">I", trailer)[0] == check & 0xFFFFFFFF
    if good:
        return None
    return (
        f"the {kind} checksum at the end of the stream does not match (after uncompressed "
        f"byte {size:,}): some bytes may be corrupt; each record's own CRC says which"
    )
