"""The Classes panel: each class with its count and its box colour. Clicking a class
filters the table to its records; unchecking it hides its boxes in the image view."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from ...core.analyze.stats_summary import StatsSummary
from ..style import label_colour
from .stats_panel import key_ref

_CLASS = Qt.ItemDataRole.UserRole + 1


def _swatch(colour: QColor) -> QIcon:
    pixmap = QPixmap(14, 14)
    pixmap.fill(colour)
    return QIcon(pixmap)


class ClassesPanel(QWidget):
    """``filter_requested(expression)`` when a class is clicked; ``hidden_changed(set of
    (id, text))`` when classes are unchecked or checked again."""

    filter_requested = Signal(str)
    hidden_changed = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.note = QLabel("Classes appear with the statistics.", self)
        self.note.setWordWrap(True)
        self.list = QListWidget(self)
        self.list.itemClicked.connect(self._clicked)
        self.list.itemChanged.connect(self._changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.note)
        layout.addWidget(self.list, 1)
        self.key: str | None = None
        self._toggled: QListWidgetItem | None = None  # a click on a check box, not a name

    def set_classes(self, stats: StatsSummary | None) -> None:
        """The classes of a ``stats`` report (boxes' classes when there are boxes)."""
        self.list.blockSignals(True)
        self.list.clear()
        self.key = None
        found = stats.class_counts if stats is not None else None
        if found is None:
            self.note.setText("No class labels found in this dataset.")
            self.list.blockSignals(False)
            self.hidden_changed.emit(set())
            return
        self.key = found.key
        total = sum(c.count for c in found.classes)
        what = "boxes" if stats is not None and stats.object_classes else "records"
        self.note.setText(
            f"{len(found.classes)} classes in {total:,} {what} ({self.key}). Click one to "
            "show its records; uncheck to hide its boxes."
        )
        for c in found.classes:
            text = f"{c.id}  {c.text or ''}".rstrip()
            item = QListWidgetItem(_swatch(label_colour(c.id, c.text)), f"{text} — {c.count:,}")
            item.setData(_CLASS, (c.id, c.text))
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            self.list.addItem(item)
        self.list.blockSignals(False)
        self.hidden_changed.emit(set())

    def hidden(self) -> set[tuple[int | None, str | None]]:
        return {
            self.list.item(i).data(_CLASS)
            for i in range(self.list.count())
            if self.list.item(i).checkState() != Qt.CheckState.Checked
        }

    def _clicked(self, item: QListWidgetItem) -> None:
        if self.key is None or self._toggled is item:
            self._toggled = None
            return
        class_id, _text = item.data(_CLASS)
        self.filter_requested.emit(f"{key_ref(self.key)} == {class_id}")

    def _changed(self, item: QListWidgetItem) -> None:
        self._toggled = item
        self.hidden_changed.emit(self.hidden())
