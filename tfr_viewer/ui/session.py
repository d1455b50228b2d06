"""What one main window has open: the dataset, its table model, its indexer, the
selected record or damaged region, and the editor of its pending edits.

The session announces every change of these, and the window's panels and action groups
follow the announcements instead of being called by the window one by one:

- ``opened(dataset)``: a dataset replaced nothing or a closed one; ``model`` is set.
- ``indexed(state)``: its index and verification ended (an ``IndexState``).
- ``selected(record)``: the record shown, or None (a damaged region, or nothing).
- ``edited(records)``: edits changed these records (an undo or a redo too).
- ``closed()``: the dataset was closed: the session holds nothing any more, and the
  dataset's files are released once every subscriber has heard it.
- ``keys_changed(keymap)``: the layout's keys were named by hand (View › Layout Keys…);
  the pictures and the box editor read boxes, classes and images under them.

Everything here lives on the window's thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

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
    closed = Signal()
    keys_changed = Signal(object)  # KeyMap

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.dataset: Dataset | None = None
        self.model: RecordTableModel | None = None
        self.indexer: Indexer | None = None
        self.editor: Editor | None = None
        self.current: int | None = None
        self.current_region: Problem | None = None
        self.keymap = KeyMap()  # the layout's keys named by hand (the rest are guessed)

    @property
    def is_open(self) -> bool:
        return self.dataset is not None

    @property
    def has_record(self) -> bool:
        """A record (not a damaged region) is selected."""
        return self.dataset is not None and self.current is not None

    def open(self, dataset: Dataset, model: RecordTableModel) -> None:
        """Hold ``dataset`` shown by ``model``; the previous one must be closed."""
        assert self.dataset is None, "close the session's dataset first"
        self.dataset, self.model = dataset, model
        self.current = self.current_region = None
        self.opened.emit(dataset)

    def payload(self, record: int) -> bytes:
        """What ``record`` holds now: its pending edit, or the file's bytes."""
        assert self.dataset is not None
        return self.editor.payload(record) if self.editor else self.dataset.read(record)

    def set_keymap(self, keymap: KeyMap) -> None:
        """Read the layout under ``keymap`` from now on, and announce it."""
        self.keymap = keymap
        self.keys_changed.emit(keymap)

    def select(self, record: int | None, region: Problem | None = None) -> None:
        """``record`` is shown (or ``region``, or nothing when both are None)."""
        self.current, self.current_region = record, region
        self.selected.emit(record)

    def close(self) -> None:
        """Forget the dataset, announce it, then release its files (the caller has
        stopped its indexer); nothing happens when none is open."""
        dataset = self.dataset
        if dataset is None:
            return
        self.dataset = self.model = self.indexer = self.editor = None
        self.current = self.current_region = None
        self.closed.emit()
        dataset.close()
