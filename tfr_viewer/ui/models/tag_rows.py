"""The run view's tag table: a row a tag of a run (:class:`~...core.analyze.event_log.
TagEntry`: its plugin, points, first and last step, the bytes it takes and its share of
the files' bytes), sortable by any column (numbers as numbers), updated in place as the
read goes on so that what the user selected stays selected."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QModelIndex, QSortFilterProxyModel, Qt

from ...core.analyze.event_log import TagEntry
from ...core.text import human_bytes
from .titled_table import RIGHT, SORT_ROLE, Index, TitledTable

COLUMNS = ("run", "tag", "plugin", "points", "first step", "last step", "bytes", "share")
_FIELDS = ("run", "tag", "plugin", "points", "first_step", "last_step", "bytes", None)
_NUMBERS = frozenset(range(3, len(COLUMNS)))


class TagRowsModel(TitledTable):
    """The tags read so far; ``total`` bytes, the share's whole."""

    titles = COLUMNS

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[TagEntry] = []
        self.total = 0
        self._at: dict[tuple[str, str], int] = {}

    def clear(self) -> None:
        self.beginResetModel()
        self.rows, self.total, self._at = [], 0, {}
        self.endResetModel()

    def update(self, entries: Iterable[TagEntry], total: int) -> None:
        """Tags as they stand now (new ones added at the end, the others changed in
        their rows); ``total``: the bytes shares are of."""
        self.total = total
        new = []
        for entry in entries:
            row = self._at.get((entry.run, entry.tag))
            if row is None:
                new.append(entry)
            else:
                self.rows[row] = entry
        if self.rows:
            self.dataChanged.emit(
                self.index(0, 0), self.index(len(self.rows) - 1, len(COLUMNS) - 1)
            )
        if new:
            self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows) + len(new) - 1)
            for entry in new:
                self._at[(entry.run, entry.tag)] = len(self.rows)
                self.rows.append(entry)
            self.endInsertRows()

    def count(self) -> int:
        return len(self.rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        entry, column = self.rows[index.row()], index.column()
        field = _FIELDS[column]
        value: Any = (
            getattr(entry, field) if field else (entry.bytes / self.total if self.total else 0.0)
        )
        if role == Qt.ItemDataRole.DisplayRole:
            if field == "bytes":
                return human_bytes(round(value))
            if field is None:
                return f"{value:.1%}"
            return f"{value:,}" if column in _NUMBERS else str(value)
        if role == SORT_ROLE:
            return value
        if role == Qt.ItemDataRole.ToolTipRole and field == "bytes":
            return f"{round(value):,} bytes"
        if role == Qt.ItemDataRole.TextAlignmentRole and column in _NUMBERS:
            return RIGHT
        return None


class SortedTags(QSortFilterProxyModel):
    """The tags sorted by a column's values, filtered by a text in their run or tag."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterKeyColumn(-1)

    def entry(self, index: QModelIndex) -> TagEntry:
        model = self.sourceModel()
        assert isinstance(model, TagRowsModel)
        return model.rows[self.mapToSource(index).row()]
