"""Analyze › Evaluate Predictions…: the table ``evaluate`` prints, per class and over
all (COCO's AP over IoU 0.5 to 0.95, AP and recall at IoU 0.5), with progress while
it is computed and the error when it cannot be."""

from __future__ import annotations

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

from ...app.evaluate import EvaluateReport

COLUMNS = ("class", "AP", "AP@0.5", "recall@0.5", "boxes", "predictions")


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


class EvaluationDialog(QDialog):
    def __init__(self, source: str, parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle("Evaluate Predictions")
        self.report: EvaluateReport | None = None
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

    def show_result(self, result: EvaluateReport | None, error: str) -> None:
        self.progress.hide()
        if result is None:
            self.said.setText(f"Cannot evaluate: {error}" if error else "Cancelled.")
            return
        self.report = result
        metrics = result.evaluation
        rows = [
            (
                f"{c.label} {c.text}" if c.text else str(c.label),
                (c.ap, c.ap50, c.recall50, c.boxes, c.predictions),
            )
            for c in metrics.classes
        ]
        boxes = sum(c.boxes for c in metrics.classes)
        predicted = sum(c.predictions for c in metrics.classes)
        rows.append(("all", (metrics.ap, metrics.ap50, metrics.recall50, boxes, predicted)))
        self.table.setRowCount(len(rows))
        for r, (name, (ap, ap50, recall50, n_boxes, n_predicted)) in enumerate(rows):
            values = (name, _cell(ap), _cell(ap50), _cell(recall50)) + (
                f"{n_boxes:,}",
                f"{n_predicted:,}",
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
            f"{metrics.images:,} images weighed. AP is COCO's mean over IoU 0.5 to 0.95; "
            "recall at IoU 0.5 with up to 100 detections an image (computed by pycocotools)."
        )
