"""The main window: record table, filter bar, feature tree, previews and status bar."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QGuiApplication,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QFileDialog,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from ..core.decode import decode
from ..core.io import Dataset, PathError, SourceError
from .edit_actions import EditActions
from .filter_bar import FilterBar
from .indexer import Indexer, IndexState, prestart
from .models.feature_tree import FeatureTreeModel
from .models.record_table import RecordTableModel
from .panels.gallery import Gallery
from .recent import RecentFiles
from .summary import choose_summary_keys, feature_keys, sample_features
from .viewers.preview import PreviewPane


class MainWindow(QMainWindow):
    """``index_finished`` fires when indexing and verification end; ``record_shown`` when
    the previews of the selected record are ready (both used by --screenshot)."""

    index_finished = Signal(int)
    record_shown = Signal(int)

    def __init__(self) -> None:
        super().__init__()
        self.settings = QSettings("tfr-viewer", "tfr-viewer")
        self.dataset: Dataset | None = None
        self.indexer: Indexer | None = None
        self.current: int | None = None
        self._started = 0.0
        self.remember_geometry = True  # off for --screenshot, which resizes the window
        self.setAcceptDrops(True)
        self._build_widgets()
        self._build_menus()
        self.edit_actions = EditActions(self)
        self._update_title()
        prestart()  # a child process ready to index the first file
        geometry = self.settings.value("geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 800)

    # -- construction --------------------------------------------------------------
    def _build_widgets(self) -> None:
        self.filter_bar = FilterBar(self)
        self.table = QTableView(self)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setResizeContentsPrecision(40)
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._columns_menu)
        header.setToolTip("Right-click to choose the summary columns")
        self.known_keys: list[str] = []
        self.gallery = Gallery(self)
        self.gallery.record_activated.connect(self.select_record)
        self.left_tabs = QTabWidget(self)
        self.left_tabs.addTab(self.table, "Records")
        self.left_tabs.addTab(self.gallery, "Gallery")
        self.left_tabs.currentChanged.connect(self._tab_changed)
        left = QWidget(self)
        box = QVBoxLayout(left)
        box.setContentsMargins(4, 4, 0, 4)
        box.addWidget(self.filter_bar)
        box.addWidget(self.left_tabs, 1)
        self.tree_model = FeatureTreeModel(self)
        self.tree = QTreeView(self)
        self.tree.setModel(self.tree_model)
        self.tree.setAlternatingRowColors(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._tree_menu)
        self.tree.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.tree_model.edit_requested.connect(
            lambda key, text: self.edit_actions.edit_value(key, text)
        )
        self.preview = PreviewPane(self)
        right = QSplitter(Qt.Orientation.Vertical, self)
        right.addWidget(self.tree)
        right.addWidget(self.preview)
        right.setSizes([350, 450])
        self.splitter = QSplitter(self)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setSizes([560, 720])
        self.setCentralWidget(self.splitter)
        self.filter_bar.rows_changed.connect(self._apply_rows)
        self.filter_bar.message.connect(lambda m: self.statusBar().showMessage(m, 15000))
        status = self.statusBar()
        self.progress = QProgressBar(self)
        self.progress.setMaximumWidth(200)
        self.progress.hide()
        self.counts = QLabel(self)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.hide()
        self.cancel_button.clicked.connect(self.cancel_indexing)
        status.addPermanentWidget(self.counts)
        status.addPermanentWidget(self.progress)
        status.addPermanentWidget(self.cancel_button)

    def add_action(
        self, menu: QMenu, text: str, slot, shortcut: QKeySequence | str | None = None
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        # ``triggered`` passes ``checked``; it must never reach a slot's optional parameter.
        action.triggered.connect(lambda _checked=False, s=slot: s())
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = self.file_menu = bar.addMenu("&File")
        self.add_action(file_menu, "&New Window", self.new_window, QKeySequence.StandardKey.New)
        self.add_action(file_menu, "&Open…", self.open_dialog, QKeySequence.StandardKey.Open)
        self.add_action(file_menu, "Open &Folder…", self.open_folder_dialog, "Ctrl+Shift+O")
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent = RecentFiles(self.settings, self.recent_menu, self.open_paths)
        file_menu.addSeparator()
        self.add_action(file_menu, "&Close Window", self.close, QKeySequence.StandardKey.Close)
        self.quit_action = self.add_action(
            file_menu, "&Quit", QApplication.closeAllWindows, QKeySequence.StandardKey.Quit
        )
        go = bar.addMenu("&Go")
        self.add_action(go, "&Go to Record or Offset…", self.goto_dialog, "Ctrl+G")
        self.add_action(go, "&Filter", lambda: self.filter_bar.edit.setFocus(), "Ctrl+F")
        view = bar.addMenu("&View")
        self.add_action(
            view, "Toggle &Overlays", lambda: self.preview.images.overlays.toggle(), "O"
        )
        self.add_action(view, "&Records", lambda: self.left_tabs.setCurrentIndex(0), "Ctrl+1")
        self.add_action(view, "&Gallery", lambda: self.left_tabs.setCurrentIndex(1), "Ctrl+2")
        edit = self.edit_menu = bar.addMenu("&Edit")
        self.add_action(
            edit, "Copy &Value", lambda: self._copy(value=True), QKeySequence.StandardKey.Copy
        )
        self.add_action(edit, "Copy &Key", lambda: self._copy(value=False), "Ctrl+Shift+C")
        help_menu = bar.addMenu("&Help")
        self.add_action(help_menu, "&About tfr-viewer", self.about)

    def new_window(self) -> None:
        """Another empty main window of this app (when the app keeps a window list)."""
        windows = getattr(QApplication.instance(), "windows", None)
        if windows is not None:
            window = windows.new_window()
            window.show()
            window.activateWindow()

    # -- opening -------------------------------------------------------------------
    def open_paths(self, specs: Sequence[str]) -> bool:
        """Open files, globs or folders as one dataset; errors go to a message box."""
        if not self.edit_actions.confirm_discard():
            return False
        try:
            dataset = Dataset.open(list(specs))
        except (PathError, SourceError, OSError) as exc:
            self.show_error(f"Cannot open {', '.join(specs)}", str(exc))
            return False
        self.close_dataset()
        self.dataset = dataset
        self.model = RecordTableModel(dataset, self)
        self.table.setModel(self.model)
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)
        self.filter_bar.set_dataset(dataset)
        self.gallery.set_dataset(dataset, self.model)
        self.edit_actions.attach(dataset)
        self.recent.remember(specs)
        for warning in dataset.warnings:
            self.statusBar().showMessage(f"warning: {warning}", 15000)
        indexer = self.indexer = Indexer(dataset, self)
        # Signals of an indexer that was replaced meanwhile are ignored.
        indexer.progress.connect(
            lambda *a, ix=indexer: self._on_progress(*a) if ix is self.indexer else None
        )
        indexer.finished.connect(
            lambda *a, ix=indexer: self._on_finished(*a) if ix is self.indexer else None
        )
        self._started = time.monotonic()
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.show()
        self.indexer.start()
        self._update_title()
        return True

    def close_dataset(self) -> None:
        """Cancel any scan or filter and release the files."""
        self.filter_bar.set_dataset(None)
        self.gallery.set_dataset(None, None)
        if self.indexer is not None:
            self.indexer.cancel(wait=True)
            self.indexer = None
        if self.dataset is not None:
            self.dataset.close()
            self.dataset = None
        self.current = None
        self.tree_model.set_decoded(None)

    def open_dialog(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self,
            "Open TFRecord files",
            self.recent.last_dir(),
            "TFRecord files (*.tfrecord* *.tfrec* *.gz *.zz);;All files (*)",
        )
        if paths:
            self.open_paths(paths)

    def open_folder_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, "Open a folder of shards", self.recent.last_dir()
        )
        if folder:
            self.open_paths([folder])

    def _recent(self) -> list[str]:
        return self.recent.entries()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            self.open_paths(paths)

    # -- indexing ------------------------------------------------------------------
    def _on_progress(
        self, phase: int, records: int, problems: int, done: float, total: float
    ) -> None:
        self.model.set_count(records)
        if phase == 1:
            self.model.statuses_changed()
        self.progress.setMaximum(1000)
        self.progress.setValue(int(1000 * min(done / total, 1.0)) if total else 0)
        elapsed = max(time.monotonic() - self._started, 1e-6)
        verb = "verifying" if phase else "indexing"
        self.counts.setText(
            f"{verb}: {records:,} records, {problems:,} problems, {done / elapsed / 1e6:,.0f} MB/s"
        )
        if self.current is None and records:
            self.select_record(0)
        self._update_title()

    def _on_finished(self, state: int, message: str) -> None:
        ds = self.dataset
        if ds is None:
            return
        self.progress.hide()
        self.cancel_button.hide()
        self.model.set_count(len(ds))
        self.model.statuses_changed()
        problems = sum(f.index.problem_count() for f in ds.files)
        elapsed = time.monotonic() - self._started
        if state == IndexState.DONE:
            self.counts.setText(f"{len(ds):,} records, {problems:,} problems ({elapsed:.1f} s)")
        elif state == IndexState.CANCELLED:
            self.counts.setText(f"{len(ds):,} records so far ({message})")
        else:
            self.counts.setText("indexing failed")
            self.show_error("Indexing stopped", message)
        try:
            self._after_index()
            self._update_title()
        finally:
            self.index_finished.emit(state)

    def _after_index(self) -> None:
        ds = self.dataset
        if ds is None or not len(ds):
            return
        sample = sample_features(ds)
        keys = feature_keys(sample)
        self.known_keys = keys
        self.filter_bar.set_keys(keys)
        self.model.set_summary_keys(choose_summary_keys(sample, keys))
        self.table.resizeColumnsToContents()
        self.gallery.refresh()
        if self.current is None:
            self.select_record(0)

    def cancel_indexing(self) -> None:
        if self.indexer is not None:
            self.indexer.cancel(wait=False)

    # -- selection -----------------------------------------------------------------
    def select_record(self, record: int) -> bool:
        """Select global ``record`` in the table (clearing a filter that hides it)."""
        if self.dataset is None:
            return False
        row = self.model.row_of(record)
        if row is None and 0 <= record < len(self.dataset):
            self.filter_bar.edit.clear()
            self.filter_bar.damaged.setChecked(False)
            self._apply_rows(None)
            row = self.model.row_of(record)
        if row is None:
            return False
        index = self.model.index(row, 0)
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        if self.current != record:
            self.show_record(record)
        return True

    def _row_changed(self, current, _previous) -> None:  # noqa: ANN001
        if current.isValid():
            self.show_record(self.model.record_at(current.row()))

    def show_record(self, record: int) -> None:
        if self.dataset is None:
            return
        self.current = record
        try:
            raw = self.edit_actions.payload(record)
            decoded = decode(raw)
        except (SourceError, OSError, IndexError) as exc:
            self.tree_model.set_decoded(None)
            self.preview.show_record(None, b"")
            self.statusBar().showMessage(f"record {record}: {exc}", 15000)
            self.record_shown.emit(record)
            return
        self.tree_model.set_decoded(decoded)
        self.tree.expandToDepth(1)
        self.tree.resizeColumnToContents(0)
        self.preview.show_record(decoded, raw)
        ref = self.dataset.ref(record)
        self.statusBar().showMessage(
            f"record {record}: {os.path.basename(ref.file)} byte {ref.offset:,}, "
            f"{ref.length:,} bytes, {decoded.payload.type}, {ref.status.kind}"
        )
        self.record_shown.emit(record)

    def _apply_rows(self, rows) -> None:  # noqa: ANN001
        keep = self.current
        self.model.set_rows(rows)
        self.gallery.refresh()
        if keep is not None:
            row = self.model.row_of(keep)
            if row is not None:
                self.table.setCurrentIndex(self.model.index(row, 0))
                self.table.scrollTo(
                    self.model.index(row, 0), QAbstractItemView.ScrollHint.PositionAtCenter
                )

    def _columns_menu(self, pos) -> None:  # noqa: ANN001
        """Pick the summary columns from the feature keys seen in the data."""
        if self.dataset is None or not self.known_keys:
            return
        menu = QMenu(self)
        menu.addSection("Summary columns")
        chosen = list(self.model.summary_keys)
        for key in self.known_keys[:60]:
            action = menu.addAction(key)
            action.setCheckable(True)
            action.setChecked(key in chosen)
            action.toggled.connect(lambda on, k=key: self.toggle_summary_column(k, on))
        menu.exec(self.table.horizontalHeader().mapToGlobal(pos))

    def toggle_summary_column(self, key: str, on: bool) -> None:
        keys = [k for k in self.model.summary_keys if k != key] + ([key] if on else [])
        self.model.set_summary_keys(keys)
        self.table.resizeColumnsToContents()

    def _tab_changed(self, index: int) -> None:
        if index == 1:
            self.gallery.refresh()

    # -- commands ------------------------------------------------------------------
    def goto_dialog(self) -> None:
        if self.dataset is None:
            return
        text, ok = QInputDialog.getText(
            self, "Go to", "Record number, or a byte offset as @1234 or 0x4d2:"
        )
        if ok and text.strip():
            self.goto(text.strip())

    def goto(self, text: str) -> bool:
        """Select a record by number, or the record whose frame holds a byte offset
        (``@N`` or ``0x..``) in the current record's file."""
        ds = self.dataset
        if ds is None:
            return False
        try:
            if text.startswith("@") or text.lower().startswith("0x"):
                offset = int(text[1:] if text.startswith("@") else text, 0)
                return self._goto_offset(offset)
            return self.select_record(int(text.replace(",", "").replace("_", "")))
        except ValueError:
            self.statusBar().showMessage(f"not a record number or offset: {text!r}", 10000)
            return False

    def _goto_offset(self, offset: int) -> bool:
        ds = self.dataset
        assert ds is not None
        number = ds.ref(self.current).file_number if self.current is not None else 0
        record = ds.record_at_offset(number, offset)
        if record is None:
            self.statusBar().showMessage(f"no record at byte {offset:,}", 10000)
            return False
        return self.select_record(record)

    def selected_tree_node(self):  # noqa: ANN202
        index = self.tree.currentIndex()
        return self.tree_model.node(index) if index.isValid() else None

    def _copy(self, value: bool) -> None:
        node = self.selected_tree_node()
        if node is None:
            return
        QGuiApplication.clipboard().setText(
            node.copy or node.value if value else node.key or node.name
        )

    def _tree_menu(self, pos) -> None:  # noqa: ANN001
        menu = QMenu(self)
        menu.addAction("Copy value", lambda: self._copy(value=True))
        menu.addAction("Copy key", lambda: self._copy(value=False))
        menu.exec(self.tree.viewport().mapToGlobal(pos))

    def about(self) -> None:
        from .dialogs.about_dialog import AboutDialog

        AboutDialog(self).exec()

    def show_error(self, title: str, text: str) -> None:
        if os.environ.get("QT_QPA_PLATFORM") == "offscreen":
            self.statusBar().showMessage(f"{title}: {text}", 30000)
            print(f"tfr-viewer: {title}: {text}", file=sys.stderr)
            return
        QMessageBox.warning(self, title, text)

    def update_title(self) -> None:
        self._update_title()

    def _update_title(self) -> None:
        ds = self.dataset
        if ds is None:
            self.setWindowTitle("tfr-viewer")
            return
        self.setWindowModified(self.edit_actions.dirty())
        name = os.path.basename(ds.files[0].path) if ds.files else "?"
        more = f" (+{len(ds.files) - 1} files)" if len(ds.files) > 1 else ""
        self.setWindowTitle(f"{name}{more}[*] — {len(ds):,} records — tfr-viewer")

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self.edit_actions.confirm_discard():
            event.ignore()
            return
        if self.remember_geometry:
            self.settings.setValue("geometry", self.saveGeometry())
        self.close_dataset()
        super().closeEvent(event)
