"""Statistics of a dataset in one pass over the columnar extractor, per file, mergeable.

:func:`file_stats` computes the figures of one file; :meth:`Stats.merge` adds another
file's, so shards can be done in parallel (or by a distributed combine) and merged in
file order. :func:`dataset_stats` does exactly that. Damaged records are counted and
skipped. SequenceExamples contribute their context. :meth:`Stats.to_json` gives plain
JSON data: per key presence, kinds, value counts per record, numeric figures, bytes
figures (sizes, distinct estimate, top text values) and image figures from the headers;
class distribution and box figures when the keys follow a known layout (:mod:`.roles`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..crc32c import value as crc32c
from ..decode.detect import image_format
from ..decode.image_verdict import QUICK_SIDE, verdicts
from ..io import CancelToken, Dataset
from ..io.dataset_blocks import iter_blocks
from ..io.payload_block import PayloadBlock
from ..io.splits import Split, SplitRef, plan_refs
from ..query.extract import BYTES, FLOAT, INT64, FeatureColumn, extract
from . import stats_cache
from .roles import Roles
from .schema import add_block
from .sketch import bytes_hashes, file_seed, place_hashes
from .stats_data import FeatureStats, ImageStats, Stats

if TYPE_CHECKING:
    from ..decode.message_types import MessageType

__all__ = ["FeatureStats", "ImageStats", "Stats", "add_payloads", "dataset_stats", "file_stats"]

KIND_NAMES = {BYTES: "bytes", FLOAT: "float", INT64: "int64"}
MIN_IMAGE_BYTES = 20  # shorter values are never looked at as images
TEXT_LIMIT = 128  # longer bytes values are not counted as text categories
VIEWS_FROM = 4096  # longer bytes values are looked at in the block, not copied out


def _positions(rag_splits: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every value: its row, and its position in the row's list."""
    counts = np.diff(rag_splits)
    row_of = np.repeat(np.arange(len(counts)), counts)
    return rows[row_of], np.arange(len(row_of)) - rag_splits[row_of]


def add_column(
    st: Stats,
    key: str,
    column: FeatureColumn,
    seed: int,
    rows: np.ndarray,
    ok: np.ndarray,
    kind_name: str | None = None,
) -> None:
    """Add a key's values in a block (``rows``: their record numbers within their
    file, ``ok`` the rows that count); its kind by each row's list, or ``kind_name``
    for every row that holds the key."""
    present = column.present & ok
    if not present.any():
        return
    fs = st.features.setdefault(key, FeatureStats())
    fs.present += int(present.sum())
    if kind_name is not None:
        fs.kinds[kind_name] += int(present.sum())
    for kind, n in enumerate(np.bincount(column.kinds[present], minlength=4).tolist()):
        if kind in KIND_NAMES and n and kind_name is None:
            fs.kinds[KIND_NAMES[kind]] += n
    counts = np.diff(column.rag.splits)[present]
    fs.value_counts.add(counts, place_hashes(seed, rows[present], np.zeros(len(counts))))
    uniq, times = np.unique(counts, return_counts=True)
    fs.count_histogram.add_counts(dict(zip(uniq.tolist(), times.tolist(), strict=True)))
    values = column.rag.values
    if not len(values):
        return
    value_rows, value_pos = _positions(column.rag.splits, rows)
    keep = np.repeat(ok, np.diff(column.rag.splits))
    if values.dtype != object:
        fs.numbers.add(values[keep], place_hashes(seed, value_rows[keep], value_pos[keep]))
        if values.dtype == np.int64 and not fs.ints.overflow:
            uniq, times = np.unique(values[keep], return_counts=True)
            fs.ints.add_counts(dict(zip(uniq.tolist(), times.tolist(), strict=True)))
        return
    # a value is bytes exactly when its row's Feature holds a bytes list
    is_bytes = np.repeat(column.kinds == BYTES, np.diff(column.rag.splits))
    numeric = ~is_bytes & keep
    if numeric.any():
        nums = values[numeric].astype(np.float64)
        fs.numbers.add(nums, place_hashes(seed, value_rows[numeric], value_pos[numeric]))
    chosen = is_bytes & keep
    if chosen.any():
        _add_bytes(
            st, key, fs, values[chosen].tolist(), seed, value_rows[chosen], value_pos[chosen]
        )


