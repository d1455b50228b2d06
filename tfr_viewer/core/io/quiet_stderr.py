"""rapidgzip writes some of its own messages to the process's standard error (fd 2)
just before it raises, in the decoding call itself ("Unexpected end of file when getting
block at … on demand", "[Warning] …"). The failure is reported as a problem of the file
instead, so those lines must not reach the user's terminal, while everything else
written meanwhile (another thread's traceback, Qt's warnings) must.

:func:`quiet_stderr` wraps only such a call: fd 2 points at a private temporary file
for its duration; afterwards every line that is not one of rapidgzip's messages is
written to the real standard error, in order. Calls are serialized by one lock.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from collections.abc import Iterator

# rapidgzip's own lines (its C++ library prints them to std::cerr)
RAPIDGZIP_LINE = re.compile(
    rb"^(Unexpected end of file when getting block at .*|\[(Warning|Info|Error)\] .*)$"
)

_LOCK = threading.Lock()
_SPOOL: list[int] = []  # the temporary's descriptor, made on first use


def _spool() -> int:
    if not _SPOOL:
        import tempfile

        fd, name = tempfile.mkstemp(prefix="tfr-viewer-stderr-")
        os.unlink(name)  # nobody else can open it; it goes with the descriptor
        _SPOOL.append(fd)
    return _SPOOL[0]


def keep(captured: bytes) -> bytes:
    """``captured`` without rapidgzip's lines."""
    lines = captured.splitlines(keepends=True)
    return b"".join(line for line in lines if not RAPIDGZIP_LINE.match(line.rstrip(b"\r\n")))


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """Keep rapidgzip's messages off standard error during the ``with`` body."""
    with _LOCK:
        try:
            spool = _spool()
            os.ftruncate(spool, 0)
            os.lseek(spool, 0, os.SEEK_SET)
            saved = os.dup(2)
        except OSError:
            yield  # no usable stderr or temporary: nothing to protect
            return
        os.dup2(spool, 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            with contextlib.suppress(OSError):
                size = os.fstat(spool).st_size
                if size:
                    rest = keep(os.pread(spool, size, 0))
                    while rest:
                        rest = rest[os.write(2, rest) :]
