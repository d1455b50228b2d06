"""Plain value types shared by the index, the dataset and the CLI."""

from __future__ import annotations

import enum
import threading
from dataclasses import dataclass


class RecordStatus(enum.IntEnum):
    """The state of one record. ``UNVERIFIED`` means only the header was checked."""

    OK = 0
    BAD_LENGTH_CRC = 1
    BAD_DATA_CRC = 2
    TRUNCATED = 3
    UNVERIFIED = 4

    @property
    def kind(self) -> str:
        """The contract's name: ``ok``, ``bad_length_crc``, ``bad_data_crc``, ``truncated``."""
        return self.name.lower()

    @property
    def damaged(self) -> bool:
        return self not in (RecordStatus.OK, RecordStatus.UNVERIFIED)


@dataclass(frozen=True)
class GarbageRegion:
    """Bytes of the uncompressed stream that belong to no record.

    ``before_record`` is the local number of the record that follows the region.
    """

    offset: int
    size: int
    before_record: int


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, located for a person and for scripts."""

    file: str
    record: int
    offset: int
    kind: str
    message: str
    file_record: int

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "record": self.record,
            "offset": self.offset,
            "kind": self.kind,
            "message": self.message,
            "file_record": self.file_record,
        }


class Cancelled(Exception):
    """Raised by long operations when their :class:`CancelToken` is set."""


class CancelToken:
    """A thread-safe flag that long operations poll to stop early."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        """Raise :class:`Cancelled` if cancellation was requested."""
        if self._event.is_set():
            raise Cancelled()
