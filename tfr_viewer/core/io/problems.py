"""Turn an index's damaged records and garbage regions into located, actionable messages."""

from __future__ import annotations

from .file_index import FileIndex
from .framing import FRAME_OVERHEAD, HEADER_SIZE, Compression
from .records import Problem, RecordStatus
from .sources import Source

_FIX = "run `tfr-viewer recover -o OUT` to save the intact records to a new file"


def describe_problems(
    path: str, index: FileIndex, start: int, source: Source | None
) -> list[Problem]:
    """All problems of one file, ordered by offset. ``start`` is its first global number."""
    compressed = source is not None and source.compression is not Compression.NONE
    where = "uncompressed byte" if compressed else "byte"
    end = index.position
    found: list[tuple[int, Problem]] = []
    for local in index.damaged_records():
        offset = index.offset(local)
        length = index.length(local)
        status = index.status(local)
        nxt = index.offset(local + 1) if local + 1 < len(index) else None
        if status is RecordStatus.BAD_LENGTH_CRC:
            text = (
                f"the CRC of the length field does not match (claimed payload {length} bytes); "
                "the record's size cannot be trusted"
            )
        elif status is RecordStatus.BAD_DATA_CRC:
            text = f"the payload CRC does not match: the {length}-byte payload is corrupt"
        else:
            avail = (nxt if nxt is not None else end) - offset
            if avail < HEADER_SIZE:
                text = f"the file ends inside the frame header ({avail} of {HEADER_SIZE} bytes)"
            else:
                text = (
                    f"the frame claims {length} payload bytes but only "
                    f"{max(0, avail - FRAME_OVERHEAD)} follow"
                    + (" before the next valid frame" if nxt is not None else "; truncated file")
                )
        msg = f"{path}: record {local} at {where} {offset}: {text}; {_FIX}"
        found.append((offset, Problem(path, start + local, offset, status.kind, msg, local)))
    for g in index.garbage:
        between = (
            f"before record {g.before_record}"
            if g.before_record < len(index)
            else "after the last record"
        )
        if g.before_record > 0 and g.before_record < len(index):
            between = f"between records {g.before_record - 1} and {g.before_record}"
        msg = (
            f"{path}: {g.size} bytes at {where} {g.offset} belong to no record ({between}); "
            f"they were skipped; {_FIX}"
        )
        found.append(
            (
                g.offset,
                Problem(path, start + g.before_record, g.offset, "garbage", msg, g.before_record),
            )
        )
    if index.stream_error:
        found.append(
            (
                end,
                Problem(
                    path, start + len(index), end, "truncated", f"{index.stream_error}", len(index)
                ),
            )
        )
    found.sort(key=lambda item: item[0])
    return [p for _, p in found]
