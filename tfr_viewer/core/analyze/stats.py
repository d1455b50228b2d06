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
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..decode.detect import image_format, image_info
from ..io import CancelToken, Dataset
from ..io.payload_block import PayloadBlock, iter_blocks
from ..query.extract import BYTES, FLOAT, INT64, FeatureColumn, extract
from .roles import Roles, find_roles
from .schema import Schema, add_block
from .sketch import Categories, Distinct, Numeric, bytes_hashes, place_hashes

KIND_NAMES = {BYTES: "bytes", FLOAT: "float", INT64: "int64"}
MIN_IMAGE_BYTES = 20  # shorter values are never looked at as images
TEXT_LIMIT = 128  # longer bytes values are not counted as text categories


@dataclass
class ImageStats:
    """Figures of the image values of one key, from their headers."""

    formats: Categories = field(default_factory=Categories)
    modes: Categories = field(default_factory=Categories)
    width: Numeric = field(default_factory=Numeric)
    height: Numeric = field(default_factory=Numeric)
    undecodable: int = 0

    def merge(self, other: ImageStats) -> None:
        self.formats.merge(other.formats)
        self.modes.merge(other.modes)
        self.width.merge(other.width)
        self.height.merge(other.height)
        self.undecodable += other.undecodable

    def to_json(self) -> dict[str, Any]:
        return {
            "count": self.width.count + self.undecodable,
            "formats": dict(self.formats.top(50)),
            "modes": dict(self.modes.top(50)),
            "width": self.width.to_json(),
            "height": self.height.to_json(),
            "undecodable": self.undecodable,
        }


@dataclass
class FeatureStats:
    """Figures of one feature key."""

    present: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    value_counts: Numeric = field(default_factory=Numeric)
    count_histogram: Categories = field(default_factory=Categories)
    numbers: Numeric = field(default_factory=Numeric)
    sizes: Numeric = field(default_factory=Numeric)
    distinct: Distinct = field(default_factory=Distinct)
    texts: Categories = field(default_factory=Categories)
    ints: Categories = field(default_factory=Categories)  # int64 values, while few
    images: ImageStats = field(default_factory=ImageStats)

    def merge(self, other: FeatureStats) -> None:
        self.present += other.present
        self.kinds.update(other.kinds)
        for name in ("value_counts", "count_histogram", "numbers", "sizes", "distinct"):
            getattr(self, name).merge(getattr(other, name))
        self.texts.merge(other.texts)
        self.ints.merge(other.ints)
        self.images.merge(other.images)

    def to_json(self, parsed: int) -> dict[str, Any]:
        kind = self.kinds.most_common(1)[0][0] if self.kinds else "bytes"
        out: dict[str, Any] = {
            "kind": kind,
            "kinds": dict(sorted(self.kinds.items())),
            "present": self.present,
            "presence": self.present / parsed if parsed else 0.0,
            "missing": parsed - self.present,
            "value_counts": {
                **self.value_counts.to_json(),
                "per_record": {str(k): v for k, v in sorted(self.count_histogram.counts.items())},
            },
        }
        if self.numbers.count or self.numbers.nan or self.numbers.inf:
            out["numeric"] = self.numbers.to_json()
            if self.ints.counts and not self.ints.overflow and len(self.ints.counts) <= 50:
                out["numeric"]["values"] = [[v, n] for v, n in sorted(self.ints.counts.items())]
        if self.sizes.count:
            out["bytes"] = {
                "count": self.sizes.count,
                "sizes": self.sizes.to_json(),
                "distinct": self.distinct.estimate(),
                "top": [[t, n] for t, n in self.texts.top()],
                "high_cardinality": self.texts.overflow,
            }
        if self.images.width.count or self.images.undecodable:
            out["images"] = self.images.to_json()
        return out


