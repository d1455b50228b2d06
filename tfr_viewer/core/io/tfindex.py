"""The ``.tfindex`` format: one line per record, ``start_offset total_frame_length``,
in file order. It is the index the PyTorch ``tfrecord`` package reads and the one
NVIDIA DALI's TFRecord reader takes (``tfrecord2idx`` writes it); this module writes it
(:func:`index_text`) and checks one against its file (:func:`check_index`), so that a
misaligned index is named line by line instead of failing inside a reader."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ..text import whole_number
from .framing import FRAME_OVERHEAD

MAX_INDEX_FILE = 1 << 31  # bytes: an index of about 100 million records
SHOWN = 20  # problems listed one by one; the rest are counted


def index_text(offsets: np.ndarray, lengths: np.ndarray) -> str:
    """The index of records starting at ``offsets`` with payloads of ``lengths``."""
    lines = np.char.add(
        np.char.add(offsets.astype(np.uint64).astype(str), " "),
        (lengths.astype(np.uint64) + FRAME_OVERHEAD).astype(str),
    )
    return "\n".join(lines.tolist()) + "\n" if len(lines) else ""


@dataclass(frozen=True)
class IndexProblem:
    """One way the index disagrees with its file: ``line`` (from 1; None for the whole
    index), ``kind`` and what is wrong."""

    line: int | None
    kind: str  # unreadable_line, wrong_offset, wrong_size, missing_records, extra_lines
    message: str

    def to_json(self) -> dict[str, object]:
        return {"line": self.line, "kind": self.kind, "message": self.message}


def _lines(text: str | bytes) -> tuple[int, Iterator[str]]:
    """The number of lines of ``text`` (blank lines at its end left out) and the lines
    one by one: an index of 100 MB is never held as millions of strings at once."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    end = len(data)
    while end and data[end - 1] in b" \t\r\n":
        end -= 1
    count = data.count(b"\n", 0, end) + 1 if end else 0

    def each() -> Iterator[str]:
        start = 0
        while start < end:
            stop = data.find(b"\n", start, end)
            stop = end if stop < 0 else stop
            yield data[start:stop].decode("utf-8", "replace").rstrip("\r")
            start = stop + 1

    return count, each()


def check_index(text: str | bytes, offsets: np.ndarray, lengths: np.ndarray) -> list[IndexProblem]:
    """How ``text`` (an index) disagrees with a file whose intact records start at
    ``offsets`` with payloads of ``lengths``: at most :data:`SHOWN` line problems, then
    one that counts the rest; none when every line is a record, in order, and every
    record has its line."""
    sizes = lengths.astype(np.int64) + FRAME_OVERHEAD
    out: list[IndexProblem] = []
    more = 0
    count, lines = _lines(text)

    def say(problem: IndexProblem) -> None:
        nonlocal more
        if len(out) < SHOWN:
            out.append(problem)
        else:
            more += 1

    for n, line in enumerate(lines, 1):
        words = line.split()
        numbers = [whole_number(w) for w in words]
        if len(words) != 2 or any(n is None or n < 0 for n in numbers):
            say(
                IndexProblem(
                    n, "unreadable_line", f"line {n} is not two whole numbers 'offset size'"
                )
            )
            continue
        offset, size = int(words[0]), int(words[1])  # ASCII digits, at most 20
        if n > len(offsets):
            continue  # counted below
        want_offset, want_size = int(offsets[n - 1]), int(sizes[n - 1])
        if offset != want_offset:
            say(
                IndexProblem(
                    n,
                    "wrong_offset",
                    f"line {n} says a record starts at byte {offset:,}; record {n - 1} starts "
                    f"at {want_offset:,}",
                )
            )
        elif size != want_size:
            say(
                IndexProblem(
                    n,
                    "wrong_size",
                    f"line {n} says record {n - 1} takes {size:,} bytes; its frame takes "
                    f"{want_size:,} (8 length, 4 CRC, the payload, 4 CRC)",
                )
            )
    if count < len(offsets):
        first = int(offsets[count])
        say(
            IndexProblem(
                None,
                "missing_records",
                f"the index lists {count:,} records; the file holds {len(offsets):,} intact "
                f"ones: the first missing is record {count} at byte {first:,}",
            )
        )
    elif count > len(offsets):
        say(
            IndexProblem(
                len(offsets) + 1,
                "extra_lines",
                f"the index lists {count:,} records; the file holds {len(offsets):,} intact ones",
            )
        )
    if more:
        out.append(IndexProblem(None, "more", f"… and {more:,} more problems"))
    return out
