"""Many TFRecord files presented as one dataset with global record numbers.

Record ``i`` of the dataset is record ``i - start[f]`` of file ``f``. Bytes are read by
global number: one mmap slice for plain files, a seek through rapidgzip's seek points
for compressed ones. Files are indexed in order by :meth:`Dataset.scan`, which yields
``(file_number, chunk)`` pairs so that callers can show progress and stop early.

Threads: an index grows and its statuses change on one thread at a time, the one that
owns the dataset (the window's, where its indexer applies what the indexing child
sends); other threads only read records and statuses, and open files (each file's
source is opened once, whichever thread asks first).
"""

from __future__ import annotations

import bisect
import os
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import index_cache
from .dataset_warnings import DatasetWarning
from .file_index import FileIndex
from .framing import FOOTER_SIZE, HEADER_SIZE, Compression, masked_crc
from .header_scan import hops_far
from .index import IndexChunk
from .paths import expand, shard_warnings
from .problems import NotATFRecord, describe_problems, not_a_tfrecord
from .read_ahead import ReadAhead, ahead_of_scan, file_chunks, streams
from .records import CancelToken, Problem, RecordStatus, record_words
from .remote import Transferred, forget, is_url, unchanged
from .sources import Source, open_source
from .verify import FINISHED, verify_files

WARN_RECORDS = 100_000_000


def open_path(path: str, seek_points: bool = False) -> Source:
    """Any file of a dataset as a source: a local path through
    :func:`~.sources.open_source`, a URL through
    :func:`~.remote_source.open_remote` (which always keeps seek points; imported only
    then)."""
    if is_url(path):
        from .remote_source import open_remote

        return open_remote(path)
    return open_source(path, seek_points)


@dataclass
class DatasetFile:
    """One member file, its source (opened lazily) and its index."""

    path: str
    index: FileIndex = field(default_factory=FileIndex)
    source: Source | None = None
    seek_points: bool = False  # see :func:`~.sources.open_source`
    identity: dict[str, Any] | None = None  # the file's identity when its scan began (local files)
    # the decoder of the file's payloads and how many records that was decided on (kept
    # here by core.decode.file_payloads)
    payload_decoder: tuple[int, str] | None = field(default=None, compare=False)
    _opening: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def open(self) -> Source:
        """The file's source, opened on first use (once, whichever thread asks first)."""
        with self._opening:
            if self.source is None or self.source.closed:
                self.source = open_path(self.path, self.seek_points)
            return self.source


@dataclass(frozen=True)
class RecordRef:
    """Where a record lives: its global number, file and local number, and frame."""

    index: int
    file_number: int
    file: str
    local: int
    offset: int
    length: int
    status: RecordStatus