@dataclass
class Stats:
    """The mergeable statistics of a dataset (or of one file of it)."""

    files: int = 0
    records: int = 0
    damaged: int = 0
    schema: Schema = field(default_factory=Schema)
    features: dict[str, FeatureStats] = field(default_factory=dict)
    image_keys: set[str] = field(default_factory=set)
    classes: Categories = field(default_factory=Categories)  # (id, text) per image
    object_classes: Categories = field(default_factory=Categories)  # (id, text) per box
    boxes_per_image: Numeric = field(default_factory=Numeric)
    box_area: Numeric = field(default_factory=Numeric)
    box_aspect: Numeric = field(default_factory=Numeric)

    def roles(self) -> Roles:
        kinds = {k: s.kinds.most_common(1)[0][0] for k, s in self.features.items() if s.kinds}
        return find_roles(kinds, self.image_keys)

    def merge(self, other: Stats) -> Stats:
        self.files += other.files
        self.records += other.records
        self.damaged += other.damaged
        s, o = self.schema, other.schema
        s.records += o.records
        s.examples += o.examples
        s.sequence_examples += o.sequence_examples
        s.others += o.others
        for key, fs in other.features.items():
            self.features.setdefault(key, FeatureStats()).merge(fs)
        self.image_keys |= other.image_keys
        for name in ("classes", "object_classes", "boxes_per_image", "box_area", "box_aspect"):
            getattr(self, name).merge(getattr(other, name))
        return self

    def to_json(self) -> dict[str, Any]:
        parsed = self.schema.examples + self.schema.sequence_examples
        roles = self.roles()
        out: dict[str, Any] = {
            "records": self.records,
            "files": self.files,
            "damaged": self.damaged,
            "examples": self.schema.examples,
            "sequence_examples": self.schema.sequence_examples,
            "other_payloads": self.schema.others,
            "features": {k: self.features[k].to_json(parsed) for k in sorted(self.features)},
            "roles": {k: v for k, v in roles.__dict__.items() if v},
        }
        if self.classes.counts or self.classes.overflow:
            out["classes"] = _classes_json(self.classes, roles.label)
        if self.object_classes.counts or self.object_classes.overflow:
            out["object_classes"] = _classes_json(self.object_classes, roles.object_label)
        if roles.detection:
            out["boxes"] = {
                "per_image": self.boxes_per_image.to_json(),
                "area": self.box_area.to_json(),
                "aspect_ratio": self.box_aspect.to_json(),
            }
        return out


def _classes_json(classes: Categories, key: str | None) -> dict[str, Any]:
    rows = sorted(classes.counts.items(), key=lambda kv: (kv[0][0] is None, kv[0]))
    return {
        "key": key,
        "classes": [{"id": i, "text": t, "count": n} for (i, t), n in rows],
        "high_cardinality": classes.overflow,
    }