_IMAGE_FIRST_BYTES = frozenset(b"\xff\x89GRIMB")  # what image_format can recognise


def _add_bytes(
    st: Stats,
    key: str,
    fs: FeatureStats,
    values: list[bytes],
    seed: int,
    rows: np.ndarray,
    positions: np.ndarray,
) -> None:
    """Sizes, distinct values and text values of a column's bytes; images decoded
    (:func:`..decode.image_verdict.verdicts`), their size and mode from the header.
    Work per value is done once per distinct value where it can be (categorical text
    repeats), and only values that start like an image are looked at as one."""
    hashes = place_hashes(seed, rows, positions)
    sizes = np.fromiter(map(len, values), dtype=np.int64, count=len(values))
    fs.sizes.add(sizes, hashes)
    candidates = [
        i
        for i in np.flatnonzero(sizes >= MIN_IMAGE_BYTES).tolist()
        if values[i][0] in _IMAGE_FIRST_BYTES and image_format(values[i][:32]) is not None
    ]
    images = set(candidates)
    fs.images.others += len(values) - len(images)
    found, sides = [], []
    pictures = [values[i] for i in candidates]
    picture_crcs = [crc32c(v) for v in pictures]  # one CRC a picture: its memo and sketch
    for i, verdict in zip(candidates, verdicts(pictures, QUICK_SIDE, picture_crcs), strict=True):
        if verdict.error is not None:
            fs.images.undecodable += 1
        else:
            fs.images.formats.add([verdict.format or "image"])
            fs.images.modes.add([verdict.mode])
            found.append(i)
            sides.append((verdict.width, verdict.height))
    # as bytes: a view of the block (a long value) is not hashable
    rest = [bytes(v) for i, v in enumerate(values) if i not in images]
    distinct = Counter(rest)
    fs.distinct.add_hashes(bytes_hashes(list(distinct)))
    fs.distinct.add_hashes(bytes_hashes(pictures, picture_crcs))
    texts: Counter[str] = Counter()
    for v, n in distinct.items():
        if len(v) <= TEXT_LIMIT:
            try:
                texts[v.decode("utf-8")] += n
            except UnicodeDecodeError:
                pass
    fs.texts.add_counts(texts)
    if images:
        st.image_keys.add(key)
    if found:
        wh = np.array(sides, dtype=np.int64)
        fs.images.width.add(wh[:, 0], hashes[found])
        fs.images.height.add(wh[:, 1], hashes[found])


def add_payloads(
    st: Stats, block: PayloadBlock, seed: int, rows: np.ndarray, kind: MessageType | None = None
) -> None:
    """Add a block of payloads (``rows``: their record numbers within their file, whose
    :func:`~.sketch.file_seed` is ``seed``), read as Examples, or as the user's message
    type ``kind`` (:mod:`.message_stats`)."""
    if kind is not None:
        _add_messages(st, block, seed, rows, kind)
        return
    add_block(st.schema, block)
    keys = sorted(st.schema.features)
    status, columns = extract(block, keys, views_from=VIEWS_FROM)
    ok = status == 0
    for key in keys:
        add_column(st, key, columns[key], seed, rows, ok)
    _add_layout(st, st.roles(), columns, seed, rows, ok)


def _add_messages(
    st: Stats, block: PayloadBlock, seed: int, rows: np.ndarray, kind: MessageType
) -> None:
    from .message_stats import message_block

    parsed, columns = message_block(block, kind)
    st.message = kind.name
    st.messages += int(parsed.sum())
    st.schema.records += block.rows
    st.schema.others += block.rows - int(parsed.sum())
    for path in sorted(columns):
        found = columns[path]
        add_column(st, path, found.column, seed, rows, parsed, found.kind)


def _ints(column: FeatureColumn) -> np.ndarray:
    values = column.rag.values
    return values if values.dtype == np.int64 else np.zeros(0, dtype=np.int64)


