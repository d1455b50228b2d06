"""A model's predictions over the picture: dashed boxes with their class and score,
beside the solid labelled boxes; a score threshold; and, paired as detection metrics
pair them (:func:`~...core.analyze.label_errors.match`), true positives, false
positives and missed labelled boxes coloured and counted."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import (
    QCheckBox,
    QGraphicsRectItem,
    QGraphicsScene,
    QHBoxLayout,
    QLabel,
    QSlider,
    QWidget,
)

from ...core.analyze.label_errors import Labelled, Match, Predicted, Thresholds, match
from ...core.decode import box_caption
from ...core.decode.layouts import Box
from ..style import label_colour
from .captions import caption_item

FOUND = QColor("#2e9d4f")  # a true positive, and the labelled box it pairs with
WRONG = QColor("#d92d20")  # a confident prediction that pairs with nothing
MISSED = QColor("#f79009")  # a labelled box no confident prediction pairs with


class PredictionBar(QWidget):
    """Toggles for the labels, the predictions and the match colours, the score
    threshold (a slider, hundredths) and the counts of the shown image."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.labels = QCheckBox("Labels", self)
        self.predictions = QCheckBox("Predictions", self)
        self.outcome = QCheckBox("Match colours", self)
        for box, tip in (
            (self.labels, "Draw the labelled boxes (solid)"),
            (self.predictions, "Draw the model's predictions (dashed, with their score)"),
            (
                self.outcome,
                "Colour by the pairing at the IoU threshold: green found, red a prediction "
                "that pairs with no box, orange a labelled box no prediction found",
            ),
        ):
            box.setChecked(True)
            box.setToolTip(tip)
            box.toggled.connect(self.changed)
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setRange(0, 100)
        self.slider.setValue(50)
        self.slider.setToolTip("Predictions below this score are not drawn or paired")
        self.slider.valueChanged.connect(self._slid)
        self.threshold = QLabel(self)
        self.counts = QLabel(self)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for widget in (self.labels, self.predictions, self.outcome):
            row.addWidget(widget)
        row.addWidget(self.threshold)
        row.addWidget(self.slider, 1)
        row.addWidget(self.counts)
        self._slid(self.slider.value())

    def score(self) -> float:
        return self.slider.value() / 100

    def set_score(self, score: float) -> None:
        self.slider.setValue(round(score * 100))

    def _slid(self, value: int) -> None:
        self.threshold.setText(f"score ≥ {value / 100:.2f}")
        self.changed.emit()


def labelled_of(boxes: Sequence[Box]) -> list[Labelled]:
    return [Labelled((b.xmin, b.ymin, b.xmax, b.ymax), b.label, b.text) for b in boxes]


def draw_predictions(
    scene: QGraphicsScene,
    predicted: Sequence[Predicted],
    pairing: Match,
    size: tuple[float, float],
    colours: bool,
    names: dict[int, str],
) -> None:
    """The confident predictions, dashed, captioned with class and score."""
    w, h = size
    for i, p in enumerate(predicted):
        if not pairing.confident[i]:
            continue
        x0, y0, x1, y1 = p.corners
        rect = QRectF(x0 * w, y0 * h, (x1 - x0) * w, (y1 - y0) * h)
        colour = (
            (FOUND if pairing.paired[i] is not None else WRONG)
            if colours
            else label_colour(p.label, names.get(p.label))
        )
        pen = QPen(colour, 2, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        item = QGraphicsRectItem(rect)
        item.setPen(pen)
        item.setZValue(6)
        item.setData(0, f"prediction {i}")
        scene.addItem(item)
        caption = f"{box_caption(p.label, names.get(p.label)) or p.label} {p.score:.2f}"
        label = caption_item(caption, colour, rect.bottomLeft())
        label.setZValue(7)
        scene.addItem(label)


def pairing_of(
    boxes: Sequence[Box], predicted: Sequence[Predicted], score: float, iou: float
) -> Match:
    return match(labelled_of(boxes), predicted, Thresholds(score=score, iou=iou))


def counts_text(pairing: Match) -> str:
    return (
        f"{pairing.true_positives} found, {pairing.false_positives} false, {pairing.missed} missed"
    )
