"""A virtual table over the dataset index: one row per record, filtered, sorted or not,
plus a row for each damaged region that belongs to no record.

The model never copies the index: a :class:`~.rows.RowMap` says which record each row
shows, and cells are computed on demand. Summary columns come from the columnar
extractor, a batch of rows around the first one asked for at a time, through a small
cache, so only visible rows cost anything.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont

from ...core.io import (
    STATUS_HELP,
    Compression,
    Dataset,
    Problem,
    RecordRef,
    RecordStatus,
    record_words,
)
from ...core.io.remote import is_url
from ...core.io.sniff import sniff
from ...core.query.names import column_feature, feature_column
from ...core.query.summaries import summary_texts
from ...core.write import EditSet
from ..style import status_colour, status_icon
from .rows import RowMap

RunLater = Callable[[Callable[[], Any], Callable[[Any, Any], None]], None]

Index = QModelIndex | QPersistentModelIndex
BASE_COLUMNS = ("#", "file", "offset", "length", "status")
_CACHE = 512
_BATCH = 128  # rows summarised in one pass
_DAMAGED = QColor(255, 220, 215)
_REGION = QColor(255, 236, 200)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


_SIZED_FILES = 2000  # files whose sizes size the offset column (a stat and a sniff each)


def _size_bound(path: str) -> int:
    """An offset at least as long as any in the local file ``path``: its size when it
    is plain, ten times its size when compressed (a stream grows when decoded); 0 for a
    remote or unreadable one."""
    if is_url(path):
        return 0
    try:
        size = os.path.getsize(path)
        plain = sniff(path) is Compression.NONE
    except OSError:
        return 0
    return size if plain else size * 10


def class_names_of(dataset: Dataset) -> dict[str, list[str]]:
    """The class names the dataset's folder describes (a TFDS folder), by key."""
    from ...core.io.tfds import info_of

    info = info_of(f.path for f in dataset.files)
    return dict(info.class_names) if info is not None else {}


