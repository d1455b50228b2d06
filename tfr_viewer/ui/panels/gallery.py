"""A thumbnail grid of the current (filtered) records, decoded in a pool of workers."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import (
    QAbstractListModel,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRunnable,
    QSize,
    Qt,
    QThreadPool,
    Signal,
)
from PySide6.QtGui import QColor, QIcon, QPixmap, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QListView, QWidget

from ...core.decode import (
    ImageAnnotation,
    ImageError,
    annotated_thumbnail,
    box_caption,
    is_hidden,
    payload_images,
)
from ...core.decode.file_payloads import decode_record
from ...core.decode.layouts import KeyMap
from ...core.io import Dataset
from ..viewers.image_view import to_qimage

if TYPE_CHECKING:
    from ..host import PanelHost

Index = QModelIndex | QPersistentModelIndex
SIZE = 128
CACHE = 4000


class _Signals(QObject):
    done = Signal(int, int, object)  # generation, record, RGBA array or error text


Classes = tuple[tuple[int | None, str | None], tuple[tuple[int | None, str | None], ...]]


def tile_classes(ann: ImageAnnotation) -> Classes:
    """The image's class (id, text), and its boxes' classes, for its caption."""
    return (ann.label, ann.label_text), tuple((b.label, b.text) for b in ann.boxes)


def tile_caption(
    classes: Classes, labels: dict[int, str] | None = None, boxes: dict[int, str] | None = None
) -> str:
    """The image's label (text and id), else the classes of its boxes; an id without a
    text named by ``labels`` (the image's) or ``boxes`` (the boxes') when the dataset
    names its classes (a TFDS ClassLabel, a label map)."""

    def named(cls: tuple[int | None, str | None], names: dict[int, str] | None) -> str:
        label, text = cls
        if not text and label is not None and names:
            text = names.get(label)
        return box_caption(label, text)

    image, box_classes = classes
    caption = named(image, labels)
    if caption:
        return caption
    shown = [c for c in dict.fromkeys(named(b, boxes) for b in box_classes) if c]
    more = " …" if len(shown) > 2 else ""
    return ", ".join(shown[:2]) + more


class ThumbJob(QRunnable):
    def __init__(
        self,
        dataset: Dataset,
        record: int,
        generation: int,
        signals: _Signals,
        hidden: frozenset[tuple[int | None, str | None]] = frozenset(),
        keymap: KeyMap | None = None,
    ) -> None:
        super().__init__()
        self.dataset, self.record, self.generation, self.signals = (
            dataset,
            record,
            generation,
            signals,
        )
        self.hidden = set(hidden)  # classes whose boxes are not drawn
        self.keymap = keymap  # the layout's keys named by hand

    def run(self) -> None:
        classes: Classes | None = None
        try:
            payload = decode_record(self.dataset, self.record).payload
            anns = payload_images(payload, self.keymap)
            classes = tile_classes(anns[0]) if anns else None
            if anns and self.hidden:
                kept = tuple(b for b in anns[0].boxes if not is_hidden(b, self.hidden))
                anns[0] = replace(anns[0], boxes=kept)
            result: Any = annotated_thumbnail(anns[0], SIZE) if anns else "no image"
        except (ImageError, Exception) as exc:  # a thumbnail must never crash the pool
            result = f"cannot decode: {exc}"
        try:
            self.signals.done.emit(self.generation, self.record, (result, classes))
        except RuntimeError:
            pass  # the gallery went away meanwhile


class ThumbnailModel(QAbstractListModel):
    """Items are the rows of the record table model; icons arrive asynchronously."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.dataset: Dataset | None = None
        self.records: Any = None  # the record table model (row -> record)
        self._cache: OrderedDict[int, QIcon | str] = OrderedDict()
        self._captions: dict[int, Classes | None] = {}  # what each tile's caption names
        self.names: tuple[dict[int, str], dict[int, str]] = ({}, {})  # images', boxes' classes
        self._pending: set[int] = set()
        self._generation = 0
        self.hidden: frozenset[tuple[int | None, str | None]] = frozenset()
        self.keymap = KeyMap()
        self._signals = _Signals()
        self._signals.done.connect(self._done)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(2)

    def set_source(self, dataset: Dataset | None, records: Any) -> None:
        self.pool.clear()
        self.pool.waitForDone()
        self.beginResetModel()
        self.dataset, self.records = dataset, records
        self._cache.clear()
        self._captions.clear()
        self._pending.clear()
        self._generation += 1
        self.endResetModel()

    def refresh(self) -> None:
        self.pool.clear()
        self._pending.clear()
        self.beginResetModel()
        self.endResetModel()

    def set_hidden_classes(self, hidden: set[tuple[int | None, str | None]]) -> None:
        """Draw no boxes of these classes: every thumbnail is made again."""
        self._redraw(lambda: setattr(self, "hidden", frozenset(hidden)))

    def set_class_names(self, labels: dict[int, str], boxes: dict[int, str]) -> None:
        """Name the class ids of the captions: the images' (``labels``) and the boxes'
        (``boxes``), as the dataset names them."""
        self.names = (labels, boxes)
        if self.rowCount():
            self.dataChanged.emit(
                self.index(0), self.index(self.rowCount() - 1), [Qt.ItemDataRole.DisplayRole]
            )

    def set_keymap(self, keymap: KeyMap) -> None:
        """Read images and boxes under ``keymap``: every thumbnail is made again."""
        self._redraw(lambda: setattr(self, "keymap", keymap))

    def _redraw(self, change: Callable[[], object]) -> None:
        self.pool.clear()
        self.pool.waitForDone()
        self.beginResetModel()
        change()
        self._cache.clear()
        self._pending.clear()
        self._generation += 1
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        if parent.isValid() or self.records is None:
            return 0
        return int(self.records.record_count())

    def record_at(self, row: int) -> int:
        return int(self.records.nth_record(row))

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self.dataset is None:
            return None
        record = self.record_at(index.row())
        if role == Qt.ItemDataRole.DisplayRole:
            classes = self._captions.get(record)
            caption = tile_caption(classes, *self.names) if classes else ""
            badge = self._badge(record)
            return f"{badge}{record}" + (f"  {caption}" if caption else "")
        if role == Qt.ItemDataRole.DecorationRole:
            cached = self._cache.get(record)
            if isinstance(cached, QIcon):
                return cached
            if cached is None and record not in self._pending:
                self._pending.add(record)
                job = ThumbJob(
                    self.dataset, record, self._generation, self._signals, self.hidden, self.keymap
                )
                self.pool.start(job)
            return _placeholder()
        if role == Qt.ItemDataRole.ToolTipRole:
            cached = self._cache.get(record)
            return f"record {record}" + (f": {cached}" if isinstance(cached, str) else "")
        return None

    def _badge(self, record: int) -> str:
        """✗ deleted, ✎ edited, ⚠ damaged (what the record table marks too)."""
        edits = getattr(self.records, "edits", None)
        if edits is not None and edits.is_deleted(record):
            return "✗ "
        if edits is not None and edits.is_edited(record):
            return "✎ "
        try:
            return (
                "⚠ " if self.dataset is not None and self.dataset.ref(record).status.damaged else ""
            )
        except IndexError:
            return ""

    def _done(self, generation: int, record: int, done: Any) -> None:
        if generation != self._generation:
            return
        result, classes = done
        self._captions[record] = classes
        if len(self._captions) > CACHE:
            self._captions.pop(next(iter(self._captions)))
        self._pending.discard(record)
        self._cache[record] = (
            QIcon(QPixmap.fromImage(to_qimage(result)))
            if isinstance(result, np.ndarray)
            else str(result)
        )
        if len(self._cache) > CACHE:
            self._cache.popitem(last=False)
        row = self.records.position_of(record) if self.records is not None else None
        if row is not None and row < self.rowCount():
            idx = self.index(row)
            self.dataChanged.emit(
                idx, idx, [Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.DisplayRole]
            )


