"""Reading the bytes: sources (plain, GZIP, ZLIB), frames, the index scan and its
resynchronisation, verification, problems, and many shards presented as one dataset.

Names are imported on first use, so that a command that reads one record through
:mod:`.cached_record` does not load the dataset, its index and numpy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy_names import lazy_names

if TYPE_CHECKING:  # what a type checker sees: the names of _WHERE (tested)
    from .dataset import Dataset as Dataset, RecordRef as RecordRef
    from .framing import (
        HEADER_SIZE as HEADER_SIZE,
        Compression as Compression,
        RecordWriter as RecordWriter,
        encode_frame as encode_frame,
        write_records as write_records,
    )
    from .paths import PathError as PathError, expand as expand
    from .records import (
        STATUS_HELP as STATUS_HELP,
        Cancelled as Cancelled,
        CancelToken as CancelToken,
        GarbageRegion as GarbageRegion,
        Problem as Problem,
        RecordStatus as RecordStatus,
        damage_text as damage_text,
        record_words as record_words,
    )
    from .sources import (
        CompressedSource as CompressedSource,
        Source as Source,
        SourceError as SourceError,
    )

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
    "damage_text": "records",
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
