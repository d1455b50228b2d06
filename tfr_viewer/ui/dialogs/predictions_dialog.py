"""Analyze › Predictions…: where a model's predictions come from (the records' own
``image/detection/…`` lists, a COCO results file, or another TFRecord dataset), the id
they are matched to records by, and the thresholds the picture and the checks use."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from ...core.analyze.label_errors import Thresholds
from .. import file_dialogs

SOURCES = ("features", "results", "dataset")


class PredictionsDialog(QDialog):
    """``choice()`` is what the dialog says: ``(source kind, path, match, thresholds)``."""

    def __init__(
        self,
        kind: str,
        path: str,
        match: str | None,
        limits: Thresholds,
        start_dir: str,
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Predictions")
        self.start_dir = start_dir
        self.kinds = QButtonGroup(self)
        self.buttons: dict[str, QRadioButton] = {}
        for n, (name, title) in enumerate(
            (
                ("features", "In the records (image/detection/bbox/…, label, score)"),
                ("results", "A COCO results file (JSON)"),
                ("dataset", "Another TFRecord dataset with detection lists"),
            )
        ):
            button = self.buttons[name] = QRadioButton(title, self)
            self.kinds.addButton(button, n)
        self.buttons[kind if kind in SOURCES else "features"].setChecked(True)
        self.path = QLineEdit(path, self)
        self.path.setPlaceholderText("the results file, or the dataset's file or folder")
        self.browse = QPushButton("Browse…", self)
        self.browse.clicked.connect(self._browse)
        self.match = QComboBox(self)
        self.match.addItems(["as most ids match", "source_id", "sha256", "filename"])
        if match:
            self.match.setCurrentText(match)
        self.score = QDoubleSpinBox(self)
        self.iou = QDoubleSpinBox(self)
        for spin, value in ((self.score, limits.score), (self.iou, limits.iou)):
            spin.setRange(0.0, 1.0)
            spin.setSingleStep(0.05)
            spin.setDecimals(2)
            spin.setValue(value)
        self.problem = QLabel(self)
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #b42318")
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(self.browse)
        form = QFormLayout()
        form.addRow("File:", row)
        form.addRow("Match records by:", self.match)
        form.addRow("Confident from score:", self.score)
        form.addRow("Paired from IoU:", self.iou)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        layout = QVBoxLayout(self)
        for button in self.buttons.values():
            layout.addWidget(button)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.kinds.idToggled.connect(lambda *_: self._update())
        self._update()
        self.resize(560, self.sizeHint().height())

    def kind(self) -> str:
        return SOURCES[max(self.kinds.checkedId(), 0)]

    def choice(self) -> tuple[str, str, str | None, Thresholds]:
        match = self.match.currentText()
        limits = Thresholds(score=self.score.value(), iou=self.iou.value())
        return self.kind(), self.path.text().strip(), None if " " in match else match, limits

    def _update(self) -> None:
        outside = self.kind() != "features"
        for widget in (self.path, self.browse, self.match):
            widget.setEnabled(outside)

    def _browse(self) -> None:
        if self.kind() == "results":
            path = file_dialogs.open_file(
                self, "COCO results file", self.start_dir, "JSON (*.json);;All files (*)"
            )
        else:
            path = file_dialogs.folder(self, "Dataset folder", self.start_dir)
        if path:
            self.path.setText(path)

    def _accept(self) -> None:
        kind, path, _match, limits = self.choice()
        try:
            limits.check()
        except ValueError as exc:
            self.problem.setText(str(exc))
            return
        if kind != "features" and not path:
            self.problem.setText("Choose the file the predictions are in.")
            return
        if kind == "results" and not path.lower().endswith(".json"):
            self.problem.setText("A COCO results file is a .json file.")
            return
        self.accept()
