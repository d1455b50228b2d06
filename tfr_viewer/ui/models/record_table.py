"""A virtual table over the dataset index: one row per record, filtered or not.

The model never copies the index: row ``r`` is global record ``r`` (or ``rows[r]`` when
a filter is applied), and cells are computed on demand. Summary columns decode the
record lazily through a small cache, so only visible rows cost anything.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from ...core.decode import decode, features_of
from ...core.io import Dataset, RecordRef, RecordStatus
from ...core.write import EditSet
from ..style import status_colour, status_icon

Index = QModelIndex | QPersistentModelIndex
BASE_COLUMNS = ("#", "file", "offset", "length", "status")
_CACHE = 512
_ROLES = frozenset(
    {
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.DecorationRole,
        Qt.ItemDataRole.BackgroundRole,
        Qt.ItemDataRole.ForegroundRole,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.TextAlignmentRole,
    }
)


def summarise(values: Any, kind: str) -> str:
    """A short cell text for a feature's values."""
    if kind == "bytes":
        if len(values) == 1:
            v = values[0]
            try:
                text = v.decode("utf-8")
                return text if len(text) <= 40 and text.isprintable() else f"<{len(v)} bytes>"
            except UnicodeDecodeError:
                return f"<{len(v)} bytes>"
        return f"[{len(values)} values]"
    items = np.asarray(values).tolist()
    if len(items) == 1:
        return f"{items[0]:.6g}" if kind == "float" else str(items[0])
    if len(items) <= 4:
        return ", ".join(f"{v:.4g}" if kind == "float" else str(v) for v in items)
    return f"[{len(items)} values]"


class RecordTableModel(QAbstractTableModel):
    """Rows appear as the indexer reports them (:meth:`set_count`)."""

    def __init__(self, dataset: Dataset, parent: Any = None) -> None:
        super().__init__(parent)
        self.dataset = dataset
        self._count = 0
        self._rows: np.ndarray | None = None  # global numbers when filtered
        self.summary_keys: list[str] = []
        self._summaries: OrderedDict[int, dict[str, str]] = OrderedDict()
        self._show_file = len(dataset.files) > 1
        self._refs: dict[int, RecordRef] = {}  # row facts, dropped when statuses change
        self._columns = self.columns()
        self.edits: EditSet | None = None  # marks edited and deleted rows

    # -- shape -----------------------------------------------------------------
    def columns(self) -> list[str]:
        base = [c for c in BASE_COLUMNS if c != "file" or self._show_file]
        return base + self.summary_keys

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        if parent.isValid():
            return 0
        return self._count if self._rows is None else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.columns())

    def set_count(self, count: int) -> None:
        """Grow to ``count`` records (unfiltered view) as indexing proceeds."""
        if count < self._count:
            self.beginResetModel()
            self._count = count
            self.endResetModel()
            return
        if self._rows is None and count > self._count:
            self.beginInsertRows(QModelIndex(), self._count, count - 1)
            self._count = count
            self.endInsertRows()
        else:
            self._count = count

    def set_rows(self, rows: np.ndarray | None) -> None:
        """Show only these global record numbers (None: all)."""
        self.beginResetModel()
        self._rows = None if rows is None else np.asarray(rows, dtype=np.int64)
        self.endResetModel()

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
            col = self.columns().index("status")
            self.dataChanged.emit(self.index(0, col), self.index(self.rowCount() - 1, col))

    # -- mapping ---------------------------------------------------------------
    def record_at(self, row: int) -> int:
        return row if self._rows is None else int(self._rows[row])

    def row_of(self, record: int) -> int | None:
        """The row showing global ``record``, or None if it is filtered out."""
        if self._rows is None:
            return record if 0 <= record < self._count else None
        pos = int(np.searchsorted(self._rows, record))
        return pos if pos < len(self._rows) and self._rows[pos] == record else None

    # -- cells -----------------------------------------------------------------
    def _summary(self, record: int) -> dict[str, str]:
        cached = self._summaries.get(record)
        if cached is not None:
            self._summaries.move_to_end(record)
            return cached
        out: dict[str, str] = {}
        try:
            edited = self.edits.payload_of(record) if self.edits is not None else None
            payload = decode(edited or self.dataset.read(record)).payload
            features = features_of(payload) or {}
            for key in self.summary_keys:
                fd = features.get(key)
                out[key] = "" if fd is None else summarise(fd.values, fd.kind)
        except Exception as exc:  # a cell must never raise into Qt
            out = dict.fromkeys(self.summary_keys, f"<{exc}>")
        self._summaries[record] = out
        if len(self._summaries) > _CACHE:
            self._summaries.popitem(last=False)
        return out

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

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _ROLES or not index.isValid() or index.row() >= self.rowCount():
            return None
        record = self.record_at(index.row())
        column = self._columns[index.column()]
        ref = self._ref(record)
        if ref is None:
            return None
        edits = self.edits
        if role == Qt.ItemDataRole.FontRole and edits is not None:
            deleted, edited = edits.is_deleted(record), edits.is_edited(record)
            if deleted or edited:
                font = QFont()
                font.setStrikeOut(deleted)
                font.setItalic(edited)
                return font
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if column == "#":
                if edits is not None and edits.is_deleted(record):
                    return f"✗ {record}"
                if edits is not None and edits.is_edited(record):
                    return f"✎ {record}"
                return str(record)
            if column == "file":
                return os.path.basename(ref.file)
            if column == "offset":
                return f"{ref.offset:,}"
            if column == "length":
                return f"{ref.length:,}"
            if column == "status":
                return "…" if ref.status is RecordStatus.UNVERIFIED else ref.status.kind
            return self._summary(record).get(column, "")
        if role == Qt.ItemDataRole.DecorationRole and column == "status":
            return status_icon(ref.status)
        if role == Qt.ItemDataRole.BackgroundRole and ref.status.damaged:
            return QBrush(QColor(255, 220, 215))
        if role == Qt.ItemDataRole.ForegroundRole and column == "status":
            return QBrush(status_colour(ref.status))
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{ref.file}\nrecord {ref.local} of its file, byte {ref.offset}"
        if role == Qt.ItemDataRole.TextAlignmentRole and column in ("#", "offset", "length"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            cols = self.columns()
            return cols[section] if 0 <= section < len(cols) else None
        return None