def _positions(rag_splits: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every value: its row, and its position in the row's list."""
    counts = np.diff(rag_splits)
    row_of = np.repeat(np.arange(len(counts)), counts)
    return rows[row_of], np.arange(len(row_of)) - rag_splits[row_of]


def _add_column(
    st: Stats, key: str, column: FeatureColumn, path: str, rows: np.ndarray, ok: np.ndarray
) -> None:
    present = column.present & ok
    if not present.any():
        return
    fs = st.features.setdefault(key, FeatureStats())
    fs.present += int(present.sum())
    for kind, n in enumerate(np.bincount(column.kinds[present], minlength=4).tolist()):
        if kind in KIND_NAMES and n:
            fs.kinds[KIND_NAMES[kind]] += n
    counts = np.diff(column.rag.splits)[present]
    fs.value_counts.add(counts, place_hashes(path, rows[present], np.zeros(len(counts))))
    uniq, times = np.unique(counts, return_counts=True)
    fs.count_histogram.add_counts(dict(zip(uniq.tolist(), times.tolist(), strict=True)))
    values = column.rag.values
    if not len(values):
        return
    value_rows, value_pos = _positions(column.rag.splits, rows)
    keep = np.repeat(ok, np.diff(column.rag.splits))
    if values.dtype != object:
        fs.numbers.add(values[keep], place_hashes(path, value_rows[keep], value_pos[keep]))
        if values.dtype == np.int64 and not fs.ints.overflow:
            uniq, times = np.unique(values[keep], return_counts=True)
            fs.ints.add_counts(dict(zip(uniq.tolist(), times.tolist(), strict=True)))
        return
    # a value is bytes exactly when its row's Feature holds a bytes list
    is_bytes = np.repeat(column.kinds == BYTES, np.diff(column.rag.splits))
    numeric = ~is_bytes & keep
    if numeric.any():
        nums = values[numeric].astype(np.float64)
        fs.numbers.add(nums, place_hashes(path, value_rows[numeric], value_pos[numeric]))
    chosen = is_bytes & keep
    if chosen.any():
        _add_bytes(
            st, key, fs, values[chosen].tolist(), path, value_rows[chosen], value_pos[chosen]
        )


_IMAGE_FIRST_BYTES = frozenset(b"\xff\x89GRIMB")  # what image_format can recognise


def _add_bytes(
    st: Stats,
    key: str,
    fs: FeatureStats,
    values: list[bytes],
    path: str,
    rows: np.ndarray,
    positions: np.ndarray,
) -> None:
    """Sizes, distinct values and text values of a column's bytes; images by header.
    Work per value is done once per distinct value where it can be (categorical text
    repeats), and only values that start like an image are looked at as one."""
    hashes = place_hashes(path, rows, positions)
    sizes = np.fromiter(map(len, values), dtype=np.int64, count=len(values))
    fs.sizes.add(sizes, hashes)
    found, sides = [], []
    images: set[int] = set()
    for i in np.flatnonzero(sizes >= MIN_IMAGE_BYTES).tolist():
        v = values[i]
        if v[0] not in _IMAGE_FIRST_BYTES or image_format(v[:32]) is None:
            continue
        images.add(i)
        info = image_info(v)
        if info is None:
            fs.images.undecodable += 1
        else:
            fs.images.formats.add([info.format])
            fs.images.modes.add([info.mode])
            found.append(i)
            sides.append((info.width, info.height))
    rest = [v for i, v in enumerate(values) if i not in images] if images else values
    distinct = Counter(rest)
    fs.distinct.add_hashes(bytes_hashes([*distinct, *(values[i] for i in images)]))
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


def add_payloads(st: Stats, block: PayloadBlock, path: str, rows: np.ndarray) -> None:
    """Add a block of payloads (``rows``: their record numbers within ``path``)."""
    add_block(st.schema, block)
    keys = sorted(st.schema.features)
    status, columns = extract(block, keys)
    ok = status == 0
    for key in keys:
        _add_column(st, key, columns[key], path, rows, ok)
    _add_layout(st, st.roles(), columns, path, rows, ok)


def _ints(column: FeatureColumn) -> np.ndarray:
    values = column.rag.values
    return values if values.dtype == np.int64 else np.zeros(0, dtype=np.int64)


def _add_layout(
    st: Stats, roles: Roles, columns: dict[str, FeatureColumn], path: str, rows, ok
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
            counts[per_image], place_hashes(path, rows[per_image], np.zeros(int(per_image.sum())))
        )
        # rows whose four lists differ in length (a fault `check` reports) are left out
        x0, y0, x1, y1 = (
            np.asarray(c.rag.values, dtype=np.float64)[np.repeat(same, np.diff(c.rag.splits))]
            for c in sides
        )
        keep = np.repeat(same, counts)
        value_rows, pos = _positions(sides[0].rag.splits, rows)
        hashes = place_hashes(path, value_rows[keep], pos[keep])
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
    each block of records. Cancelling stops early with what was counted. The figures of
    a completely verified file are kept in the persistent cache (:mod:`.stats_cache`)."""
    from . import stats_cache

    f = ds.files[number]
    start, total = ds.start_of(number), len(f.index)
    cacheable = f.index.complete and f.index.verified  # damage is known for every record
    if cacheable and (cached := stats_cache.load(f.path)) is not None:
        if cached.records == total:
            if progress is not None:
                progress(total)
            return cached
    records = ds.undamaged(np.arange(start, start + total))
    st = Stats(files=1, records=total, damaged=total - len(records))
    for positions, payloads in iter_blocks(ds, records, block):
        if cancel is not None and cancel.cancelled:
            return st  # part of the file: never cached
        add_payloads(st, payloads, f.path, records[positions] - start)
        if progress is not None:
            progress(payloads.rows)
    if cacheable:
        stats_cache.store(f.path, st)
    return st


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
