"""The Episodes panel: the report of the ``episodes`` analysis (Analyze › Run Episodes)
as a table of the dataset's episodes (split, steps, instruction, how each ends, its
reward, its findings), sortable by any column and filtered with the filter language
over its columns (``len(steps) < 5``, ``instruction == ""``, ``"camera_blank" in
findings``); Enter or a double-click selects the episode, which the Episode Player
shows; Export as TFDS Folder… writes the episodes shown (edits applied) as a TensorFlow
Datasets folder, each in its split."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QSettings, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...app.episode_table import EpisodesReport
from ...core.analyze.episode_table import COLUMNS as NAMES, rows_matching
from ...core.query.language import QueryError
from ...core.text import plural
from ..host import PanelHost
from ..models.episode_rows import EpisodeRowsModel, MatchedRows
from .report_table import report_table

_SETTING = "episodes/filter"


class EpisodeTable(QWidget):
    """The table; ``filter_edit`` holds the filter, ``count`` what it matched."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host: PanelHost | None = None
        self.model = EpisodeRowsModel(self)
        self.proxy = MatchedRows(self)
        self.proxy.setSourceModel(self.model)
        self.table = report_table(self, self.proxy)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.activated.connect(self._activated)
        self.table.doubleClicked.connect(self._activated)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setPlaceholderText(
            'Filter episodes: len(steps) < 5, instruction == "", "camera_blank" in findings'
        )
        self.filter_edit.setToolTip(
            "The filter language over the table's columns:\n"
            + "\n".join(f"{name}: {what}" for name, what in NAMES.items())
        )
        self.filter_edit.returnPressed.connect(self.apply_filter)
        self._typing = QTimer(self, singleShot=True, interval=350)
        self._typing.timeout.connect(self.apply_filter)
        self.filter_edit.textEdited.connect(lambda _text: self._typing.start())
        self.count = QLabel("Run Analyze › Run Episodes to list the episodes.", self)
        self.error = QLabel(self)
        self.error.setStyleSheet("color: #b00020; font-family: monospace")
        self.error.setWordWrap(True)
        self.error.hide()
        self.export_button = QPushButton("Export as TFDS Folder…", self)
        self.export_button.setToolTip(
            "Write the episodes shown as a TensorFlow Datasets folder (features.json and "
            "dataset_info.json with it), each episode in its split"
        )
        self.export_button.setEnabled(False)
        self.export_button.clicked.connect(self.export_shown)
        row = QHBoxLayout()
        row.addWidget(self.filter_edit, 1)
        row.addWidget(self.count)
        row.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(row)
        layout.addWidget(self.error)
        layout.addWidget(self.table, 1)
        self.settings = QSettings("tfr-viewer", "tfr-viewer")
        self.filter_edit.setText(str(self.settings.value(_SETTING, "") or ""))
        self.report: EpisodesReport | None = None

    def attach(self, host: PanelHost) -> None:
        """Select episodes through ``host``; forget the table when its dataset closes."""
        self.host = host
        host.session.closed.connect(self.clear)
        host.session.opened.connect(lambda _ds: self.clear())

    def clear(self) -> None:
        self.report = None
        self.model.set_rows([])
        self.export_button.setEnabled(False)
        self.count.setText("Run Analyze › Run Episodes to list the episodes.")

    def set_report(self, report: EpisodesReport) -> None:
        """Show ``report``'s episodes, through the filter typed."""
        self.report = report
        self.model.set_rows(report.rows)
        self.table.resizeColumnsToContents()
        self.apply_filter()

    def apply_filter(self) -> None:
        """Show the episodes the filter typed matches (all when it is empty); a wrong
        filter is said under it, and the table keeps what it showed."""
        self._typing.stop()
        text = self.filter_edit.text().strip()
        self.settings.setValue(_SETTING, text)
        try:
            matched = rows_matching(self.model.rows, text) if text else None
        except QueryError as exc:
            self.error.setText(str(exc))
            self.error.show()
            return
        self.error.hide()
        self.proxy.set_matched(None if matched is None else frozenset(r.record for r in matched))
        self._count()

    def export_shown(self) -> None:
        """Export the episodes shown as a TFDS folder (the window asks where)."""
        records = self.shown_records()
        if self.host is not None and records:
            self.host.export_records("tfds", sorted(records))

    def _count(self) -> None:
        self.export_button.setEnabled(self.proxy.rowCount() > 0)
        total = len(self.model.rows)
        if self.report is not None and not self.report.count:
            self.count.setText("No record keeps steps: no episodes.")
        elif self.proxy.matched is None:
            self.count.setText(plural(total, "episode"))
        else:
            self.count.setText(f"{self.proxy.rowCount():,} of {plural(total, 'episode')}")

    def shown_records(self) -> list[int]:
        """The records of the episodes shown, in the table's order."""
        return [
            self.model.row(self.proxy.mapToSource(self.proxy.index(r, 0)).row()).record
            for r in range(self.proxy.rowCount())
        ]

    def _activated(self, index: QModelIndex) -> None:
        if self.host is None or not index.isValid():
            return
        self.host.select_record(self.model.row(self.proxy.mapToSource(index).row()).record)
