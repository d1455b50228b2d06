"""The window's Qt adapter over its :class:`~..app.workspace.Workspace`: what one main
window has open (the dataset, the selected record or damaged region, the pending edits
and their history, all held by the workspace), and the Qt objects that show it (its
table model, its indexer, the editor mirroring the history on the undo stack).

The session re-announces every event of the workspace as a signal, so that the window's
panels and action groups follow them instead of being called one by one, whoever made
the change (the window, or a program holding the workspace):

- ``opened(dataset)``: a dataset replaced nothing or a closed one; ``model`` is set.
- ``indexed(state)``: its index and verification ended (an ``IndexState``).
- ``selected(record)``: the record shown, or None (a damaged region, or nothing).
- ``edited(records)``: edits changed these records (an undo or a redo too).
- ``history_moved(position, added)``: the edit history has ``position`` steps done;
  ``added`` when a new step was made.
- ``index_progress(at)``, ``index_ended(state, message)``, ``transferred(figures)``:
  the session's indexer (:meth:`start_indexing`) as it runs, and when it stops.
- ``closed()``: the dataset was closed: the session holds nothing any more, and the
  dataset's files are released once every subscriber has heard it.
- ``keys_changed(keymap)``: the layout's keys were named by hand (View › Layout Keys…);
  the pictures and the box editor read boxes, classes and images under them.

Everything here lives on the window's thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from ..app.workspace import (
    Closed,
    Edited,
    Event,
    HistoryMoved,
    Indexed,
    KeysChanged,
    Opened,
    Selected,
    Workspace,
)
from ..core.decode.layouts import KeyMap

if TYPE_CHECKING:
    from ..core.io import Dataset, Problem
    from .editing import Editor
    from .indexer import Indexer
    from .models.record_table import RecordTableModel


class Session(QObject):
    """The open dataset of one window and what is selected and edited in it."""

    opened = Signal(object)  # Dataset
    indexed = Signal(int)  # IndexState
    selected = Signal(object)  # int | None
    edited = Signal(list)  # list[int]
    history_moved = Signal(int, bool)  # steps done, whether a step was added
    index_progress = Signal(object)  # IndexProgress of the session's indexer
    index_ended = Signal(int, str)  # IndexState, message: the indexer stopped
    transferred = Signal(object)  # {bytes, requests, seconds} read from remote files
    closed = Signal()
    keys_changed = Signal(object)  # KeyMap

    def __init__(self, parent: QObject | None = None, workspace: Workspace | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace if workspace is not None else Workspace()
        self.model: RecordTableModel | None = None
        self.indexer: Indexer | None = None
        self.editor: Editor | None = None
        self._leave = self.workspace.subscribe(self._relay)
        self.destroyed.connect(lambda *_: self._leave())

    def _relay(self, event: Event) -> None:
        match event:
            case Opened(dataset):
                self.opened.emit(dataset)
            case Indexed(state):
                self.indexed.emit(state)
            case Selected(record):
                self.selected.emit(record)
            case Edited(records):
                self.edited.emit(list(records))
            case HistoryMoved(position, _steps, added):
                self.history_moved.emit(position, added)
            case KeysChanged(keymap):
                self.keys_changed.emit(keymap)
            case Closed():
                self.closed.emit()

    # -- the workspace's state, read here ----------------------------------------------
    @property
    def dataset(self) -> Dataset | None:
        return self.workspace.dataset

    @property
    def current(self) -> int | None:
        return self.workspace.current

    @property
    def current_region(self) -> Problem | None:
        return self.workspace.current_region

    @property
    def keymap(self) -> KeyMap:
        return self.workspace.keymap

    @property
    def is_open(self) -> bool:
        return self.workspace.is_open

    @property
    def has_record(self) -> bool:
        """A record (not a damaged region) is selected."""
        return self.workspace.has_record

    # -- changes, through the workspace ------------------------------------------------
    def open(self, dataset: Dataset, model: RecordTableModel) -> None:
        """Hold ``dataset`` shown by ``model``; the previous one must be closed."""
        self.model = model
        self.workspace.open(dataset)

    def payload(self, record: int) -> bytes:
        """What ``record`` holds now: its pending edit, or the file's bytes."""
        return self.workspace.payload(record)

    def set_keymap(self, keymap: KeyMap) -> None:
        """Read the layout under ``keymap`` from now on, and announce it."""
        self.workspace.set_keymap(keymap)

    def select(self, record: int | None, region: Problem | None = None) -> None:
        """``record`` is shown (or ``region``, or nothing when both are None)."""
        self.workspace.select(record, region)

    def start_indexing(self, verify: bool) -> Indexer:
        """Index the open dataset (``verify``: its CRCs too) in the window's child: its
        progress, its end and its remote reads are announced as ``index_progress``,
        ``index_ended`` and ``transferred`` (an indexer replaced meanwhile says
        nothing more)."""
        from .indexer import Indexer

        assert self.dataset is not None, "no dataset is open"
        indexer = self.indexer = Indexer(self.dataset, self, verify=verify)
        indexer.progress.connect(
            lambda at, ix=indexer: self.index_progress.emit(at) if ix is self.indexer else None
        )
        indexer.finished.connect(
            lambda *a, ix=indexer: self.index_ended.emit(*a) if ix is self.indexer else None
        )
        indexer.transferred.connect(
            lambda f, ix=indexer: self.transferred.emit(f) if ix is self.indexer else None
        )
        indexer.start()
        return indexer

    def close(self) -> None:
        """Stop the indexer, forget the dataset, announce it, then release its files;
        nothing happens when none is open."""
        if self.indexer is not None:
            self.indexer.cancel(wait=True)
            self.indexer = None
        if self.workspace.dataset is None:
            return
        self.model = self.editor = None
        self.workspace.close()
