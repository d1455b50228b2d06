"""Reading the bytes: sources (plain, GZIP, ZLIB), frames, the index scan and its
resynchronisation, verification, problems, and many shards presented as one dataset."""

from __future__ import annotations

from .dataset import Dataset, RecordRef
from .framing import HEADER_SIZE, Compression, RecordWriter, encode_frame, write_records
from .paths import PathError, expand
from .records import STATUS_HELP, Cancelled, CancelToken, GarbageRegion, Problem, RecordStatus
from .sources import CompressedSource, Source, SourceError

__all__ = [
    "CancelToken",
    "GarbageRegion",
    "Problem",
    "STATUS_HELP",
    "Cancelled",
    "CompressedSource",
    "Compression",
    "Dataset",
    "HEADER_SIZE",
    "GarbageRegion",
    "PathError",
    "Problem",
    "RecordRef",
    "RecordStatus",
    "RecordWriter",
    "Source",
    "SourceError",
    "STATUS_HELP",
    "encode_frame",
    "expand",
    "write_records",
]