_PLACEHOLDER: QIcon | None = None


def _placeholder() -> QIcon:
    global _PLACEHOLDER
    if _PLACEHOLDER is None:
        pix = QPixmap(SIZE, SIZE)
        pix.fill(QColor(225, 225, 225))
        _PLACEHOLDER = QIcon(pix)
    return _PLACEHOLDER


def _runs(rows: list[int]) -> list[tuple[int, int]]:
    """Sorted ``rows`` as ``(first, last)`` runs of consecutive rows."""
    out: list[tuple[int, int]] = []
    for row in rows:
        if out and row == out[-1][1] + 1:
            out[-1] = (out[-1][0], row)
        else:
            out.append((row, row))
    return out


class Gallery(QListView):
    """The records as tiles, a browser of them: the current tile is the window's record
    (click, arrows, Home/End, Page keys) and the tiles selected (Shift, Ctrl) are the
    table's selected rows (:meth:`drive`), so that Del, C and B act on what is
    highlighted. Double-click (or Enter) opens the record too."""

    record_activated = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setViewMode(QListView.ViewMode.IconMode)
        self.setIconSize(QSize(SIZE, SIZE))
        self.setGridSize(QSize(SIZE + 24, SIZE + 40))
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setUniformItemSizes(True)
        self.setMovement(QListView.Movement.Static)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.thumbs = ThumbnailModel(self)
        self.setModel(self.thumbs)
        self._followed: int | None = None  # the window's selected record
        self._table: QAbstractItemView | None = None  # whose rows the tiles are
        self._following = False  # set while the selection is handed between the two
        # a reset (new rows, hidden classes, layout keys) clears the selection: select again
        self.thumbs.modelReset.connect(lambda: self.follow(self._followed))
        self.activated.connect(
            lambda idx: self.record_activated.emit(self.thumbs.record_at(idx.row()))
        )

    def attach(self, host: PanelHost) -> None:
        """Follow ``host``'s session: its selected record and its layout's keys (the
        dataset comes from the window, with its rows); activating a tile selects its
        record."""
        session = host.session
        self.record_activated.connect(host.select_record)
        session.selected.connect(self.follow)
        session.keys_changed.connect(self.set_keymap)
        self.set_keymap(session.keymap)

    def set_dataset(self, dataset: Dataset | None, records: Any) -> None:
        self.thumbs.set_source(dataset, records)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        """The columns share the width: no strip of it is left empty at the right."""
        width = self.viewport().width()
        columns = max(1, width // (SIZE + 24))
        cell = QSize(max(SIZE + 24, width // columns), SIZE + 40)
        if cell != self.gridSize():
            self.setGridSize(cell)
        super().resizeEvent(event)

    def set_hidden_classes(self, hidden: set[tuple[int | None, str | None]]) -> None:
        self.thumbs.set_hidden_classes(hidden)

    def set_keymap(self, keymap: KeyMap) -> None:
        self.thumbs.set_keymap(keymap)

    def drive(self, table: QAbstractItemView) -> None:
        """Make the current tile the table's current row (so the window shows its
        record) and the selected tiles its selected rows: the tiles are the table's
        rows, in its order."""
        self._table = table
        selection = self.selectionModel()
        selection.currentChanged.connect(lambda *_: self._to_table())
        selection.selectionChanged.connect(lambda *_: self._to_table())

    def _to_table(self) -> None:
        table = self._table
        model = table.model() if table is not None else None
        if self._following or table is None or model is None or not self.isVisible():
            return
        rows = sorted({i.row() for i in self.selectionModel().selectedIndexes()})
        picked = QItemSelection()
        last = model.columnCount() - 1
        for first, end in _runs(rows):
            picked.select(model.index(first, 0), model.index(end, last))
        current = self.currentIndex()
        self._following = True
        try:
            flags = QItemSelectionModel.SelectionFlag
            if current.isValid():
                table.selectionModel().setCurrentIndex(
                    model.index(current.row(), 0), flags.NoUpdate
                )
                table.scrollTo(model.index(current.row(), 0))
            table.selectionModel().select(picked, flags.ClearAndSelect | flags.Rows)
        finally:
            self._following = False

    def follow(self, record: int | None) -> None:
        """Select and show the tile of ``record`` (the window's selection); None or a
        record not shown clears the selection. Only while the gallery is on screen (a
        grid of a million tiles is laid out when it is shown, not on every selection)."""
        self._followed = record
        if not self.isVisible() or self._following:
            return
        records = self.thumbs.records
        row = records.position_of(record) if records is not None and record is not None else None
        if row is None or row >= self.thumbs.rowCount():
            self.clearSelection()
            return
        index = self.thumbs.index(row)
        if self.currentIndex() != index:  # (the tiles picked with it stay picked)
            self._following = True
            try:
                self.setCurrentIndex(index)
            finally:
                self._following = False
        self.scrollTo(index)

    def refresh(self) -> None:
        self.thumbs.refresh()