def _add_layout(
    st: Stats,
    roles: Roles,
    columns: dict[str, FeatureColumn],
    seed: int,
    rows: np.ndarray,
    ok: np.ndarray,
) -> None:
    """Class distribution and box figures, where the keys follow a known layout."""
    if roles.label and roles.label in columns:
        st.classes.add(_pairs(columns, roles.label, roles.label_text, ok, per_record=True))
    if roles.object_label and roles.object_label in columns:
        st.object_classes.add(_pairs(columns, roles.object_label, roles.object_text, ok))
    if roles.boxes and all(k in columns for k in roles.boxes):
        sides = [columns[k] for k in roles.boxes]
        counts = np.diff(sides[0].rag.splits)
        same = ok & np.all([np.diff(c.rag.splits) == counts for c in sides], axis=0)
        # an image (or, with no image key, a record with box lists) counts its boxes
        images = [columns[k].present for k in roles.images if k in columns]
        holder = np.any(images, axis=0) if images else np.any([c.present for c in sides], axis=0)
        per_image = same & holder
        st.boxes_per_image.add(
            counts[per_image], place_hashes(seed, rows[per_image], np.zeros(int(per_image.sum())))
        )
        # rows whose four lists differ in length (a fault `check` reports) are left out
        x0, y0, x1, y1 = (
            np.asarray(c.rag.values, dtype=np.float64)[np.repeat(same, np.diff(c.rag.splits))]
            for c in sides
        )
        keep = np.repeat(same, counts)
        value_rows, pos = _positions(sides[0].rag.splits, rows)
        hashes = place_hashes(seed, value_rows[keep], pos[keep])
        w, h = x1 - x0, y1 - y0
        st.box_area.add(w * h, hashes)
        with np.errstate(divide="ignore", invalid="ignore"):
            aspect = np.where(h > 0, w / np.where(h > 0, h, 1), np.nan)
        finite = np.isfinite(aspect)
        st.box_aspect.add(aspect[finite], hashes[finite])


def _pairs(
    columns: dict[str, FeatureColumn],
    label: str,
    text: str | None,
    ok: np.ndarray,
    per_record: bool = False,
) -> list[tuple[int, str | None]]:
    """(class id, class text) for every label value of intact rows; the text where the
    text key has as many values as the label key in that row."""
    lab = columns[label]
    ids = _ints(lab)
    if not len(ids):
        return []
    counts = np.diff(lab.rag.splits)
    rows = ok & (counts == 1) if per_record else ok
    txt = columns.get(text) if text else None
    out: list[tuple[int, str | None]] = []
    splits = lab.rag.splits.tolist()
    tsplits = txt.rag.splits.tolist() if txt is not None else None
    for r in np.flatnonzero(rows).tolist():
        a, b = splits[r], splits[r + 1]
        texts: list[Any] = [None] * (b - a)
        if tsplits is not None and tsplits[r + 1] - tsplits[r] == b - a:
            texts = [
                v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
                for v in txt.rag.values[tsplits[r] : tsplits[r + 1]].tolist()  # type: ignore[union-attr]
            ]
        out.extend(zip(ids[a:b].tolist(), texts, strict=True))
    return out


def file_stats(
    ds: Dataset,
    number: int,
    *,
    cancel: CancelToken | None = None,
    progress: Callable[[int], None] | None = None,
    block: int = 1 << 15,
) -> Stats:
    """The statistics of file ``number`` of an indexed dataset; ``progress(done)`` after
    each block of records. The payload CRCs a header-only index left unverified are
    checked as the payloads are read (one read of the file), and the records found
    damaged counted as such, so the figures are those of a verified index. Cancelling
    stops early with what was counted. The figures of a completely indexed file read as
    Examples are kept in the persistent cache (:mod:`.stats_cache`); read as the user's
    message type, they are computed each time."""
    from ..decode.file_payloads import message_type_of

    f = ds.files[number]
    start, total = ds.start_of(number), len(f.index)
    kind = message_type_of(ds, number)
    cache = kind is None and ds.message_type is None
    if cache and f.index.complete and f.index.verified:  # damage is known for every record
        cached = stats_cache.load(f.path)
        if cached is not None and cached.records == total:
            if progress is not None:
                progress(total)
            return cached
    records = ds.undamaged(np.arange(start, start + total))
    st = Stats(files=1, records=total, damaged=total)
    seed = file_seed(f.open())
    for positions, payloads in iter_blocks(ds, records, block, verify=True, reuse=True):
        if cancel is not None and cancel.cancelled:
            return st  # part of the file: never cached
        add_payloads(st, payloads, seed, records[positions] - start, kind)
        st.damaged -= payloads.rows
        if progress is not None:
            progress(payloads.rows)
    f.index.settle_verified()  # every undamaged record's CRC was checked above
    if cache and f.index.complete:
        stats_cache.store(f.path, st)
    return st