class Dataset:
    """An ordered set of files read as one. Close it (or use ``with``) when done."""

    # the message type (or types to choose from) the user gave for the records
    # (:mod:`..decode.message_types`), set on a dataset, or on the class for every
    # dataset of a command (:func:`~..decode.message_types.give`); None: the type is
    # found from the records
    message_type: object = None

    def __init__(self, paths: Iterable[str], *, seek_points: bool = False) -> None:
        """``seek_points``: compressed files keep rapidgzip's seek points from the first
        read (for exporting them), rather than being scanned with ISA-L."""
        self.files = [DatasetFile(p, seek_points=seek_points) for p in paths]
        self.warnings: list[DatasetWarning] = shard_warnings(f.path for f in self.files)
        self.keeps_cache = True  # complete indexes are stored in the persistent cache
        self._starts: list[int] = []  # global number of each indexed file's first record

    @classmethod
    def open(cls, specs: Iterable[str], *, seek_points: bool = False) -> Dataset:
        """Resolve files, globs, folders and ``name@N`` specs (see :mod:`.paths`); what
        a folder leaves out is among the warnings."""
        notes: list[DatasetWarning] = []
        ds = cls(expand(specs, notes), seek_points=seek_points)
        ds.warnings.extend(notes)
        return ds

    @classmethod
    def from_arrays(
        cls, paths: list[str], columns: list[tuple[Any, ...]], verified: bool = True
    ) -> Dataset:
        """A dataset whose index is given as ``(offsets, lengths, statuses)`` per file
        (as taken from another dataset's index), without scanning (``verified`` false:
        :meth:`verify` settles the ``UNVERIFIED`` statuses)."""
        ds = cls(paths)
        ds.keeps_cache = False  # the arrays may be part of a file: never its cache entry
        for number, (offsets, lengths, statuses) in enumerate(columns):
            ds.begin_file(number)
            ds.files[number].index.add(IndexChunk(0, offsets, lengths, statuses))
            ds.finish_file(number, verified=verified)
        return ds

    def columns(self) -> list[tuple[Any, ...]]:
        """Each file's ``(offsets, lengths, statuses)`` arrays (copies)."""
        return [(f.index.offsets(), f.index.lengths(), f.index.statuses()) for f in self.files]

    def __enter__(self) -> Dataset:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close every open source. Idempotent."""
        for f in self.files:
            if f.source is not None:
                f.source.close()

    # -- indexing ------------------------------------------------------------------
    def scan(
        self, *, verify: bool = True, cancel: CancelToken | None = None
    ) -> Iterator[tuple[int, IndexChunk]]:
        """Index every file not yet complete, in order, yielding as chunks arrive. Files
        already indexed (in this dataset, or in the persistent cache) yield their index as
        chunks too, so a caller always sees every record once. Remote files after the
        first one to scan are indexed concurrently (see :mod:`.read_ahead`)."""
        self._starts = []
        todo = [n for n, f in enumerate(self.files) if not self._indexed(f, verify)]
        numbers = ahead_of_scan(self.files, todo, verify)
        ahead = ReadAhead(self.files, numbers, verify, cancel) if numbers else None
        try:
            yield from self._scan_files(verify, cancel, ahead)
        finally:
            if ahead is not None:
                ahead.close()

    @staticmethod
    def _indexed(f: DatasetFile, verify: bool) -> bool:
        return f.index.complete and (f.index.verified or not verify)

    def _scan_files(
        self, verify: bool, cancel: CancelToken | None, ahead: ReadAhead | None
    ) -> Iterator[tuple[int, IndexChunk]]:
        for number, f in enumerate(self.files):
            if self._indexed(f, verify):
                self.begin_file(number, reset=False)
                yield from ((number, chunk) for chunk in f.index.chunks())
                continue
            self.begin_file(number)
            if ahead is not None and number in ahead:
                done = ahead.take(number)
                if done is None:
                    return  # cancelled
                cached = (done.index, done.stream_size) if done.cached else None
                if not done.cached:
                    f.index, f.identity = done.index, done.identity
                    yield from ((number, chunk) for chunk in f.index.chunks())
                    index_cache.store(f.path, f.index, done.stream_size, done.identity)
                    if len(f.index) == 0:
                        self._note_empty(f)
                    continue
            else:
                if is_url(f.path):
                    forget(f.path)  # the lookup and the reads share one fresh answer
                cached = index_cache.load(f.path, verify)
                # taken before the scan: an entry is kept only if nothing changed since
                f.identity = None if is_url(f.path) else index_cache.identity(f.path)
            if cached is not None:
                f.index, stream_size = cached
                if stream_size is not None:
                    f.open().size = stream_size
                yield from ((number, chunk) for chunk in f.index.chunks())
                self.finish_file(number, verified=f.index.verified)
                continue
            source = f.open()
            for chunk in file_chunks(source, verify, cancel, alone=ahead is None):
                f.index.add(chunk)
                yield number, chunk
            if cancel is not None and cancel.cancelled:
                return
            self.finish_file(number, verified=verify)
            index_cache.store(f.path, f.index, source.size, f.identity)

    def begin_file(self, number: int, reset: bool = True) -> None:
        """Start indexing file ``number`` (all earlier files must be complete). Used by
        :meth:`scan` and by callers that receive chunks from another process."""
        del self._starts[number:]
        before = self._starts[-1] + len(self.files[number - 1].index) if number else 0
        self._starts.append(before)
        if reset:
            self.files[number].index = FileIndex()

    def finish_file(self, number: int, verified: bool) -> None:
        f = self.files[number]
        f.index.finish(verified=verified)
        if len(f.index) == 0:
            self._note_empty(f)

    def verifies_in_parts(self) -> bool:
        """Whether checking every CRC is faster as a header pass and then :meth:`verify`
        than as a verifying scan: fewer local files than :func:`~.read_ahead.streams`,
        each read concurrently and holding large records (a header pass hops over
        them), so that parts of a file are read side by side."""
        if not self.files or len(self.files) >= streams():
            return False
        for f in self.files:
            if is_url(f.path) or f.index.complete:
                return False
            source = f.open()
            if not source.concurrent_reads or not hops_far(source):
                return False
        return True

    def verify(self, *, cancel: CancelToken | None = None) -> Iterator[tuple[int, int, int]]:
        """Check the payload CRCs left unverified by a header-only scan, in place, a few
        local files or parts of a file at a time (:func:`~.read_ahead.streams`). Yields
        ``(file_number, first, end)``: local records ``first .. end`` of the file are
        settled; ``(file_number, FINISHED, FINISHED)`` once the whole file is (and its
        index is marked verified); the files' and parts' messages interleaved."""
        todo = [
            (number, f.open(), f.index)
            for number, f in enumerate(self.files)
            if f.index.complete and not f.index.verified
        ]
        for number, first, end in verify_files(todo, streams(), cancel):
            if first == FINISHED:
                f = self.files[number]
                if f.source is not None and f.source.stat is not None:
                    unchanged(f.path, f.source.stat)  # FileChanged: nothing of it is cached
                if f.index.verified and self.keeps_cache:
                    index_cache.store(f.path, f.index, f.open().size, f.identity)
            yield number, first, end

    def index(self, *, verify: bool = True, cancel: CancelToken | None = None) -> Dataset:
        """Index everything (see :meth:`scan`) and return self."""
        for _ in self.scan(verify=verify, cancel=cancel):
            pass
        return self

    def _note_empty(self, f: DatasetFile) -> None:
        if f.open().compressed_size != 0:
            return  # bytes but no record: damaged, or not a TFRecord (see not_tfrecord)
        warning = DatasetWarning("empty_file", f.path, "is empty (0 records)")
        if warning not in self.warnings:
            self.warnings.append(warning)

    # -- access --------------------------------------------------------------------
    def __len__(self) -> int:
        if not self._starts:
            return 0
        return self._starts[-1] + len(self.files[len(self._starts) - 1].index)

    def at_byte(self, file_number: int, offset: int) -> str:
        """``byte 1,490``, or ``uncompressed byte 1,490`` in a compressed file: an
        offset said with the stream it counts in."""
        source = self.files[file_number].source
        compressed = source is not None and source.compression is not Compression.NONE
        return f"{'uncompressed byte' if compressed else 'byte'} {offset:,}"

    def whole_records(self) -> int:
        """The records of the dataset: its entries less the fragments
        (:meth:`~.file_index.FileIndex.fragments`). The number a count gives."""
        return sum(f.index.whole_records() for f in self.files)

    def locate(self, index: int) -> tuple[int, int]:
        """``(file_number, local_number)`` of global record ``index``."""
        if not 0 <= index < len(self):
            raise IndexError(f"record {index} is out of range: the dataset has {len(self)}")
        number = bisect.bisect_right(self._starts, index) - 1
        while len(self.files[number].index) == 0 or index - self._starts[number] >= len(
            self.files[number].index
        ):
            number += 1
        return number, index - self._starts[number]

    def start_of(self, file_number: int) -> int:
        """Global number of the first record of an indexed file."""
        return self._starts[file_number]

    def ref(self, index: int) -> RecordRef:
        number, local = self.locate(index)
        fi = self.files[number].index
        return RecordRef(
            index,
            number,
            self.files[number].path,
            local,
            fi.offset(local),
            fi.length(local),
            fi.status(local),
        )

    def read(self, index: int) -> bytes:
        """The payload of global record ``index`` (what is there, for damaged records)."""
        ref = self.ref(index)
        return (
            self.files[ref.file_number]
            .open()
            .read_at(ref.offset + HEADER_SIZE, self._readable_length(ref))
        )

    def read_frame(self, index: int) -> bytes:
        """The complete frame (header, payload, footer) of an intact record, verbatim."""
        ref = self.ref(index)
        if ref.status.damaged:
            name = record_words(ref.index, ref.local, ref.file, len(self.files) > 1)
            raise ValueError(f"{ref.file}: {name} is {ref.status.kind}")
        size = HEADER_SIZE + ref.length + FOOTER_SIZE
        return self.files[ref.file_number].open().read_at(ref.offset, size)

    def _readable_length(self, ref: RecordRef) -> int:
        """The claimed length, bounded by the next record or end of stream if damaged."""
        if not ref.status.damaged:
            return ref.length
        f = self.files[ref.file_number]
        limit = f.open().size
        if ref.local + 1 < len(f.index):
            limit = f.index.offset(ref.local + 1)
        for g in f.index.garbage:
            if g.offset > ref.offset:
                limit = g.offset if limit is None else min(limit, g.offset)
                break
        if limit is None:
            limit = f.index.position
        return max(0, min(ref.length, limit - ref.offset - HEADER_SIZE))

    def read_verified(self, index: int) -> tuple[bytes, RecordStatus]:
        """The payload of global record ``index`` (as :meth:`read` gives it) and its
        status, with the payload CRC checked if the index has not yet: one read of the
        frame (one request for a remote file) serves both."""
        ref = self.ref(index)
        if ref.status is not RecordStatus.UNVERIFIED:
            return self.read(index), ref.status
        f = self.files[ref.file_number]
        frame = f.open().read_at(ref.offset, HEADER_SIZE + ref.length + FOOTER_SIZE)
        payload, footer = frame[HEADER_SIZE:-FOOTER_SIZE], frame[-FOOTER_SIZE:]
        whole = len(frame) == HEADER_SIZE + ref.length + FOOTER_SIZE
        ok = whole and masked_crc(payload) == int.from_bytes(footer, "little")
        status = RecordStatus.OK if ok else RecordStatus.BAD_DATA_CRC
        f.index.set_status(ref.local, status)
        return (payload if whole else frame[HEADER_SIZE:]), status

    def locate_many(self, records: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Vectorised :meth:`locate`: ``(file_numbers, local_numbers)``."""
        records = np.asarray(records, dtype=np.int64)
        if not len(records):
            return np.zeros(0, dtype=np.int64), records.copy()
        least, most = int(records.min()), int(records.max())
        if least < 0 or most >= len(self):
            raise IndexError(f"record numbers must lie in 0..{len(self) - 1}")
        starts = np.asarray(self._starts, dtype=np.int64)
        first, last = (int(n) for n in np.searchsorted(starts, [least, most], side="right") - 1)
        if first == last:  # all in one file: no search for each record
            return np.full(len(records), first, dtype=np.int64), records - starts[first]
        numbers = np.searchsorted(starts, records, side="right") - 1
        return numbers, records - starts[numbers]

    def frame_facts(self, records: np.ndarray) -> tuple[np.ndarray, ...]:
        """``(file_numbers, offsets, lengths, statuses)`` of many records at once."""
        numbers, local = self.locate_many(records)
        if len(local) and numbers[0] == numbers[-1]:
            run = self._run_facts(int(numbers[0]), local)
            if run is not None:
                return (numbers, *run)
        offsets = np.zeros(len(local), dtype=np.uint64)
        lengths = np.zeros(len(local), dtype=np.uint64)
        statuses = np.zeros(len(local), dtype=np.uint8)
        for number in np.unique(numbers).tolist():
            mask = numbers == number
            index = self.files[number].index
            want = local[mask]
            lo, hi = int(want.min()), int(want.max()) + 1  # copied: only the span asked
            offsets[mask] = index.offsets(lo, hi)[want - lo]
            lengths[mask] = index.lengths(lo, hi)[want - lo]
            statuses[mask] = index.statuses(lo, hi)[want - lo]
        return numbers, offsets, lengths, statuses

    def _run_facts(self, number: int, local: np.ndarray) -> tuple[np.ndarray, ...] | None:
        """:meth:`frame_facts` of ``local``, when they are consecutive records of file
        ``number`` in order (the common ask: a block of a file): its index's span as it
        is; None otherwise."""
        lo, hi = int(local[0]), int(local[-1]) + 1
        if hi - lo != len(local) or (len(local) > 1 and not (np.diff(local) == 1).all()):
            return None
        index = self.files[number].index
        return (
            np.asarray(index.offsets(lo, hi), dtype=np.uint64),
            np.asarray(index.lengths(lo, hi), dtype=np.uint64),
            np.asarray(index.statuses(lo, hi), dtype=np.uint8),
        )

    def record_at_offset(self, file_number: int, offset: int) -> int | None:
        """Global number of the record of file ``file_number`` whose frame starts at or
        before byte ``offset`` (of the uncompressed stream), or None before the first."""
        offsets = self.files[file_number].index.offsets()
        local = int(np.searchsorted(offsets, offset, side="right")) - 1
        return None if local < 0 else self.start_of(file_number) + local

    def undamaged(self, records: np.ndarray | list[int] | range) -> np.ndarray:
        """The given global numbers whose status is not a problem (OK or unverified)."""
        records = np.asarray(records, dtype=np.int64)
        statuses = self.frame_facts(records)[3]
        keep = (statuses == RecordStatus.OK) | (statuses == RecordStatus.UNVERIFIED)
        result: np.ndarray = records[keep]
        return result

    def intact(self) -> np.ndarray:
        """Global numbers of every record whose both CRCs verified."""
        records = np.arange(len(self), dtype=np.int64)
        result: np.ndarray = records[self.frame_facts(records)[3] == RecordStatus.OK]
        return result

    def transfer(self) -> Transferred | None:
        """Bytes, requests and seconds spent reading remote files so far; None when no
        file is remote."""
        totals: Transferred | None = None
        for f in self.files:
            counted = getattr(f.source, "transfer", None)
            if counted is not None:
                totals = (totals or Transferred()) + counted.so_far()
        return totals

    def size_warning(self, limit: int | None = None) -> str | None:
        """A warning once more than ``limit`` records are indexed (default: the
        ``TFR_VIEWER_WARN_RECORDS`` environment variable, else 100 million): a small
        compressed file can claim billions of tiny records."""
        if limit is None:
            limit = int(os.environ.get("TFR_VIEWER_WARN_RECORDS", WARN_RECORDS))
        count = len(self)
        if count <= limit:
            return None
        on_disk = sum(f.source.compressed_size for f in self.files if f.source is not None)
        return (
            f"more than {limit:,} records ({count:,} so far, from {on_disk / 1e6:,.1f} MB on "
            "disk); indexing goes on and costs 17 bytes a record — cancel to stop "
            "(set TFR_VIEWER_WARN_RECORDS to change this limit)"
        )

    def settle_verified(self) -> None:
        """:meth:`~.file_index.FileIndex.settle_verified` of every file."""
        for f in self.files:
            f.index.settle_verified()

    def compressed_size(self) -> int:
        """The bytes of every file as stored (opening the files not open yet)."""
        return sum(f.open().compressed_size for f in self.files)

    def regions(self) -> list[Problem]:
        """The problems that belong to no record (garbage bytes, a compressed stream that
        stops decoding), in dataset order."""
        return [p for p in self.problems(records=False) if p.region]

    def region_count(self) -> int:
        """How many such regions are known (cheap: no messages are built)."""
        return sum(len(f.index.garbage) + bool(f.index.stream_error) for f in self.files)

    def not_tfrecord(self, *, broken_streams: bool = True) -> list[DatasetWarning]:
        """A message for each indexed file that holds bytes but no frame at all. With
        ``broken_streams`` False, only files whose bytes were all read: files of another
        kind (a compressed stream that stops early is a damaged TFRecord)."""
        out = []
        for f in self.files:
            if f.index.stream_error and not broken_streams:
                continue
            reason = not_a_tfrecord(f.path, f.index, f.source)
            if reason is not None:
                out.append(reason)
        return out

    def refuse_other_files(self) -> None:
        """Raise :class:`~.problems.NotATFRecord` when a completely scanned file holds
        bytes but no frame (and is no compressed stream cut short): every front end
        calls it that, in one line naming what the file is, rather than reporting damage
        that nothing could repair."""
        reasons = self.not_tfrecord(broken_streams=False)
        if reasons:
            more = len(reasons) - 1
            tail = f" (and {more} more of the files named are not TFRecords)" if more else ""
            raise NotATFRecord(reasons[0] + tail)

    def file_warnings(self) -> list[DatasetWarning]:
        """The warnings (empty files, missing shards), then why each completely scanned
        file that holds bytes but no frame is not a TFRecord at all."""
        return [*self.warnings, *self.not_tfrecord()]

    def problems(self, records: bool = True) -> list[Problem]:
        """Every problem found so far, in file and offset order, with global numbers
        (``records`` False: only the regions that belong to no record)."""
        out: list[Problem] = []
        for number, f in enumerate(self.files):
            start = self._starts[number] if number < len(self._starts) else len(self)
            out.extend(
                describe_problems(f.path, f.index, start, f.source, records, len(self.files) > 1)
            )
        return out
