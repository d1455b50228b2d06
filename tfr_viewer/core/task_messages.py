"""The messages a child-process job (:mod:`tfr_viewer.app.jobs`) sends to the window: frozen
dataclasses of plain data, matched by type on the other side (``match msg: case
Progress(done, total): ...``).

Every job ends with :class:`Done` or :class:`Failed`. A failure is classified where it
is caught (:meth:`Failed.of`), so that the window decides what to offer (retry a read
over the network, say what changed) from its ``kind``, never from the text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from .io.index import IndexChunk
from .io.remote import Transferred


@dataclass(frozen=True)
class Chunk:
    """Records of file ``file`` found by the index scan (files come in order, and each
    sends at least one)."""

    file: int
    chunk: IndexChunk


@dataclass(frozen=True)
class SeekPoints:
    """Compressed file ``file``'s seek points, written to ``path``."""

    file: int
    path: str


@dataclass(frozen=True)
class Inflated:
    """The decoded bytes of compressed file ``file`` (a stream rapidgzip refused),
    written to ``path``: ``size`` bytes, and why decoding stopped early."""

    file: int
    path: str
    size: int
    problem: str | None


@dataclass(frozen=True)
class Indexed:
    """Every file's header index has been sent."""


@dataclass(frozen=True)
class Statuses:
    """Checked statuses of file ``file``'s records ``start ..`` (parts of a file may
    come in any order)."""

    file: int
    start: int
    statuses: np.ndarray


@dataclass(frozen=True)
class FileVerified:
    """Every payload CRC of file ``file`` has been sent."""

    file: int


@dataclass(frozen=True)
class Transfer:
    """Figures of the remote reads so far."""

    figures: Transferred


@dataclass(frozen=True)
class Progress:
    """``done`` of ``total`` (records, or images)."""

    done: int
    total: int


@dataclass(frozen=True)
class Phase:
    """What the job does now, in a few words."""

    text: str


@dataclass(frozen=True)
class Partial:
    """A part of the job's result, sent before the end (a filter's matches in one
    block: global record numbers)."""

    result: Any


@dataclass(frozen=True)
class Done:
    """The job ended well; ``result`` is what it made (a summary, statistics, findings,
    a count), ``verified`` for an index whose CRCs were all checked."""

    result: Any = None
    verified: bool = False


FailureKind = Literal["network", "changed", "input", "disk", "internal"]


@dataclass(frozen=True)
class Failed:
    """The job stopped: ``kind`` says what failed, ``message`` says what and where in
    one line, ``retryable`` when trying again may work (a network read, a file that
    was being written)."""

    kind: FailureKind
    message: str
    retryable: bool = False

    @classmethod
    def of(cls, exc: BaseException) -> Failed:
        """The failure an exception caught in a job stands for."""
        from .io.source_errors import FileChanged, RemoteError
        from .user_error import UserError

        text = str(exc) or type(exc).__name__
        if isinstance(exc, RemoteError) or isinstance(exc, TimeoutError | ConnectionError):
            return cls("network", text, True)
        if _is_client_error(exc):
            return cls("network", text, True)
        if isinstance(exc, FileChanged):
            return cls("changed", text, True)
        if isinstance(exc, UserError):
            return cls("input", text)
        if isinstance(exc, OSError):
            return cls("disk", text)
        return cls("internal", f"{type(exc).__name__}: {text}")


def _is_client_error(exc: BaseException) -> bool:
    """Whether ``exc`` is aiohttp's (fsspec's http) connection failure, without
    importing aiohttp when it was never loaded."""
    import sys

    aiohttp = sys.modules.get("aiohttp")
    return aiohttp is not None and isinstance(exc, aiohttp.ClientError)