def records_stats(ds: Dataset, records: np.ndarray, block: int = 1 << 15) -> Stats:
    """The statistics of some records of an indexed dataset (global numbers, each once),
    as :func:`file_stats` counts them: each value's place in the sample is hashed from
    its file and local record number, so a record counts the same in any selection."""
    from ..decode.file_payloads import message_type_of

    chosen = np.unique(np.asarray(records, dtype=np.int64))
    st = Stats(files=0, records=len(chosen), damaged=len(chosen))
    for number, f in enumerate(ds.files):
        start = ds.start_of(number)
        mine = chosen[(chosen >= start) & (chosen < start + len(f.index))]
        if not len(mine):
            continue
        st.files += 1
        wanted = ds.undamaged(mine)
        seed, kind = file_seed(f.open()), message_type_of(ds, number)
        for positions, payloads in iter_blocks(ds, wanted, block, verify=True, reuse=True):
            add_payloads(st, payloads, seed, wanted[positions] - start, kind)
            st.damaged -= payloads.rows
    return st


def split_stats(split: Split, block: int = 1 << 15) -> Stats:
    """The statistics of one split (:mod:`~..io.splits`), its payload CRCs checked first.
    Merged in any order, the splits of a dataset give exactly what :func:`dataset_stats`
    gives for its verified index: sums are exact, and each value's place in the sample is
    hashed from its file's content and local record number, which a split keeps."""
    from ..decode.file_payloads import message_type_of

    total = len(split)
    st = Stats(files=int(split.first == 0), records=total, damaged=total)
    with split.dataset(verified=split.checked) as ds:
        records = ds.undamaged(np.arange(total))
        seed, kind = file_seed(ds.files[0].open()), message_type_of(ds, 0)
        # the CRCs checked in the bytes read for the figures: one read of the split
        for positions, payloads in iter_blocks(ds, records, block, verify=True, reuse=True):
            add_payloads(st, payloads, seed, records[positions] + split.first, kind)
            st.damaged -= payloads.rows
    return st


def refs_stats(refs: list[SplitRef]) -> Stats:
    """The merged :func:`split_stats` of splits found again from their references (in
    a worker)."""
    total = Stats()
    for ref in refs:
        total.merge(split_stats(ref.load()))  # its CRCs checked as its payloads are read
    return total


def pooled_stats(
    ds: Dataset, jobs: int, progress: Callable[[int, int], None] | None = None
) -> Stats:
    """The statistics of a header-indexed ``ds`` by ``jobs`` processes on this machine,
    one split at a time (``progress`` in splits); the same as :func:`dataset_stats`."""
    from ..decode.file_payloads import settled_type
    from ..decode.message_types import worker_setup
    from ..io.split_pool import map_splits

    total = Stats()
    setup = worker_setup(settled_type(ds))
    for stats in map_splits(plan_refs(ds), refs_stats, jobs, progress, setup):
        total.merge(stats)
    return total


def dataset_stats(
    ds: Dataset,
    *,
    cancel: CancelToken | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Stats:
    """Every file's statistics merged in file order (``progress(done, total)`` in records)."""
    total, done = len(ds), 0

    def step(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(done, total)

    merged = Stats()
    for number in range(len(ds.files)):
        merged.merge(file_stats(ds, number, cancel=cancel, progress=step))
    return merged
