"""The main window: record table, filter bar, feature tree, previews and status bar."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QSettings, QSize, Qt, Signal
from PySide6.QtGui import (
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..core.analyze import choose_summary_keys, feature_keys, feature_kinds, sample_features
from ..core.analyze.sample import sample_classes
from ..core.io import Compression, Dataset, PathError, Problem, SourceError
from ..core.io.paths import TfdsChoice
from ..core.io.remote import is_url
from ..core.text import plural
from .actions import build_menus
from .analysis_actions import AnalysisActions
from .dialogs.tfds_choice import choose_tfds
from .docks import Docks
from .edit_actions import EditActions
from .feature_tree_view import FeatureTreeView
from .filter_bar import FilterBar
from .html_reports import ACTIONS as HTML_ACTIONS, HtmlReports
from .index_status import IndexStatus
from .indexer import Indexer, IndexProgress, IndexState
from .label_maps import LabelMaps
from .layout_keys import LayoutKeys
from .message_types import MessageTypeChoice
from .models.record_table import RecordTableModel
from .navigation import ACTIONS as GO_ACTIONS, Navigator
from .panels.gallery import Gallery
from .prediction_actions import ACTIONS as PREDICTION_ACTIONS, PredictionActions
from .recent import RecentFiles
from .record_panes import RecordPanes
from .record_view import RecordTableView
from .remote_actions import RemoteActions
from .screen_fit import bring_in, fit_to_screen
from .session import Session
from .settings_values import read_bytes
from .standby import prestart
from .status_bar import StatusBar
from .table_order import TableOrder
from .viewers.preview import PreviewPane
from .window_menus import window_actions

if TYPE_CHECKING:
    from .dialogs.convert_dialog import ConvertDialog

MIN_RECORDS_WIDTH = 380  # the filter bar and the table
MIN_PREVIEW_WIDTH = 320  # the tree and the picture


class MainWindow(QMainWindow):
    """``index_finished`` fires when indexing and verification end; ``record_shown`` when
    the previews of the selected record are ready (both used by --screenshot)."""

    index_finished = Signal(int)
    record_shown = Signal(int)
    order: TableOrder
    preview: PreviewPane
    status: IndexStatus
    convert_dialog: ConvertDialog | None = None  # File › New Dataset from Images…

    def __init__(self) -> None:
        super().__init__()
        self.settings = QSettings("tfr-viewer", "tfr-viewer")
        self.session = Session(self)
        self.remember_geometry = True  # off for --screenshot, which resizes the window
        self.errors_to_stderr = False  # on for --screenshot: no box waits for an answer
        self.setAcceptDrops(True)
        self._build_widgets()
        self.docks = Docks(self, self)
        self._follow_panels()
        self.remote = RemoteActions(self, self.status, self.settings)
        self.remote.open_requested.connect(lambda specs, files: self.open_paths(specs, files))
        self.remote.verified.connect(  # the record shown says its settled status
            lambda _ok: self.show_record(self.current) if self.current is not None else None
        )
        self.edit_actions = EditActions(self, self.table, self.filter_bar, self.docks, self.tree)
        self.edit_actions.saved.connect(self.update_title)
        self.analysis = AnalysisActions(self)
        self.label_maps = LabelMaps(self, self.preview, self.settings)
        # what is shown of the selection
        self.panes = RecordPanes(
            self, self.tree, self.preview, self.edit_actions, self.remote, self.record_shown
        )
        self.layout_keys = LayoutKeys(self, self.settings, self.preview, self.panes)
        self.message_types = MessageTypeChoice(self, self.settings, self.panes.show_record)
        self.action_table = [
            *window_actions(self),
            *self.remote.actions(),
            *GO_ACTIONS,
            *self.order.actions(),
            *self.docks.actions(),
            *self.edit_actions.actions(),
            *self.analysis.actions(),
            *self.layout_keys.actions(),
            *PREDICTION_ACTIONS,
            *self.label_maps.actions(),
            *self.message_types.actions(),
            *HTML_ACTIONS,
        ]
        self.menus = build_menus(self.menuBar(), self, self.action_table)
        self.file_menu, self.edit_menu = self.menus.menu("file"), self.menus.menu("edit")
        self.analyze_menu, self.help_menu = self.menus.menu("analyze"), self.menus.menu("help")
        self.recent_menu = self.menus.menu("file/recent")
        self.quit_action = self.menus.action("file.quit")
        self.recent = RecentFiles(self.settings, self.recent_menu, self.open_paths)
        self.opened_specs: list[str] = []  # what the dataset open was opened from
        self._follow_session()
        self.update_title()
        prestart()  # a child process ready to index the first file
        geometry = read_bytes(self.settings, "geometry")
        if geometry is not None and self.restoreGeometry(geometry):
            bring_in(self)  # remembered on a larger screen
        else:
            fit_to_screen(self, QSize(1280, 800))
        state = read_bytes(self.settings, "window-state")  # the docks as the user left them
        if state is not None and not self.restoreState(state):
            self.settings.remove("window-state")

    @cached_property
    def navigator(self) -> Navigator:
        """Going to a record or an offset, and the problems (made on first use)."""
        return Navigator(self)

    @cached_property
    def predictions(self) -> PredictionActions:
        """The model's predictions the checks weigh the labels against, and the
        commands that use them (made on first use)."""
        return PredictionActions(self, self.analysis, self.preview, self.order, self.settings)

    @cached_property
    def html_reports(self) -> HtmlReports:
        """Saving what the analysis panels show as HTML (made on first use)."""
        return HtmlReports(self, self.analysis, self.settings)

    # -- construction --------------------------------------------------------------
    def _build_widgets(self) -> None:
        self.filter_bar = FilterBar(self)
        self.table = RecordTableView(self.settings, self)
        self._gallery: Gallery | None = None  # made when its tab is first shown
        self.left_tabs = QTabWidget(self)
        self.left_tabs.addTab(self.table, "Records")
        page = QWidget(self)
        self._gallery_page = QVBoxLayout(page)
        self._gallery_page.setContentsMargins(0, 0, 0, 0)
        self.left_tabs.addTab(page, "Gallery")
        self.left_tabs.currentChanged.connect(self._tab_changed)
        left = QWidget(self)
        box = QVBoxLayout(left)
        box.setContentsMargins(4, 4, 0, 4)
        box.addWidget(self.filter_bar)
        box.addWidget(self.left_tabs, 1)
        self.tree = FeatureTreeView(self)
        self.tree_model = self.tree.tree_model
        self.tree_model.edit_requested.connect(
            lambda key, text: self.edit_actions.edit_value(key, text)
        )
        self.tree_model.element_edit_requested.connect(
            lambda key, element, text: self.edit_actions.edit_element(key, element, text)
        )
        self.preview = PreviewPane(self)
        right = QSplitter(Qt.Orientation.Vertical, self)
        right.addWidget(self.tree)
        right.addWidget(self.preview)
        right.setSizes([350, 450])
        self.splitter = QSplitter(self)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setSizes([600, 680])
        # docks take room from the sides of these, never all of it (see docks.py)
        left.setMinimumWidth(MIN_RECORDS_WIDTH)
        right.setMinimumWidth(MIN_PREVIEW_WIDTH)
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)
        self.filter_bar.rows_changed.connect(lambda rows: self.order.show_rows(rows))
        self.filter_bar.message.connect(lambda text: self.panes.filter_said(text))
        self.order = TableOrder(self, self.table, self.filter_bar)
        self.order.rows_changed.connect(self.refresh_views)
        self.order.emptied.connect(self.clear_panes)
        self.setStatusBar(StatusBar(self))
        self.status = IndexStatus(self.session, self.statusBar(), self.show_error)
        self.status.problems_button.clicked.connect(lambda: self.navigator.show_problems())
        self.status.cancel_button.clicked.connect(self.cancel_indexing)

    def _follow_panels(self) -> None:
        images = self.preview.images
        images.picker.edit_requested.connect(
            lambda kind, box, corners: self.edit_actions.edit_box(
                kind,
                box,
                corners,
                images.keymap,
                self.analysis.known_classes(),
                images.box_class(box),
            )
        )

    def as_widget(self) -> QWidget:
        """The window as a widget: the parent of its dialogs."""
        return self

    def new_window(self) -> None:
        """Another empty main window of this app (when the app keeps a window list)."""
        windows = getattr(QApplication.instance(), "windows", None)
        if windows is not None:
            window = windows.new_window()
            window.show()
            window.activateWindow()

    # -- opening -------------------------------------------------------------------
    def open_paths(self, specs: Sequence[str], files: Sequence[str] | None = None) -> bool:
        """Open files, globs, folders or URLs as one dataset (``files``: what ``specs``
        expand to, when already known); errors go to a message box."""
        if not self.edit_actions.confirm_discard():
            return False
        try:
            if files is None and any(is_url(s) for s in specs):
                self.remote.open_urls(specs)  # listings and lookups: off this thread
                return False
            # random reads follow: compressed files keep seek points
            if files is not None:
                dataset = Dataset(list(files), seek_points=True)
            else:
                dataset = Dataset.open(list(specs), seek_points=True)
        except TfdsChoice as choice:  # a folder of datasets: the user picks one
            picked = choose_tfds(self, choice)
            return picked is not None and self.open_paths([picked])
        except (PathError, SourceError, OSError) as exc:
            self.show_error(f"Cannot open {', '.join(specs)}", str(exc))
            return False
        self.close_dataset()
        model = RecordTableModel(dataset, self)
        remote = any(is_url(f.path) for f in dataset.files)
        if remote:
            model.run_later = self.remote.background.run  # cells never wait on the network
        self.session.open(dataset, model)
        self.recent.remember(specs)
        self.opened_specs = list(specs)
        self.status.indexing_started()
        # remote files: a header-only scan (Verify CRCs reads them whole, on request)
        self.session.start_indexing(verify=not remote)
        self.update_title()
        return True

    def close_dataset(self) -> None:
        """Close the session (its indexer stopped first): every pane and panel follows."""
        self.session.close()

    def cancel_indexing(self) -> None:
        """The status bar's Cancel: stops indexing, verifying or a URL lookup."""
        self.remote.cancel()
        if self.indexer is not None:
            self.indexer.cancel(wait=False)

    # -- the session's dataset, as the window's panes follow it ----------------------
    def _follow_session(self) -> None:
        session = self.session
        session.opened.connect(self._opened)
        session.closed.connect(self._closed)
        session.edited.connect(self._edited)
        session.index_progress.connect(self._index_progress)
        session.index_ended.connect(self._index_ended)
        session.transferred.connect(self.remote.show_transfer)
        for signal in (session.opened, session.indexed, session.selected, session.closed):
            signal.connect(lambda *_: self.menus.refresh())

    def _opened(self, dataset: Dataset) -> None:
        model = self.session.model
        assert model is not None
        self.table.setModel(model)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)
        model.sort_requested.connect(self.order.sort)
        self.table.fit_columns()
        self.filter_bar.set_dataset(dataset)
        self.tree_model.class_names = model.class_names
        self.preview.images.class_names = dict(model.box_classes)
        if self._gallery is not None:
            self._show_in_gallery(self._gallery)

    @property
    def gallery(self) -> Gallery:
        """The records as tiles: made the first time its tab is shown (or it is asked
        for), given what the window shows then, following the session from then on."""
        if self._gallery is None:
            gallery = self._gallery = Gallery(self)
            gallery.attach(self)
            gallery.drive(self.table)
            gallery.set_hidden_classes(self.preview.images.hidden_classes)
            self._show_in_gallery(gallery)
            self._gallery_page.addWidget(gallery)
            gallery.show()
        return self._gallery

    def _show_in_gallery(self, gallery: Gallery) -> None:
        """The open dataset's records, and the names of their classes, in ``gallery``."""
        model = self.session.model
        gallery.set_dataset(self.session.dataset, model)
        records = model.record_classes if model is not None else {}
        gallery.thumbs.set_class_names(records, self.preview.images.class_names)
        gallery.follow(self.session.current)

    def set_hidden_classes(self, hidden: set[tuple[int | None, str | None]]) -> None:
        """The classes whose boxes are not drawn, in the picture and the tiles."""
        self.preview.images.set_hidden_classes(hidden)
        if self._gallery is not None:
            self._gallery.set_hidden_classes(hidden)

    def _closed(self) -> None:
        self.filter_bar.set_dataset(None)
        if self._gallery is not None:
            self._gallery.set_dataset(None, None)
        self.order.forget()
        self.table.known_keys = []
        self.clear_panes()

    def _edited(self, records: list[int]) -> None:
        if self.model is not None:
            self.model.records_changed(records)
        if self.current in records:
            self.show_record(self.current)
        self.update_title()

    def _index_progress(self, at: IndexProgress) -> None:
        ds, model = self.dataset, self.model
        assert ds is not None and model is not None
        model.set_count(at.records)
        if at.phase == 1:
            model.statuses_changed()
        if self.current is None and at.records and not self.table.currentIndex().isValid():
            # a compressed first file waits for the end of the scan: until the child hands
            # over its seek points (or its decoded bytes), a read here would decode the
            # stream on the window's thread
            source = ds.files[0].source
            if source is not None and source.compression is Compression.NONE:
                self.select_record(0)
        self.update_title()

    def _index_ended(self, state: int, message: str) -> None:
        ds = self.dataset
        if ds is None or self.model is None:
            return
        self.model.set_count(len(ds))
        self.model.statuses_changed()
        if state == IndexState.FAILED:
            failure = self.indexer.failure if self.indexer is not None else None
            if not self.remote.indexing_failed(failure):
                self.show_error("Indexing stopped", message)
        self.remote.update_verify_button()
        self.remote.refresh_transfer()
        try:
            self._after_index()
            self.update_title()
            self.session.workspace.indexed(state)
        finally:
            self.index_finished.emit(state)

    def _after_index(self) -> None:
        ds = self.dataset
        if ds is None or self.model is None:
            return
        if len(ds):
            sampled = lambda sample, _exc: self._use_sample(ds, sample or [])  # noqa: E731
            if not self.remote.off_thread(lambda: sample_features(ds), sampled):
                self._use_sample(ds, sample_features(ds))
        self.table.fit_columns()  # now that the largest offset and the columns are known
        if not len(ds):
            return
        self.refresh_views()
        if self.current is None and not self.table.currentIndex().isValid():
            self.select_record(0)
        elif self.current is not None:
            self.show_record(self.current)  # its status is settled now

    def _use_sample(self, ds: Dataset, sample: list[dict[str, Any]]) -> None:
        """Keys for completion and the summary columns, from the first records."""
        if ds is not self.dataset or self.model is None:
            return
        keys = feature_keys(sample)
        self.analysis.sampled_classes = sample_classes(sample)
        self.table.known_keys = keys
        self.filter_bar.set_keys(keys, feature_kinds(sample))
        self.model.set_summary_keys(choose_summary_keys(sample, keys))
        self.table.fit_columns()

    # -- the session's state, read-only: the session changes it ----------------------
    @property
    def dataset(self) -> Dataset | None:
        return self.session.dataset

    @property
    def model(self) -> RecordTableModel | None:
        return self.session.model

    @property
    def indexer(self) -> Indexer | None:
        return self.session.indexer

    @property
    def current(self) -> int | None:
        return self.session.current

    @property
    def current_region(self) -> Problem | None:
        """The damaged region whose row is selected, if one is."""
        return self.session.current_region

    def clear_panes(self) -> None:
        """Nothing selected: the tree, the previews and the status bar show nothing of a
        record."""
        self.panes.clear()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        urls = event.mimeData().urls()
        paths = [u.toLocalFile() for u in urls if u.isLocalFile()]
        # links dragged from a browser or a cloud console open as URLs
        paths = paths or [u.toString() for u in urls if is_url(u.toString())]
        if paths:
            self.open_paths(paths)

    # -- selection -----------------------------------------------------------------
    def select_record(self, record: int) -> bool:
        """Select global ``record`` in the table (shown again if a filter hid it) and
        show it."""
        if self.dataset is None or not 0 <= record < len(self.dataset):
            return False
        if not self.order.reveal(lambda model: model.row_of(record)):
            return False
        if self.current != record:
            self.show_record(record)
        return True

    def select_region(self, region: Problem) -> bool:
        """Select the row of a damaged region (shown again if a filter hid it)."""
        return self.order.reveal(lambda model: model.row_of_region(region))

    def reopen(self) -> bool:
        """Open the dataset open again as its files are now (grown, or new files in its
        folders); never while edits are pending. Whether it was opened again."""
        if self.dataset is None or self.edit_actions.dirty() or not self.opened_specs:
            return False
        return self.open_paths(self.opened_specs)

    def show_in_gallery(self, records: Sequence[int]) -> None:
        """Show just ``records`` (a filter of their numbers), in the gallery."""
        self.analysis.apply_filter(f"record.index in [{', '.join(map(str, records))}]")
        self.left_tabs.setCurrentIndex(1)  # the gallery

    def export_records(self, fmt: str, records: Sequence[int]) -> None:
        """Export ``records`` (edits applied) in format ``fmt``, asking where."""
        self.edit_actions.exports.export_as(fmt, records=records)

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid() or self.model is None:
            return
        record = self.model.record_at(current.row())
        if record is not None:
            self.show_record(record)
            return
        region = self.model.region_at(current.row())
        if region is not None:
            self.show_region(region)

    def show_region(self, region: Problem) -> None:
        self.panes.show_region(region)

    def show_record(self, record: int) -> None:
        self.panes.show_record(record)

    def _tab_changed(self, index: int) -> None:
        if index == 1:
            self.gallery.refresh()

    # -- commands ------------------------------------------------------------------
    def copy_selection(self) -> None:
        """Ctrl+C: the selected rows as TSV in the table (and gallery), a value in the tree."""
        if self.tree.hasFocus():
            self.tree.copy(value=True)
        else:
            self.table.copy_rows()

    def copy_from_tree(self, value: bool) -> None:
        self.tree.copy(value)

    def refresh_views(self) -> None:
        """The rows changed: the gallery shows the same records."""
        if self._gallery is not None:
            self._gallery.refresh()

    def about(self) -> None:
        from .dialogs.about_dialog import AboutDialog

        AboutDialog(self).exec()

    def show_error(self, title: str, text: str) -> None:
        """A message box; one line on stderr instead when nobody can answer a box (no
        display, or the screenshot mode, which must end by itself)."""
        if self.errors_to_stderr or os.environ.get("QT_QPA_PLATFORM") == "offscreen":
            self.statusBar().showMessage(f"{title}: {text}", 30000)
            print(f"tfr-viewer: {title}: {text}", file=sys.stderr)
            return
        QMessageBox.warning(self, title, text)

    def update_title(self) -> None:
        ds = self.dataset
        if ds is None:
            self.setWindowTitle("tfr-viewer")
            return
        self.setWindowModified(self.edit_actions.dirty())
        name = os.path.basename(ds.files[0].path) if ds.files else "?"
        more = f" (+{len(ds.files) - 1} files)" if len(ds.files) > 1 else ""
        records = plural(ds.whole_records(), "record")
        self.setWindowTitle(f"{name}{more}[*] — {records} — tfr-viewer")

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self.edit_actions.confirm_discard():
            event.ignore()
            return
        if self.remember_geometry:
            self.settings.setValue("geometry", self.saveGeometry())
            self.settings.setValue("window-state", self.saveState())
        self.close_dataset()
        self.remote.cancel()  # a URL still being looked up
        super().closeEvent(event)
