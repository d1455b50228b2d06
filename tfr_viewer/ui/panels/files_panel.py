"""Files: the open dataset's files (the shards of a set), each with its compression,
size, records, first record number and problems, as ``info`` reports them. Activating a
file selects its first record. It follows the window's session on its own."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.io.remote import is_url
from ...core.io.sniff import sniff
from ...core.text import plural

if TYPE_CHECKING:
    from ...core.io import Dataset
    from ...core.io.source import Source
    from ..host import PanelHost

COLUMNS = ("file", "records", "problems", "first record", "bytes", "compression")
_FIRST = COLUMNS.index("first record")
MAX_LISTED = 2_000  # files listed; a set of more is summed in the line above


class FilesPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel("No dataset open.", self)
        self.list = QTreeWidget(self)
        self.list.setHeaderLabels(list(COLUMNS))
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # shard numbers end names
        header = self.list.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        header.setMinimumSectionSize(40)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(self.list, 1)
        self._dataset: Dataset | None = None

    def attach(self, host: PanelHost) -> None:
        """Follow ``host``'s session; activating a file selects its first record."""
        session = host.session
        session.opened.connect(self.show_dataset)
        session.indexed.connect(lambda _state: self.show_dataset(session.dataset))
        session.closed.connect(lambda: self.show_dataset(None))
        self.list.itemActivated.connect(lambda item, _c: self._activated(host, item))
        if session.dataset is not None:
            self.show_dataset(session.dataset)

    def _activated(self, host: PanelHost, item: QTreeWidgetItem) -> None:
        record = item.data(_FIRST, Qt.ItemDataRole.UserRole)
        if record is None:
            host.statusBar().showMessage(f"{item.text(0)} holds no records", 10000)
        else:
            host.select_record(int(record))

    def show_dataset(self, ds: Dataset | None) -> None:
        """List the files of ``ds`` with what is known of them now (None: nothing)."""
        self._dataset = ds
        self.list.clear()
        if ds is None:
            self.summary.setText("No dataset open.")
            return
        total_bytes = 0
        items = []
        for number, f in enumerate(ds.files[:MAX_LISTED]):
            compression, size = _facts(f.path, f.source)
            total_bytes += size or 0
            records = f.index.whole_records()
            first = ds.start_of(number) if records else None
            cells = [
                os.path.basename(f.path.rstrip("/")) or f.path,
                f"{records:,}" if f.index.complete else f"{records:,}…",
                f"{f.index.problem_count():,}" if f.index.complete else "",
                f"{first:,}" if first is not None else "",
                f"{size:,}" if size is not None else "",
                compression,
            ]
            item = QTreeWidgetItem(cells)
            item.setToolTip(0, f.path)
            item.setData(_FIRST, Qt.ItemDataRole.UserRole, first)
            for column in range(1, len(COLUMNS)):
                item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight)
            items.append(item)
        self.list.addTopLevelItems(items)
        for column in range(1, len(COLUMNS)):
            self.list.resizeColumnToContents(column)
        files = plural(len(ds.files), "file")
        if len(ds.files) > MAX_LISTED:
            files += f" (the first {MAX_LISTED:,} listed)"
        else:
            files += f", {total_bytes:,} bytes"
        self.summary.setText(f"{files}, {plural(len(ds), 'record')}")


def _facts(path: str, source: Source | None) -> tuple[str, int | None]:
    """A file's compression and size on disk: from its source when it is open, else
    from the file itself when it is local (a remote file is never opened here)."""
    if source is not None:
        return source.compression.value, source.compressed_size
    if is_url(path):
        return "", None
    try:
        return sniff(path).value, os.path.getsize(path)
    except OSError:
        return "", None
