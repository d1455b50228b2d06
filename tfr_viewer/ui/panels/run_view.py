"""The run view: a log folder's TensorBoard event files as TensorBoard shows them, and
more. It opens by itself when the dataset indexed is event files (View › Runs at any
time), reads them off the window's thread (:class:`~..run_reader.RunReader`, the
application's one read of event files) and shows, as the read goes on:

- the tag table: a row a tag of a run (plugin, points, first and last step, the bytes
  it takes and its share of the files), sortable, filtered by a text; selecting rows
  chooses what the tabs draw;
- Scalars: every point of the scalar tags selected, of every run, on one plot, smoothed
  as TensorBoard smooths them (the slider, remembered), against the step, the hours
  since each curve began or the wall time (remembered), zoomed and panned by the mouse;
- Histograms: the first histogram tag selected, a line a step;
- Text & Images: the first text or image tag selected, step by step, with its pictures
  (Show in Gallery shows the records of its steps in the window's gallery);
- HParams: each run's hyperparameters and metrics, a row a run;
- Size: each run's bytes by kind of event and by plugin.

Clicking a point, a histogram's line or a step selects its record in the window. With
Follow (on at first, remembered), a log whose files grow (a run still being written)
is opened again and read again every few seconds, the tags selected kept selected; a
record still being written is said to be cut short until it is whole."""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtCore import QItemSelectionModel, QSettings, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSlider,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...app.event_log import ReadLog
from ...app.event_runs import runs_of
from ...app.event_tables import hparams_table
from ...core.analyze.event_log import EventLog, TagEntry
from ...core.analyze.event_values import HISTOGRAMS, IMAGES, SCALARS, TEXT
from ...core.analyze.scalar_series import (
    DEFAULT_SMOOTHING,
    MAX_SMOOTHING,
    X_AXES,
    KeptPoints,
    ScalarSeries,
)
from ...core.io import Dataset
from ...core.io.event_runs import all_event_files
from ...core.text import human_bytes, plural
from ..host import PanelHost
from ..models.tag_rows import SortedTags, TagRowsModel
from ..run_reader import RunReader
from .histogram_plot import HistogramPlot
from .report_table import report_table
from .run_tables import HParamsTable, SizeTree
from .scalar_plot import ScalarPlot
from .summary_steps import StepSummaries

AXIS_NAMES = {"step": "Step", "relative": "Relative (hours)", "wall_time": "Wall time"}
TABS = ("Scalars", "Histograms", "Text && Images", "HParams", "Size")
_SMOOTHING, _AXIS, _FOLLOW = "runs/smoothing", "runs/x_axis", "runs/follow"
FOLLOW_EVERY_MS = 2000  # how often the files of a log read are looked at


def file_states(paths: list[str]) -> list[tuple[int, int] | None]:
    """Each file's size and modification time (None: gone)."""
    states: list[tuple[int, int] | None] = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            states.append(None)
        else:
            states.append((st.st_size, st.st_mtime_ns))
    return states


