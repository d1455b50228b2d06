"""Turn an index's damaged records and garbage regions into located, actionable messages."""

from __future__ import annotations

from ..user_error import UserError
from .dataset_warnings import DatasetWarning
from .file_index import FileIndex
from .framing import HEADER_SIZE, Compression
from .inflate import TRAILING
from .look_alikes import identify
from .records import Problem, RecordStatus, record_words
from .sources import Source

_FIX = "run `tfr-viewer recover -o OUT` to save the intact records to a new file"
_NOTHING_TO_SAVE = "no record of this file is intact, so nothing can be saved from it"


class NotATFRecord(UserError):
    """A file named as input that is not a TFRecord file at all."""


def not_a_tfrecord(path: str, index: FileIndex, source: Source | None) -> DatasetWarning | None:
    """Why a completely indexed file is not a TFRecord file at all (no record, but bytes
    that are not frames), or None when it is one (an empty file is a valid one)."""
    if len(index) or not index.complete or (index.position == 0 and not index.stream_error):
        return None
    compressed = source is not None and source.compression is not Compression.NONE
    if index.stream_error and index.position < HEADER_SIZE:
        return DatasetWarning(
            "not_tfrecord",
            path,
            f"not a TFRecord file: its {source.compression.value if source else ''} "
            f"stream does not decode ({index.stream_error}); check that the file is complete",
        )
    if source is not None and (what := identify(source.read_at, index.position)) is not None:
        return DatasetWarning("not_tfrecord", path, f"not a TFRecord file: {what}")
    where = "uncompressed byte 0" if compressed else "byte 0"
    return DatasetWarning(
        "not_tfrecord",
        path,
        f"not a TFRecord file: the length CRC at {where} does not match, and no valid frame "
        f"follows anywhere in its {index.position:,} bytes; check the path (TFRecord "
        "files start with a frame header, or with a GZIP or ZLIB stream of one)",
    )


def describe_problems(
    path: str,
    index: FileIndex,
    start: int,
    source: Source | None,
    records: bool = True,
    several_files: bool = False,
) -> list[Problem]:
    """All problems of one file, ordered by offset. ``start`` is its first global number;
    records are named by :func:`record_words` (``several_files``: the dataset has more
    than this one). With ``records`` False, only the regions that belong to no record."""
    compressed = source is not None and source.compression is not Compression.NONE
    where = "uncompressed byte" if compressed else "byte"
    end = index.position
    found: list[tuple[int, Problem]] = []
    damaged = list(index.damaged_records()) if records else []
    intact = len(index) - (len(damaged) if records else sum(1 for _ in index.damaged_records()))
    fix = _FIX if intact else _NOTHING_TO_SAVE
    for local in damaged:
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
                    f"{max(0, avail - HEADER_SIZE)} follow"
                    + (" before the next valid frame" if nxt is not None else "; truncated file")
                )
        name = record_words(start + local, local, path, several_files)
        what = f"{name} at {where} {offset}: {text}"
        problem = Problem(
            path,
            start + local,
            offset,
            status.kind,
            f"{path}: {what}; {fix}",
            local,
            what=what,
            hint=fix,
            savable=bool(intact),
        )
        found.append((offset, problem))
    for g in index.garbage:
        after = record_words(start + g.before_record, g.before_record, path, several_files)
        between = f"before {after}" if g.before_record < len(index) else "after the last record"
        if g.before_record > 0 and g.before_record < len(index):
            before = start + g.before_record - 1
            between = f"between record {before} and {after}"
        elif not len(index):
            between = "the file holds no valid record"
        what = (
            f"{g.size} bytes at {where} {g.offset} belong to no record ({between}); "
            "they were skipped"
        )
        found.append(
            (
                g.offset,
                Problem(
                    path,
                    start + g.before_record,
                    g.offset,
                    "garbage",
                    f"{path}: {what}; {fix}",
                    g.before_record,
                    region=True,
                    size=g.size,
                    what=what,
                    hint=fix,
                    savable=bool(intact),
                ),
            )
        )
    if index.stream_error:
        found.append(
            (
                end,
                Problem(
                    path,
                    start + len(index),
                    end,
                    "garbage" if TRAILING in index.stream_error else "truncated",
                    index.stream_error
                    if index.stream_error.startswith(path)
                    else f"{path}: the compressed stream stops decoding after uncompressed "
                    f"byte {end}: {index.stream_error}; what follows cannot be read",
                    len(index),
                    region=True,
                ),
            )
        )
    found.sort(key=lambda item: item[0])
    return [p for _, p in found]
