"""Tell a file's compression and whether it is a TFRecord file from its first bytes.

Compression is detected from the content, never from the name. This module needs
neither numpy nor a decoder, so that commands which only look up one record stay quick
to start.
"""

from __future__ import annotations

import zlib

from .framing import HEADER_SIZE, Compression, decode_header

SNIFF_BYTES = 64


def detect_compression(head: bytes) -> Compression:
    """Guess the compression of a file from its first bytes.

    A head that starts with a valid frame header is plain even if it also looks like a
    compressed header. Otherwise the GZIP magic ``1f 8b`` or a valid zlib header that
    really inflates means compressed. Anything else is treated as plain (and damaged).
    """
    if len(head) >= HEADER_SIZE and decode_header(head[:HEADER_SIZE])[1]:
        return Compression.NONE
    if head[:2] == b"\x1f\x8b" and _inflates(head, wbits=31):
        return Compression.GZIP
    if len(head) >= 2 and head[0] & 0x0F == 8 and head[0] >> 4 <= 7:
        if (head[0] * 256 + head[1]) % 31 == 0 and _inflates(head, wbits=15):
            return Compression.ZLIB
    return Compression.NONE


def _inflates(head: bytes, wbits: int) -> bool:
    try:
        zlib.decompressobj(wbits).decompress(head)
    except zlib.error:
        return False
    return True


def looks_like_tfrecord(head: bytes) -> bool:
    """True when ``head`` (a file's first bytes) starts with a valid frame header, plain
    or inside a GZIP or ZLIB stream. Used to find TFRecord files whatever their name."""
    compression = detect_compression(head)
    if compression is Compression.NONE:
        return len(head) >= HEADER_SIZE and decode_header(head[:HEADER_SIZE])[1]
    try:
        inflated = zlib.decompressobj(31 if compression is Compression.GZIP else 15).decompress(
            head, HEADER_SIZE
        )
    except zlib.error:
        return False
    return len(inflated) < HEADER_SIZE or decode_header(inflated[:HEADER_SIZE])[1]


def sniff(path: str) -> Compression:
    """The compression of the file at ``path``."""
    with open(path, "rb") as f:
        return detect_compression(f.read(SNIFF_BYTES))
