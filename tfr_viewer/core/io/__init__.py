"""Reading the bytes: sources (plain, GZIP, ZLIB), frames, the index scan and its
resynchronisation, verification, problems, and many shards presented as one dataset.

Names are imported on first use, so that a command that reads one record through
:mod:`.cached_record` does not load the dataset, its index and numpy.
"""

from __future__ import annotations

from ..lazy_names import lazy_names

_WHERE = {
    "Dataset": "dataset",
    "RecordRef": "dataset",
    "HEADER_SIZE": "framing",
    "Compression": "framing",
    "RecordWriter": "framing",
    "encode_frame": "framing",
    "write_records": "framing",
    "PathError": "paths",
    "expand": "paths",
    "STATUS_HELP": "records",
    "Cancelled": "records",
    "CancelToken": "records",
    "GarbageRegion": "records",
    "Problem": "records",
    "RecordStatus": "records",
    "record_words": "records",
    "CompressedSource": "sources",
    "Source": "sources",
    "SourceError": "sources",
}

__all__ = sorted(_WHERE)

__getattr__ = lazy_names(__name__, _WHERE)