class RunView(QWidget):
    """The panel; ``series`` holds every scalar point read, ``log`` the whole read once
    it ended."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host: PanelHost | None = None
        self.settings = QSettings("tfr-viewer", "tfr-viewer")
        self.reader = RunReader(self)
        self.reader.points.connect(self._points)
        self.reader.progress.connect(self._progress)
        self.reader.finished.connect(self._finished)
        self.series = ScalarSeries()
        self.log: EventLog | None = None
        self._shown: tuple[object, ...] = ()
        self._dataset: Dataset | None = None
        self._reading: EventLog | None = None
        self._read_to = 0
        self._damaged = 0
        self._flagged = 0

        self.status = QLabel("Open a log folder or an event file.", self)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setPlaceholderText("Filter tags")
        self.smoothing = QSlider(Qt.Orientation.Horizontal, self)
        self.smoothing.setRange(0, round(MAX_SMOOTHING * 1000))
        self.smoothing.setFixedWidth(140)
        self.smoothing.setToolTip("Smoothing, as TensorBoard's slider (0: none)")
        self.smoothing_label = QLabel(self)
        self.axis = QComboBox(self)
        for name in X_AXES:
            self.axis.addItem(AXIS_NAMES[name], name)
        self.axis.setToolTip("What the curves are drawn against")
        self.follow = QCheckBox("Follow", self)
        self.follow.setToolTip(
            "Open the log again and read it again as its files grow (a run still being written)"
        )
        self.follow_timer = QTimer(self, interval=FOLLOW_EVERY_MS)
        self.follow_timer.timeout.connect(self.look_again)
        self._states: list[tuple[int, int] | None] = []  # the files' when their read began
        self._restore: list[tuple[str, str]] = []  # tags to select again once read again
        top = QHBoxLayout()
        top.addWidget(self.status, 1)
        top.addWidget(self.filter_edit)
        top.addWidget(QLabel("Smoothing", self))
        top.addWidget(self.smoothing)
        top.addWidget(self.smoothing_label)
        top.addWidget(self.axis)
        top.addWidget(self.follow)

        self.model = TagRowsModel(self)
        self.proxy = SortedTags(self)
        self.proxy.setSourceModel(self.model)
        self.table = report_table(self, self.proxy)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self.redraw())
        self.filter_edit.textChanged.connect(self.proxy.setFilterFixedString)

        self.scalars = ScalarPlot(self)
        self.histograms = HistogramPlot(self)
        self.steps = StepSummaries(self)
        self.hparams = HParamsTable(self)
        self.sizes = SizeTree(self)
        self.tabs = QTabWidget(self)
        for widget, title in zip(
            (self.scalars, self.histograms, self.steps, self.hparams, self.sizes), TABS, strict=True
        ):
            self.tabs.addTab(widget, title)
        for view in (self.scalars, self.histograms, self.steps):
            view.picked.connect(self._picked)
        self.steps.gallery.connect(
            lambda records: self.host.show_in_gallery(records) if self.host is not None else None
        )

        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(self.table)
        split.addWidget(self.tabs)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(split, 1)

        weight = _number(self.settings.value(_SMOOTHING), DEFAULT_SMOOTHING)
        self.smoothing.setValue(round(min(max(weight, 0.0), MAX_SMOOTHING) * 1000))
        axis = str(self.settings.value(_AXIS, "step") or "step")
        self.axis.setCurrentIndex(max(self.axis.findData(axis), 0))
        self._show_weight()
        self.follow.setChecked(str(self.settings.value(_FOLLOW, "true")).lower() == "true")
        self.follow.toggled.connect(self._follow_toggled)
        self.smoothing.valueChanged.connect(self._smoothing_moved)
        self.axis.currentIndexChanged.connect(self._axis_chosen)

    def sizeHint(self) -> Any:  # noqa: N802
        hint = super().sizeHint()
        hint.setHeight(max(hint.height(), 320))
        return hint

    # -- the session ---------------------------------------------------------------
    def attach(self, host: PanelHost) -> None:
        """Follow ``host``'s session: read a dataset of event files as it is indexed
        (the first part as soon as it is, for a first curve, then on); forget it when
        it closes."""
        self.host = host
        session = host.session
        session.index_progress.connect(lambda _at: self.read_on())
        session.indexed.connect(lambda _state: self.read_on(said=True))
        session.opened.connect(lambda _ds: self.clear())
        session.closed.connect(self.clear)
        if session.dataset is not None:
            self.read_on(said=True)

    def read_on(self, said: bool = False) -> None:
        """Read what the open dataset's index holds and is not read yet (nothing while
        a read runs: it reads on when it ends); ``said``: say when the dataset holds no
        event files."""
        ds = self.host.session.dataset if self.host is not None else None
        if ds is None or not all_event_files([f.path for f in ds.files]):
            if said and ds is not None:
                self.status.setText("The dataset open holds no TensorBoard event files.")
            return
        if self._dataset is not ds:
            self.clear()
            self._dataset = ds
        if self.reader.running() or self.log is not None:
            return
        if len(ds) <= self._read_to:
            if not len(ds) and all(f.index.complete for f in ds.files):
                self.status.setText("The event files hold no records.")
            return
        if not self._read_to:
            self.status.setText(f"Reading {plural(len(ds), 'record')} of events…")
            if not self._states:
                self._states = file_states([f.path for f in ds.files])
        self.reader.start(ds, self._reading, self._read_to)

    def clear(self) -> None:
        """Stop reading and show nothing (the tags to select again are kept)."""
        self.reader.stop()
        self.follow_timer.stop()
        self._states = []
        self._dataset = None
        self._reading = None  # the log read so far, read on
        self._read_to = 0  # the records before it are read
        self._damaged = 0
        self._flagged = 0
        self.series = ScalarSeries()
        self.log = None
        self.model.clear()
        self.status.setText("Open a log folder or an event file.")
        self.redraw()
        self.hparams.show_table(None)
        self.sizes.show_report(None)

    # -- the read, as it goes --------------------------------------------------------
    def _points(self, chunks: list[KeptPoints], tags: list[TagEntry]) -> None:
        for chunk in chunks:
            self.series.add(chunk)
        fresh = not self.model.rows
        self.model.update(tags, sum(t.bytes for t in tags) or 1)
        if fresh and self.model.rows:
            self.fit_columns()
        if not self.table.selectionModel().hasSelection():
            self._select_again() or self.select_first(SCALARS)
        elif chunks and any(t.plugin == SCALARS for t in self.selected()):
            self.redraw()

    def _progress(self, done: int, _total: int) -> None:
        total = len(self._dataset) if self._dataset is not None else 0
        self.status.setText(
            f"Reading events: {self._read_to + done:,} of {plural(total, 'record')}…"
        )

    def _finished(self, read: ReadLog | None, error: str) -> None:
        if read is None:
            self.status.setText(f"Not read: {error}" if error else "Reading stopped.")
            if error and self.host is not None:
                self.host.show_error("Cannot read the event files", error)
            return
        self._reading, self._read_to = read.log, read.end
        self._damaged += read.damaged
        self._flagged += len(read.flagged)
        ds = self._dataset
        if ds is None or not all(f.index.complete for f in ds.files) or read.end < len(ds):
            self.read_on()  # the index grew meanwhile, or is growing
            return
        self.log = read.log
        report = runs_of(read.log, self._damaged, self._flagged)
        self.model.update(list(read.log.tags.values()), report.bytes)
        self.fit_columns()
        self.sizes.show_report(report)
        self.hparams.show_table(hparams_table(read.log))
        tags = len(read.log.tags)
        text = (
            f"{plural(len(report.runs), 'run')}, {plural(tags, 'tag')}, "
            f"{plural(self.series.points, 'scalar point')}, {human_bytes(report.bytes)}"
        )
        if self._damaged:
            damaged = plural(self._damaged, "damaged record")
            text += f"; {damaged} cut short, left out"
        if self._flagged:
            flagged = plural(self._flagged, "record")
            its = "its" if self._flagged == 1 else "their"
            text += f"; {flagged} read although {its} CRC is wrong (File › Verify names them)"
        self.status.setText(text)
        if not self.table.selectionModel().hasSelection():
            self._select_again() or self.select_first(SCALARS)
        self._restore = []
        self.redraw()
        if self.follow.isChecked() and self._states and all(s is not None for s in self._states):
            self.follow_timer.start()

    def fit_columns(self) -> None:
        """Each column as wide as what it shows, the names' at most a third of the
        table."""
        self.table.resizeColumnsToContents()
        widest = max(self.table.width() // 3, 120)
        for column in (0, 1):
            if self.table.columnWidth(column) > widest:
                self.table.setColumnWidth(column, widest)

    # -- what is drawn -------------------------------------------------------------------
    def selected(self) -> list[TagEntry]:
        """The tags selected, in the table's order."""
        rows = sorted(i.row() for i in self.table.selectionModel().selectedRows())
        return [self.proxy.entry(self.proxy.index(r, 0)) for r in rows]

    def select_first(self, plugin: str) -> bool:
        """Select the table's first tag of ``plugin``; whether there is one."""
        for r in range(self.proxy.rowCount()):
            if self.proxy.entry(self.proxy.index(r, 0)).plugin == plugin:
                self.select_rows([r])
                return True
        return False

    def select_rows(self, rows: list[int]) -> None:
        """Select the table's ``rows`` (as shown), and nothing else."""
        model = self.table.selectionModel()
        model.clearSelection()
        flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        for r in rows:
            model.select(self.proxy.index(r, 0), flags)

    def redraw(self) -> None:
        """Draw the selected tags in their tabs."""
        tags = self.selected()
        curves = [self.series.series(t.run, t.tag) for t in tags if (t.run, t.tag) in self.series]
        self.scalars.show_curves(curves, self.weight(), str(self.axis.currentData()))
        log = self.log
        histogram = next((t for t in tags if t.plugin == HISTOGRAMS), None)
        other = next((t for t in tags if t.plugin in (TEXT, IMAGES)), None)
        shown = (log, *((t.run, t.tag) if t else None for t in (histogram, other)))
        if shown != self._shown:  # drawn again only when another tag is chosen
            self._shown = shown
            self._show_summaries(log, histogram, other)
        if tags and not curves:
            first = tags[0].plugin
            if first == HISTOGRAMS:
                self.tabs.setCurrentWidget(self.histograms)
            elif first in (TEXT, IMAGES):
                self.tabs.setCurrentWidget(self.steps)
        elif curves and self.tabs.currentWidget() in (self.histograms, self.steps):
            self.tabs.setCurrentWidget(self.scalars)

    def _show_summaries(
        self, log: EventLog | None, histogram: TagEntry | None, other: TagEntry | None
    ) -> None:
        if log is not None and histogram is not None:
            key = (histogram.run, histogram.tag)
            points = [h for h in log.histograms if (h.run, h.tag) == key]
            self.histograms.show_histograms(f"{histogram.run}: {histogram.tag}", points)
        else:
            self.histograms.show_histograms("", [])
        if log is not None and other is not None:
            key = (other.run, other.tag)
            steps = [s for s in log.summaries if (s.run, s.tag) == key]
            self.steps.show_points(f"{other.run}: {other.tag}", steps, self._read)
        else:
            self.steps.show_points("", [], None)

    def _select_again(self) -> bool:
        """Select the tags selected before the log was opened again; whether any is
        there yet."""
        entries = [self.proxy.entry(self.proxy.index(r, 0)) for r in range(self.proxy.rowCount())]
        rows = [r for r, e in enumerate(entries) if (e.run, e.tag) in self._restore]
        if rows:
            self.select_rows(rows)
        return bool(rows)

    def look_again(self) -> None:
        """Follow: when a file of the log read has grown or changed, open the log again
        (the tags selected are selected again once it is read)."""
        ds = self._dataset
        if ds is None or self.host is None or self.log is None:
            return
        if file_states([f.path for f in ds.files]) == self._states:
            return
        keep = [(t.run, t.tag) for t in self.selected()]
        self.follow_timer.stop()
        if self.host.reopen():
            self._restore = keep
        else:
            self.status.setText(
                self.status.text() + "; the files changed: export or discard the edits, "
                "then open the log again to see what was added"
            )

    def _follow_toggled(self, on: bool) -> None:
        self.settings.setValue(_FOLLOW, "true" if on else "false")
        if on and self.log is not None and self._states:
            self.follow_timer.start()
        else:
            self.follow_timer.stop()

    def weight(self) -> float:
        return self.smoothing.value() / 1000

    def _show_weight(self) -> None:
        self.smoothing_label.setText(f"{self.weight():.3f}")

    def _smoothing_moved(self, _value: int) -> None:
        self._show_weight()
        self.settings.setValue(_SMOOTHING, self.weight())
        self.redraw()

    def _axis_chosen(self, _index: int) -> None:
        self.settings.setValue(_AXIS, self.axis.currentData())
        self.redraw()

    def _read(self, record: int) -> bytes:
        assert self.host is not None and self.host.session.dataset is not None
        return self.host.session.dataset.read(record)

    def _picked(self, record: int) -> None:
        if self.host is not None:
            self.host.select_record(record)


def _number(value: object, default: float) -> float:
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return default