class RecordTableModel(QAbstractTableModel):
    """Rows appear as the indexer reports them (:meth:`set_count`).
    ``sort_requested(column, descending)`` asks the window to sort in the background."""

    sort_requested = Signal(str, bool)

    def __init__(self, dataset: Dataset, parent: Any = None) -> None:
        super().__init__(parent)
        self.dataset = dataset
        self._map = RowMap(0)
        self._rows: np.ndarray | None = None  # shown records when filtered or sorted
        self._sorted = False
        self._with_regions = True
        self._region_count = 0
        self._regions: list[Problem] = []  # refreshed only when their number changes
        self.summary_keys: list[str] = []
        # class names by key where the dataset's folder gives them (TFDS ClassLabel files)
        self.class_names: dict[str, list[str]] = class_names_of(dataset)
        # a ClassLabel at the top names the records' classes; one under a sequence
        # (objects/label), their boxes'
        top = [names for key, names in self.class_names.items() if "/" not in key]
        nested = [names for key, names in self.class_names.items() if "/" in key]
        self.record_classes: dict[int, str] = dict(enumerate(top[0])) if top else {}
        self.box_classes: dict[int, str] = dict(enumerate(nested[0])) if nested else {}
        self._size_bounds: list[int] | None = None  # see widest_text("offset")
        # for remote datasets: ``run_later(fn, then)`` reads summaries off this thread
        self.run_later: RunLater | None = None
        self._summaries: OrderedDict[int, dict[str, str]] = OrderedDict()
        self._show_file = len(dataset.files) > 1
        self._refs: dict[int, RecordRef] = {}  # row facts, dropped when statuses change
        self._columns = self.columns()
        self.edits: EditSet | None = None  # marks edited and deleted rows

    # -- shape -----------------------------------------------------------------
    def columns(self) -> list[str]:
        """Column ids: the record's own, then ``f["key"]`` per summary feature (so a
        feature named like a record column is a column of its own)."""
        base = [c for c in BASE_COLUMNS if c != "file" or self._show_file]
        return base + [feature_column(k) for k in self.summary_keys]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._map)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._columns)

    def _remap(self) -> None:
        regions = self._regions if self._with_regions else []
        self._map = RowMap(self._map.count, self._rows, regions, self._sorted)

    def set_count(self, count: int) -> None:
        """Grow to ``count`` records as indexing proceeds (new damaged regions too)."""
        regions = self.dataset.region_count()
        if count < self._map.count or regions != self._region_count:
            self.beginResetModel()
            self._region_count = regions
            self._regions = self.dataset.regions() if regions else []
            self._map.count = count
            self._remap()
            self.endResetModel()
            return
        before = len(self._map)
        if self._rows is None and count > self._map.count:
            self._map.count = count
            self._remap()
            self.beginInsertRows(QModelIndex(), before, len(self._map) - 1)
            self.endInsertRows()
        else:
            self._map.count = count

    def set_rows(
        self, rows: np.ndarray | None, regions: bool = True, sorted_order: bool = False
    ) -> None:
        """Show only these global record numbers (None: all), with the damaged regions
        unless ``regions`` is False; ``sorted_order`` when ``rows`` is a sort."""
        self.beginResetModel()
        self._rows = None if rows is None else np.asarray(rows, dtype=np.int64)
        self._with_regions = regions
        self._sorted = sorted_order
        self._remap()
        self.endResetModel()

    @property
    def is_sorted(self) -> bool:
        return self._sorted

    def set_summary_keys(self, keys: list[str]) -> None:
        self.beginResetModel()
        self.summary_keys = list(keys)
        self._columns = self.columns()
        self._summaries.clear()
        self.endResetModel()

    def records_changed(self, records: list[int]) -> None:
        """Repaint rows whose payload was edited, deleted or restored."""
        for record in records:
            self._summaries.pop(record, None)
            row = self.row_of(record)
            if row is not None:
                self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))

    def statuses_changed(self) -> None:
        """Repaint after verification settled statuses (no rows added)."""
        self._refs.clear()
        if self.rowCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, 0))
            col = self._columns.index("status")
            self.dataChanged.emit(self.index(0, col), self.index(self.rowCount() - 1, col))

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if 0 <= column < len(self._columns):
            self.sort_requested.emit(self._columns[column], order == Qt.SortOrder.DescendingOrder)

    # -- mapping ---------------------------------------------------------------
    def record_at(self, row: int) -> int | None:
        """The record in ``row``; None for a damaged-region row."""
        return self._map.record_at(row)

    def region_at(self, row: int) -> Problem | None:
        return self._map.region_at(row)

    def row_of(self, record: int) -> int | None:
        """The row showing global ``record``, or None if it is filtered out."""
        return self._map.row_of(record)

    def row_of_region(self, region: Problem) -> int | None:
        return self._map.row_of_region(region)

    def record_count(self) -> int:
        """Records shown (region rows not counted)."""
        return self._map.record_count()

    def nth_record(self, k: int) -> int:
        return self._map.nth_record(k)

    def position_of(self, record: int) -> int | None:
        return self._map.position_of(record)

    def shown_records(self) -> np.ndarray:
        return self._map.shown_records()

    def widest_text(self, column: str) -> str:
        """The widest text ``column`` can hold in this dataset (for sizing it)."""
        ds = self.dataset
        if column == "#":
            return f"✎ {max(len(ds) - 1, 0)}"
        if column == "offset":  # sized from the files at once, not as the index grows
            if self._size_bounds is None:
                self._size_bounds = [_size_bound(f.path) for f in ds.files[:_SIZED_FILES]]
            known = max((f.index.position for f in ds.files), default=0)
            return f"{max([known, *self._size_bounds]):,}"
        if column == "length":
            longest = max(
                (int(f.index.lengths().max()) for f in ds.files if len(f.index)), default=0
            )
            return f"{longest:,}"
        if column == "status":
            return "bad_length_crc"
        if column == "file":
            return max((os.path.basename(f.path) for f in ds.files), key=len, default="")
        return ""

    # -- cells -----------------------------------------------------------------
    def _summary(self, record: int) -> dict[str, str]:
        """The summary texts of ``record``; a miss fills the cache for the rows around
        it in one extractor pass (rows are painted a screenful at a time)."""
        cached = self._summaries.get(record)
        if cached is not None:
            self._summaries.move_to_end(record)
            return cached
        wanted = self._neighbours(record)
        edited = None
        if self.edits is not None:
            edited = {r: p for r in wanted if (p := self.edits.payload_of(r)) is not None}
        if self.run_later is not None:
            return self._summary_later(record, wanted, edited)
        try:
            found = summary_texts(self.dataset, wanted, self.summary_keys, edited, self.class_names)
        except Exception as exc:  # a cell must never raise into Qt
            found = {record: dict.fromkeys(self.summary_keys, f"<{exc}>")}
        for r, texts in found.items():
            self._summaries[r] = texts
        while len(self._summaries) > _CACHE:
            self._summaries.popitem(last=False)
        return found.get(record, dict.fromkeys(self.summary_keys, ""))

    def _summary_later(
        self, record: int, wanted: list[int], edited: dict[int, bytes] | None
    ) -> dict[str, str]:
        """Show ``…`` now, and the texts when a worker has read them (remote files)."""
        pending = dict.fromkeys(self.summary_keys, "…")
        for r in wanted:
            self._summaries[r] = pending
        ds, keys = self.dataset, list(self.summary_keys)

        def arrived(found: dict[int, dict[str, str]] | None, exc: BaseException | None) -> None:
            if ds is not self.dataset or keys != self.summary_keys:
                return
            if found is None:
                found = {r: dict.fromkeys(keys, f"<{exc}>") for r in wanted}
            for r in wanted:
                self._summaries[r] = found.get(r, dict.fromkeys(keys, ""))
            first = len(self._columns) - len(keys)
            last = self.index(max(self.rowCount() - 1, 0), len(self._columns) - 1)
            self.dataChanged.emit(self.index(0, first), last, [Qt.ItemDataRole.DisplayRole])

        assert self.run_later is not None
        names = self.class_names
        self.run_later(lambda: summary_texts(ds, wanted, keys, edited, names), arrived)
        return pending

    def _neighbours(self, record: int) -> list[int]:
        """``record`` and the uncached records shown near it, at most a batch."""
        row = self.row_of(record)
        if row is None:
            return [record]
        lo, hi = max(0, row - _BATCH // 4), min(len(self._map), row + _BATCH)
        near = (self.record_at(r) for r in range(lo, hi))
        return [record] + [
            r for r in near if r is not None and r != record and r not in self._summaries
        ]

    def _ref(self, record: int) -> RecordRef | None:
        ref = self._refs.get(record)
        if ref is None:
            try:
                ref = self.dataset.ref(record)
            except IndexError:
                return None
            if len(self._refs) > 4096:
                self._refs.clear()
            self._refs[record] = ref
        return ref

    def _region_data(self, region: Problem, column: str, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if column == "#":
                return "—"
            if column == "file":
                return os.path.basename(region.file)
            if column == "offset":
                return f"{region.offset:,}"
            if column == "length":
                return f"{region.size:,}" if region.size else "rest"
            if column == "status":
                return region.kind
            if column == self._columns[-1] and self.summary_keys:
                what = f"{region.size:,} bytes" if region.size else "the rest of the stream"
                return f"{what} skipped (no record)"
            return ""
        if role == Qt.ItemDataRole.BackgroundRole:
            return QBrush(_REGION)
        if role == Qt.ItemDataRole.ForegroundRole and column == "status":
            return QBrush(status_colour(RecordStatus.TRUNCATED))
        if role == Qt.ItemDataRole.DecorationRole and column == "status":
            return status_icon(RecordStatus.TRUNCATED)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{STATUS_HELP.get(region.kind, '')}\n\n{region.message}"
        if role == Qt.ItemDataRole.TextAlignmentRole and column in ("#", "offset", "length"):
            return _RIGHT
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= self.rowCount():
            return None
        column = self._columns[index.column()]
        record = self._map.record_at(index.row())
        if record is None:
            region = self._map.region_at(index.row())
            return None if region is None else self._region_data(region, column, role)
        ref = self._ref(record)
        if ref is None:
            return None
        edits = self.edits
        deleted = edits is not None and edits.is_deleted(record)
        edited = edits is not None and edits.is_edited(record)
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(record, ref, column, deleted, edited)
        if role == Qt.ItemDataRole.FontRole:
            if deleted or edited:
                font = QFont()
                font.setStrikeOut(deleted)
                font.setItalic(edited)
                return font
            return None
        if role == Qt.ItemDataRole.DecorationRole and column == "status":
            return status_icon(ref.status)
        if role == Qt.ItemDataRole.BackgroundRole and ref.status.damaged:
            return QBrush(_DAMAGED)
        if role == Qt.ItemDataRole.ForegroundRole:
            if deleted:
                return QBrush(QColor(140, 140, 140))
            if column == "status":
                return QBrush(status_colour(ref.status))
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            kind = "deleted" if deleted else ref.status.kind
            several = len(self.dataset.files) > 1
            name = record_words(ref.index, ref.local, ref.file, several)
            where = f"{ref.file}\n{name}, {self.dataset.at_byte(ref.file_number, ref.offset)}"
            return f"{STATUS_HELP.get(kind, '')}\n\n{where}" if column == "status" else where
        if role == Qt.ItemDataRole.TextAlignmentRole and column in ("#", "offset", "length"):
            return _RIGHT
        return None

    def _text(self, record: int, ref: RecordRef, column: str, deleted: bool, edited: bool) -> str:
        if column == "#":
            return f"✗ {record}" if deleted else f"✎ {record}" if edited else str(record)
        if column == "file":
            return os.path.basename(ref.file)
        if column == "offset":
            return f"{ref.offset:,}"
        if column == "length":
            return f"{ref.length:,}"
        if column == "status":
            if deleted:
                return "deleted"
            kind = "…" if ref.status is RecordStatus.UNVERIFIED else ref.status.kind
            return f"{kind}, edited" if edited else kind
        return self._summary(record).get(column_feature(column) or column, "")

    def row_text(self, row: int) -> str:
        """A row's cells joined by tabs, for copying: numbers as a program reads them
        (``1234567``, not ``1,234,567``), the record number without its edit mark."""
        record = self._map.record_at(row)
        ref = self._ref(record) if record is not None else None
        cells = []
        for c, column in enumerate(self._columns):
            if ref is not None and column in ("#", "offset", "length"):
                value = {"#": ref.index, "offset": ref.offset, "length": ref.length}[column]
                cells.append(str(value))
            else:
                cells.append(str(self.data(self.index(row, c)) or ""))
        return "\t".join(cells)

    def header_text(self) -> str:
        return "\t".join(column_feature(c) or c for c in self._columns)

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            if 0 <= section < len(self._columns):
                column = self._columns[section]
                return column_feature(column) or column
            return None
        return None
