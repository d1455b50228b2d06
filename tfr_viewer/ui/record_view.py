"""The record table's view: columns sized for the widest value they can hold (and the
widths a user sets, remembered), copying rows as TSV, Ctrl+Home/End selecting."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtGui import QGuiApplication, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTableView, QWidget

from ..core.query.names import column_feature
from .models.record_table import RecordTableModel
from .settings_values import read_int

_PADDING = 28  # room for the sort arrow, the status icon and the cell margins
_MAX_SUMMARY = 320
_MAX_REMEMBERED = 4000  # pixels: a remembered column wider is not one the user made


class RecordTableView(QTableView):
    """A QTableView that knows the record table model's columns."""

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self._sizing = False
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.verticalHeader().setDefaultSectionSize(22)
        header = self.horizontalHeader()
        header.setStretchLastSection(True)
        # a summary column is fitted to the rows in view (Qt's default reads a thousand
        # rows, and each row's summary is read from its record)
        header.setResizeContentsPrecision(0)
        header.setSortIndicatorShown(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        header.setSectionsClickable(True)
        header.sectionResized.connect(self._remember_width)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._columns_menu)
        header.setToolTip("Click to sort; right-click to choose the summary columns")
        self.known_keys: list[str] = []  # feature keys seen in the data
        self.setAlternatingRowColors(True)
        self.setSortingEnabled(True)

    def select_row(self, row: int) -> None:
        """Make ``row`` the current row, scrolled to the middle of the view."""
        index = self.model().index(row, 0)
        self.setCurrentIndex(index)
        self.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)

    def record_model(self) -> RecordTableModel | None:
        model = self.model()
        return model if isinstance(model, RecordTableModel) else None

    # -- widths ------------------------------------------------------------------
    def fit_columns(self) -> None:
        """Each column as wide as the widest value it can hold (a remembered width
        wins); summary columns fit the rows in view, within a limit."""
        model = self.record_model()
        if model is None:
            return
        metrics = self.fontMetrics()
        header = self.horizontalHeader()
        self._sizing = True
        try:
            for section, name in enumerate(model.columns()):
                remembered = read_int(self.settings, f"columns/{name}", 8, _MAX_REMEMBERED)
                if remembered is not None:
                    width = remembered
                elif column_feature(name) is not None:
                    self.resizeColumnToContents(section)
                    width = min(max(self.columnWidth(section), 60), _MAX_SUMMARY)
                else:
                    text = max(model.widest_text(name), name, key=len)
                    width = metrics.horizontalAdvance(text) + _PADDING
                    width = max(width, header.sectionSizeFromContents(section).width())
                self.setColumnWidth(section, width)
        finally:
            self._sizing = False

    def _remember_width(self, section: int, _old: int, new: int) -> None:
        model = self.record_model()
        if self._sizing or model is None or not self.isVisible():
            return
        columns = model.columns()
        last = section == len(columns) - 1  # stretched to fill: not the user's choice
        if 0 <= section < len(columns) and not last:
            self.settings.setValue(f"columns/{columns[section]}", new)

    def _columns_menu(self, pos: QPoint) -> None:
        """Pick the summary columns from the feature keys seen in the data."""
        model = self.record_model()
        if model is None or not self.known_keys:
            return
        menu = QMenu(self)
        menu.addSection("Summary columns")
        for key in self.known_keys[:60]:
            action = menu.addAction(key)
            action.setCheckable(True)
            action.setChecked(key in model.summary_keys)
            action.toggled.connect(lambda on, k=key: self.toggle_summary_column(k, on))
        menu.exec(self.horizontalHeader().mapToGlobal(pos))

    def toggle_summary_column(self, key: str, on: bool) -> None:
        model = self.record_model()
        if model is not None:
            keys = [k for k in model.summary_keys if k != key] + ([key] if on else [])
            model.set_summary_keys(keys)
            self.fit_columns()

    def reset_column_widths(self) -> None:
        """Forget the widths the user set; size from the data again."""
        self.settings.remove("columns")
        self.fit_columns()

    # -- keys --------------------------------------------------------------------
    def copy_rows(self) -> str:
        """The selected rows (or the current one) as TSV with a header line, copied."""
        model = self.record_model()
        if model is None:
            return ""
        rows = sorted({i.row() for i in self.selectionModel().selectedRows()})
        if not rows and self.currentIndex().isValid():
            rows = [self.currentIndex().row()]
        if not rows:
            return ""
        text = "\n".join([model.header_text(), *(model.row_text(r) for r in rows)]) + "\n"
        QGuiApplication.clipboard().setText(text)
        return text

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_rows()
            return
        ctrl = event.modifiers() & Qt.KeyboardModifier.ControlModifier
        if ctrl and event.key() in (Qt.Key.Key_End, Qt.Key.Key_Home) and self.model():
            row = self.model().rowCount() - 1 if event.key() == Qt.Key.Key_End else 0
            if row >= 0:
                self.selectRow(row)
                self.scrollTo(self.model().index(row, 0))
            return
        super().keyPressEvent(event)
