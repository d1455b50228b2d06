"""Plain value types shared by the index, the dataset and the CLI."""

from __future__ import annotations

import enum
import threading
from dataclasses import dataclass

from .. import fast


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


fast.agree(
    FRAME_OK=RecordStatus.OK,
    FRAME_BAD_DATA_CRC=RecordStatus.BAD_DATA_CRC,
    FRAME_UNVERIFIED=RecordStatus.UNVERIFIED,
)

STATUS_HELP = {
    "ok": "Intact: the length and the payload both match their CRC32C checksums.",
    "unverified": "Only the frame header has been checked so far; the payload checksum "
    "is checked next.",
    "bad_length_crc": "The checksum of the length field does not match, so the record's size "
    "cannot be trusted. The bytes up to the next valid record are shown.",
    "bad_data_crc": "The payload does not match its checksum: some of its bytes are "
    "corrupt. It is shown as it is, but should not be trusted.",
    "truncated": "The frame claims more bytes than follow it: the file (or compressed "
    "stream) ends, or the next valid record starts, before this one is complete.",
    "garbage": "Bytes between records that belong to no record; they were skipped. The "
    "records around them are intact.",
    "deleted": "Deleted in this window: left out of exports. Restore it with Ctrl+Shift+R.",
}


def damage_text(kind: str) -> str:
    """What a damaged record's status means for what is shown of it, in one line."""
    return f"this record is damaged ({kind}): {STATUS_HELP.get(kind, '')}"


@dataclass(frozen=True)
class GarbageRegion:
    """Bytes of the uncompressed stream that belong to no record.

    ``before_record`` is the local number of the record that follows the region.
    """

    offset: int
    size: int
    before_record: int


def record_words(number: int, local: int, file: str, several_files: bool) -> str:
    """How every message names a record: by its global number and, in a dataset of
    several files, by its number within its file too, in these words:
    ``record 119 (record 20 of train-00001-of-00004)``."""
    if not several_files:
        return f"record {number}"
    return f"record {number} (record {local} of {file.rstrip('/').rsplit('/', 1)[-1]})"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, located for a person and for scripts."""

    file: str
    record: int
    offset: int
    kind: str
    message: str
    file_record: int
    region: bool = False  # bytes that belong to no record (garbage, a broken stream)
    size: int = 0  # of a region, in bytes (0 when unknown: the rest of a broken stream)
    what: str = ""  # what is wrong and where in the file (no file name, no advice)
    hint: str = ""  # what to do
    savable: bool = True  # some record of the file is intact (recover can save it)

    def without_hint(self) -> str:
        """The message without the advice it ends with."""
        return f"{self.file}: {self.what}" if self.what else self.message

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
