"""The episode table's rows (:class:`~...core.analyze.episode_table.EpisodeRow`) as a
Qt table, sortable by any column (numbers as numbers), and the proxy that shows the
rows a filter of the filter language matched."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import (
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush

from ...core.analyze.episode_table import EpisodeRow
from ...core.analyze.findings import KINDS, SEVERITIES
from .filter_change import change_filter
from .findings_model import SEVERITY_COLOURS
from .titled_table import RIGHT, SORT_ROLE, Index, TitledTable

# (title, the row's field)
COLUMNS = (
    ("episode", "record"),
    ("split", "split"),
    ("steps", "length"),
    ("instruction", "instruction"),
    ("ends", "ends"),
    ("terminal", "terminal"),
    ("reward", "reward"),
    ("success", "success"),
    ("findings", "findings"),
    ("file", "file"),
)
_FLAG = {True: "yes", False: "no", None: "—"}


def worst(row: EpisodeRow) -> str | None:
    """The severity of the row's most severe finding, if it has one."""
    found = [KINDS[k][0] for k in row.findings if k in KINDS]
    return min(found, key=SEVERITIES.index) if found else None


class EpisodeRowsModel(TitledTable):
    """One row an episode; a row with findings coloured by the most severe."""

    titles = tuple(title for title, _ in COLUMNS)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[EpisodeRow] = []

    def set_rows(self, rows: Sequence[EpisodeRow]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def row(self, number: int) -> EpisodeRow:
        return self.rows[number]

    def count(self) -> int:
        return len(self.rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row = self.rows[index.row()]
        name = COLUMNS[index.column()][1]
        value = getattr(row, name)
        if role == Qt.ItemDataRole.DisplayRole:
            return _shown(name, value)
        if role == SORT_ROLE:
            if isinstance(value, tuple):
                return len(value)
            if isinstance(value, bool):
                return int(value)
            if value is None:
                return -1e300 if name in ("reward", "record", "length") else ""
            return value
        if role == Qt.ItemDataRole.BackgroundRole:
            colour = SEVERITY_COLOURS.get(worst(row) or "")
            return QBrush(colour) if colour is not None else None
        if role == Qt.ItemDataRole.ToolTipRole and name == "findings" and row.findings:
            return "\n".join(f"{k}: {KINDS[k][1]}" for k in row.findings if k in KINDS)
        if role == Qt.ItemDataRole.ToolTipRole and name in ("instruction", "file"):
            return None if value is None else str(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and name in ("record", "length", "reward"):
            return RIGHT
        return None


def _shown(name: str, value: Any) -> str:
    if name in ("ends", "terminal", "success"):
        return _FLAG[value]
    if value is None:
        return "—"
    if name == "findings":
        return ", ".join(value) or "—"
    if name == "file":
        return os.path.basename(str(value))
    if name == "instruction":
        return repr(value) if not value.strip() else str(value)
    if name == "reward":
        return f"{value:g}"
    if name in ("record", "length"):
        return f"{value:,}"
    return str(value)


class MatchedRows(QSortFilterProxyModel):
    """Shows the rows whose records ``matched`` holds (all when it is None), sorted by
    the column's values."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.matched: frozenset[int] | None = None

    def set_matched(self, records: frozenset[int] | None) -> None:
        self._change(lambda: setattr(self, "matched", records))

    def _change(self, apply: Callable[[], object]) -> None:
        change_filter(self, apply)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:  # noqa: N802
        if self.matched is None:
            return True
        model = self.sourceModel()
        assert isinstance(model, EpisodeRowsModel)
        return model.row(source_row).record in self.matched
