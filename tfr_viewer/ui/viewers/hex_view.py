"""A paged hex dump for any bytes: 64 KiB a page, so huge values stay responsive."""

from __future__ import annotations

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...core.decode import hexdump

PAGE = 64 * 1024


class HexViewer(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.prev = QPushButton("◀ Previous page", self)
        self.next = QPushButton("Next page ▶", self)
        self.where = QLabel(self)
        self.page = 0
        self.prev.clicked.connect(lambda: self.show_page(self.page - 1))
        self.next.clicked.connect(lambda: self.show_page(self.page + 1))
        bar = QHBoxLayout()
        bar.addWidget(self.prev)
        bar.addWidget(self.where, 1)
        bar.addWidget(self.next)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.text, 1)
        self.data = b""
        self.page = 0

    def pages(self) -> int:
        return max(1, -(-len(self.data) // PAGE))

    def set_data(self, data: bytes) -> None:
        self.data = bytes(data)
        self.show_page(0)

    def show_page(self, page: int) -> None:
        self.page = max(0, min(page, self.pages() - 1))
        start = self.page * PAGE
        self.text.setPlainText("\n".join(hexdump(self.data[start : start + PAGE], start)))
        self.where.setText(f"{len(self.data):,} bytes — page {self.page + 1} of {self.pages()}")
        self.prev.setEnabled(self.page > 0)
        self.next.setEnabled(self.page + 1 < self.pages())
