"""Analyze › Evaluate Predictions…: the table ``evaluate`` prints, per class and over
all (COCO's AP over IoU 0.5 to 0.95, AP and recall at IoU 0.5), with progress while
it is computed and the error when it cannot be."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QProgressBar,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

COLUMNS = ("class", "AP", "AP@0.5", "recall@0.5", "boxes", "predictions")


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


class EvaluationDialog(QDialog):
    def __init__(self, source: str, parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle("Evaluate Predictions")
        self.metrics: dict[str, Any] | None = None
        self.said = QLabel(f"Predictions: {source}. Reading the labels and predictions…", self)
        self.said.setWordWrap(True)
        self.progress = QProgressBar(self)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.said)
        layout.addWidget(self.progress)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.resize(620, 360)

    def running(self, done: int, total: int) -> None:
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(done)

    def show_result(self, result: dict[str, Any] | None, error: str) -> None:
        self.progress.hide()
        if result is None:
            self.said.setText(f"Cannot evaluate: {error}" if error else "Cancelled.")
            return
        self.metrics = result
        rows = [
            (f"{c['class']} {c['text']}" if c["text"] else str(c["class"]), c)
            for c in result["classes"]
        ]
        boxes = sum(c["boxes"] for _, c in rows)
        predicted = sum(c["predictions"] for _, c in rows)
        rows.append(("all", {**result, "boxes": boxes, "predictions": predicted}))
        self.table.setRowCount(len(rows))
        for r, (name, c) in enumerate(rows):
            values = (name, _cell(c["ap"]), _cell(c["ap50"]), _cell(c["recall50"])) + (
                f"{c['boxes']:,}",
                f"{c['predictions']:,}",
            )
            for col, text in enumerate(values):
                item = QTableWidgetItem(text)
                if col:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.table.setItem(r, col, item)
        self.table.resizeColumnsToContents()
        self.said.setText(
            f"{result['images']:,} images weighed. AP is COCO's mean over IoU 0.5 to 0.95; "
            "recall at IoU 0.5 with up to 100 detections an image (computed by pycocotools)."
        )
