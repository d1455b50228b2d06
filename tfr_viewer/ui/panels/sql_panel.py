"""The SQL dock: a query over the open dataset as the table ``records`` (its TFDS splits
as tables too), run in a child process by the operation ``sql`` runs
(:class:`~...app.sql.SqlRequest`), its result in a table; a row with an ``index``
selects its record (double-click or Enter), **Show These Records** makes the rows'
records the current view, **Export Records…** writes them. The queries run are kept per
dataset (the last ones first) with the ones saved under a name."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSettings, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ..settings_values import read_json_object

if TYPE_CHECKING:
    from ...app.sql import KeptQueries, SqlReport
    from ...core.io import Dataset
    from ..analysis_job import AnalysisJob
    from ..host import PanelHost

SETTING = "sql-queries"  # {dataset: {"history": [query, ...], "saved": {name: query}}}
HISTORY = 20  # queries kept per dataset
SHOWN_ROWS = 10_000  # rows of a result shown in the table
EXAMPLE = "SELECT label[1] AS label, count(*) AS records\nFROM records\nGROUP BY ALL ORDER BY 1"

_Index = QModelIndex | QPersistentModelIndex


class ResultModel(QAbstractTableModel):
    """A result's rows as text (:func:`~...app.sql.short`), at most :data:`SHOWN_ROWS`;
    each row's record by its ``index`` column or, without one, by its ``file`` and
    ``offset`` (``locate``: :func:`~...app.sql.frame_locator`)."""

    def __init__(
        self,
        report: SqlReport | None = None,
        locate: Callable[[Any, Any], int | None] | None = None,
    ) -> None:
        super().__init__()
        self.names: list[str] = []
        self.rows: list[list[str]] = []
        self.records: list[int | None] = []  # each row's record
        if report is not None:
            self._fill(report, locate)

    def _fill(self, report: SqlReport, locate: Callable[[Any, Any], int | None] | None) -> None:
        from ...core.analyze.sql_values import cell, short

        table = report.table.slice(0, SHOWN_ROWS)
        schema = table.schema
        self.names = list(schema.names)
        columns = [table.column(i).to_pylist() for i in range(table.num_columns)]
        kinds = [schema.field(i).type for i in range(table.num_columns)]
        lowered = [n.lower() for n in self.names]
        at = lowered.index("index") if "index" in lowered else None
        frame = (
            (lowered.index("file"), lowered.index("offset"))
            if at is None and locate is not None and {"file", "offset"} <= set(lowered)
            else None
        )
        for values in zip(*columns, strict=True):
            self.rows.append([short(cell(v, k), 80) for v, k in zip(values, kinds, strict=True)])
            if at is not None:
                held = values[at]
                self.records.append(held if isinstance(held, int) and held >= 0 else None)
            elif frame is not None and locate is not None:
                self.records.append(locate(values[frame[0]], values[frame[1]]))

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.names)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and index.isValid():
            return self.rows[index.row()][index.column()]
        return None

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self.names[section] if section < len(self.names) else None
        return str(section + 1)

    def record_at(self, row: int) -> int | None:
        return self.records[row] if 0 <= row < len(self.records) else None


class SqlPanel(QWidget):
    """The SQL dock (see the module)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host: PanelHost | None = None
        self.job: AnalysisJob | None = None
        self.report: SqlReport | None = None
        self.settings = QSettings("tfr-viewer", "tfr-viewer")
        self.queries = QComboBox(self)
        self.queries.setToolTip("Queries run on this dataset, the last first, and saved ones")
        self.queries.activated.connect(self._recalled)
        self.editor = QPlainTextEdit(self)
        self.editor.setPlaceholderText(EXAMPLE)
        self.editor.setMaximumHeight(110)
        self.run_button = QPushButton("&Run", self)
        self.run_button.setToolTip("Run the query (Ctrl+Return)")
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.save_button = QPushButton("Save…", self)
        self.save_button.setToolTip("Keep the query under a name, for this dataset")
        self.save_button.clicked.connect(self.save)
        self.show_button = QPushButton("Show These Records", self)
        self.show_button.clicked.connect(self.show_records)
        self.export_button = QPushButton("Export Records…", self)
        self.export_button.clicked.connect(self.export_records)
        self.html_button = QPushButton("Save as HTML…", self)
        self.html_button.setToolTip("The query and its result as a self-contained report")
        self.html_button.clicked.connect(lambda: self.save_html())
        self.status = QLabel("Open a dataset: its records are the table records.", self)
        self.status.setWordWrap(True)
        self.table = QTableView(self)
        self.model = ResultModel()
        self.table.setModel(self.model)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.doubleClicked.connect(lambda index: self.select_row(index.row()))
        self.table.activated.connect(lambda index: self.select_row(index.row()))
        run_key = QShortcut(QKeySequence("Ctrl+Return"), self.editor)
        run_key.activated.connect(self.run)
        buttons = QHBoxLayout()
        for button in (self.run_button, self.cancel_button, self.save_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        for button in (self.show_button, self.export_button, self.html_button):
            buttons.addWidget(button)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addWidget(self.queries)
        box.addWidget(self.editor)
        box.addLayout(buttons)
        box.addWidget(self.status)
        box.addWidget(self.table, 1)
        self._results_shown(False)

    # -- the window ---------------------------------------------------------------------
    def attach(self, host: PanelHost) -> None:
        self.host = host
        session = host.session
        session.opened.connect(lambda _ds: self._dataset_changed())
        session.closed.connect(self._dataset_changed)
        self._dataset_changed()

    def _dataset(self) -> Dataset | None:
        return None if self.host is None else self.host.session.dataset

    def _dataset_changed(self) -> None:
        self.cancel()
        self.model = ResultModel()
        self.table.setModel(self.model)
        self.report = None
        self._results_shown(False)
        self._list_queries()

    def _results_shown(self, shown: bool) -> None:
        has_records = shown and any(r is not None for r in self.model.records)
        self.show_button.setEnabled(has_records)
        self.export_button.setEnabled(has_records)
        self.html_button.setEnabled(shown)

    # -- running ------------------------------------------------------------------------
    def run(self) -> None:
        """Run the editor's query (its example, when it is empty) in a child process."""
        from ...app.sql import SqlRequest
        from ..analysis_job import AnalysisJob

        ds = self._dataset()
        if ds is None or self.host is None:
            self.status.setText("Open a dataset first: its records are the table records.")
            return
        query = self.editor.toPlainText().strip() or EXAMPLE
        if not self.editor.toPlainText().strip():
            self.editor.setPlainText(query)
        self.cancel()
        self._remember(query)
        job = self.job = AnalysisJob(ds, SqlRequest(query), parent=self)
        job.finished.connect(lambda result, error, j=job: self._finished(j, result, error))
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.status.setText("Running…")
        job.start()

    def cancel(self) -> None:
        job, self.job = self.job, None
        if job is not None:
            job.cancel()
            self.status.setText("Cancelled.")
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def _finished(self, job: AnalysisJob, report: Any, error: str) -> None:
        if job is not self.job:
            return  # a job cancelled or replaced
        self.job = None
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        if report is None:
            self.status.setText(error or "Cancelled.")
            return
        self.report = report
        from ...app.sql import frame_locator

        ds = self._dataset()
        self.model = ResultModel(report, frame_locator(ds) if ds is not None else None)
        self.table.setModel(self.model)
        self._fit_columns()
        rows = report.table.num_rows
        shown = f" (the first {SHOWN_ROWS:,} shown)" if rows > SHOWN_ROWS else ""
        named = any(r is not None for r in self.model.records)
        hint = "; double-click a row to select its record" if named else ""
        said = "".join(f"\n{w}" for w in report.warnings)
        self.status.setText(f"{rows:,} rows in {report.seconds:.2f} s{shown}{hint}.{said}")
        self._results_shown(True)

    def _fit_columns(self) -> None:
        """Each column as wide as its header and its first rows' text, up to a third of
        the dock's width."""
        header = self.table.horizontalHeader()
        header.setResizeContentsPrecision(200)
        self.table.resizeColumnsToContents()
        widest = max(160, self.width() // 3)
        for column in range(self.model.columnCount()):
            self.table.setColumnWidth(column, min(self.table.columnWidth(column), widest))

    # -- rows and records ---------------------------------------------------------------
    def select_row(self, row: int) -> None:
        record = self.model.record_at(row)
        if self.host is None:
            return
        if record is None:
            self.host.statusBar().showMessage(
                "This row names no record: a result needs an index column (or file and offset) "
                "for that",
                8000,
            )
            return
        if not self.host.select_record(record):
            self.host.statusBar().showMessage(f"record {record} is not in this dataset", 8000)

    def result_records(self) -> list[int]:
        """The records the result's rows name, each once."""
        return sorted({r for r in self.model.records if r is not None})

    def show_records(self) -> None:
        if self.host is not None and self.result_records():
            self.host.show_in_gallery(self.result_records())

    def export_records(self) -> None:
        if self.host is not None and self.result_records():
            self.host.export_records("tfrecord", self.result_records())

    def save_html(self, target: str | None = None) -> bool:
        """The query and its result as ``sql --html`` writes them, to ``target`` (asked
        in a save dialog when None), through the output layer (never over a file of
        the dataset)."""
        from ...core.report.page import as_bytes
        from ...core.report.sql_report import sql_html
        from ...core.user_error import UserError
        from ...core.write.output import save_file
        from .. import file_dialogs

        ds, report = self._dataset(), self.report
        if report is None or ds is None:
            return False
        if target is None:
            start = os.path.join(os.path.dirname(ds.files[0].path), "query.html")
            target = file_dialogs.save_file(self, "Save as HTML", start, "HTML (*.html)")
        if not target:
            return False
        try:
            save_file(target, as_bytes(sql_html(report.to_json())),
                      inputs=[f.path for f in ds.files], overwrite=True, role="report")  # fmt: skip
        except UserError as exc:
            self.status.setText(str(exc))
            return False
        self.status.setText(f"Saved {target}.")
        return True

    # -- the queries kept ---------------------------------------------------------------
    def _key(self) -> str | None:
        ds = self._dataset()
        return None if ds is None or not ds.files else os.path.abspath(ds.files[0].path)

    def _kept(self) -> dict[str, Any]:
        return read_json_object(self.settings, SETTING)

    def _mine(self) -> KeptQueries:
        from ...app.sql import KeptQueries

        return KeptQueries.from_json(self._kept().get(self._key() or ""), HISTORY)

    def _store(self, mine: KeptQueries) -> None:
        key = self._key()
        if key is None:
            return
        kept = self._kept()
        kept.pop(key, None)
        kept[key] = mine.to_json()
        while len(kept) > 50:  # the datasets of the last fifty kept
            kept.pop(next(iter(kept)))
        self.settings.setValue(SETTING, json.dumps(kept))
        self._list_queries()

    def _remember(self, query: str) -> None:
        mine = self._mine()
        mine.ran(query)
        self._store(mine)

    def save(self) -> None:
        query = self.editor.toPlainText().strip()
        if not query or self._key() is None:
            self.status.setText("Write a query, with a dataset open, to save it.")
            return
        name, ok = QInputDialog.getText(self, "Save Query", "Name:")
        if ok and name.strip():
            mine = self._mine()
            mine.saved[name.strip()] = query
            self._store(mine)
            self.status.setText(f"Saved as {name.strip()!r} for this dataset.")

    def _list_queries(self) -> None:
        self.queries.clear()
        mine = self._mine()
        self.queries.addItem("Queries of this dataset…", None)
        for name, query in sorted(mine.saved.items()):
            self.queries.addItem(f"★ {name}", query)
        for query in mine.history:
            self.queries.addItem(" ".join(query.split())[:100], query)
        self.queries.setEnabled(self.queries.count() > 1)

    def _recalled(self, position: int) -> None:
        query = self.queries.itemData(position)
        if isinstance(query, str):
            self.editor.setPlainText(query)
        self.queries.setCurrentIndex(0)
