"""A table of data-QA findings (``check``'s :class:`Finding`), filterable by severity
and kind, sortable by any column (record numbers and offsets as numbers)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import (
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QFont

from ...core.analyze.findings import SEVERITIES, Finding
from .filter_change import change_filter
from .titled_table import RIGHT, SORT_ROLE, Index, TitledTable

COLUMNS = ("severity", "kind", "record", "file", "offset", "feature", "message")
SEVERITY_COLOURS = {"error": QColor(255, 220, 215), "warning": QColor(255, 240, 200)}


class FindingsModel(TitledTable):
    """Rows are findings (their ``severity kind record file offset feature message`` the
    columns). A finding of a record edited since the checks ran is shown greyed,
    as perhaps fixed, until they run again."""

    titles = COLUMNS

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.findings: list[Finding] = []
        self.edited: set[int] = set()  # records edited since the findings were made

    def set_findings(self, findings: Sequence[Finding]) -> None:
        self.beginResetModel()
        self.findings = list(findings)
        self.edited = set()
        self.endResetModel()

    def mark_edited(self, records: list[int]) -> None:
        """Records edited (or reverted) since the checks ran: their findings may be
        fixed; the checks say again when they run."""
        self.edited |= set(records)
        if self.findings:
            last = self.index(len(self.findings) - 1, len(COLUMNS) - 1)
            self.dataChanged.emit(self.index(0, 0), last)

    def is_edited(self, row: int) -> bool:
        return self.findings[row].record in self.edited

    def finding(self, row: int) -> Finding:
        return self.findings[row]

    def count(self) -> int:
        return len(self.findings)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.findings):
            return None
        f = self.findings[index.row()]
        name = COLUMNS[index.column()]
        value = getattr(f, name)
        if role == Qt.ItemDataRole.DisplayRole:
            if value is None:
                return "—"
            if name == "file":
                return os.path.basename(value)
            if name in ("record", "offset"):
                return f"{value:,}"
            return str(value)
        if role == SORT_ROLE:
            if name == "severity":
                return SEVERITIES.index(str(value))
            if name in ("record", "offset"):
                return -1 if value is None else int(value)
            return "" if value is None else str(value)
        edited = f.record in self.edited
        if role == Qt.ItemDataRole.ToolTipRole:
            where = f.file or ""
            since = "\n\nThe record was edited since: run the checks again." if edited else ""
            return f"{f.message}\n\nWhat to do: {f.hint}\n\n{where}".strip() + since
        if role == Qt.ItemDataRole.BackgroundRole:
            colour = None if edited else SEVERITY_COLOURS.get(f.severity)
            return QBrush(colour) if colour is not None else None
        if role == Qt.ItemDataRole.ForegroundRole and edited:
            return QBrush(QColor(140, 140, 140))
        if role == Qt.ItemDataRole.FontRole and edited:
            font = QFont()
            font.setStrikeOut(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and name in ("record", "offset"):
            return RIGHT
        return None


class FindingsFilter(QSortFilterProxyModel):
    """Shows the findings of one severity (or all) and one kind (or all); notes (info)
    only when asked for (``notes``) or chosen as the severity, as the command line
    hides them unless ``--fail-on info`` or ``--verbose``."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.severity: str | None = None
        self.kind: str | None = None
        self.notes = False

    def set_notes(self, shown: bool) -> None:
        self._change(lambda: setattr(self, "notes", shown))

    def set_severity(self, severity: str | None) -> None:
        self._change(lambda: setattr(self, "severity", severity))

    def set_kind(self, kind: str | None) -> None:
        self._change(lambda: setattr(self, "kind", kind))

    def _change(self, apply: Callable[[], object]) -> None:
        change_filter(self, apply)

    def filterAcceptsRow(self, row: int, parent: Index) -> bool:  # noqa: N802
        model = self.sourceModel()
        if not isinstance(model, FindingsModel) or not 0 <= row < len(model.findings):
            return False
        f = model.finding(row)
        if f.severity == "info" and not self.notes and self.severity != "info":
            return False
        return (self.severity is None or f.severity == self.severity) and (
            self.kind is None or f.kind == self.kind
        )
