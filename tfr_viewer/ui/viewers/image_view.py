"""An image viewer with fit, 1:1, zoom, pan, and layout overlays (boxes, masks, points)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

import numpy as np
from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPen, QPixmap, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ...core.analyze.label_errors import Match, Predicted
from ...core.analyze.predictions import InRecords, PredictionError, Source, of_record
from ...core.decode import (
    Decoded,
    ImageAnnotation,
    ImageError,
    KeyMap,
    box_caption,
    decode_image,
    decode_preview,
    features_of,
    is_hidden,
    payload_images,
    raw_pixels,
)
from ...core.decode.layouts import Box
from ...core.text import plural
from ..style import label_colour
from .box_picker import BoxPicker
from .captions import caption_item
from .frame_strip import FrameStrip
from .prediction_layer import (
    FOUND,
    MISSED,
    PredictionBar,
    counts_text,
    draw_predictions,
    pairing_of,
)


def to_qimage(rgba: np.ndarray) -> QImage:
    """A deep-copied QImage of an (h, w, 4) uint8 array."""
    h, w, _ = rgba.shape
    data = np.ascontiguousarray(rgba)
    return QImage(data.data, w, h, 4 * w, QImage.Format.Format_RGBA8888).copy()


class ZoomView(QGraphicsView):
    """A graphics view that zooms with the wheel and pans by dragging."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setBackgroundBrush(QBrush(QColor(60, 60, 60)))
        self.fitting = True

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        factor = 1.25 if event.angleDelta().y() > 0 else 0.8
        self.fitting = False
        self.scale(factor, factor)

    def fit(self) -> None:
        self.fitting = True
        rect = self.scene().itemsBoundingRect()
        if not rect.isEmpty():
            self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)

    def actual_size(self) -> None:
        self.fitting = False
        self.resetTransform()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        if self.fitting:
            self.fit()


class ImageViewer(QWidget):
    """Shows the images of one record; a selector switches between them."""

    image_shown = Signal(str)  # a description, or an error message

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = ZoomView(self)
        self.chooser = QComboBox(self)
        self.overlays = QCheckBox("Overlays", self)
        self.overlays.setChecked(True)
        self.overlays.setToolTip("Show boxes, masks and keypoints (O)")
        self.info = QLabel(self)
        self.info.setWordWrap(True)  # a long message must not widen the pane
        self.info.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        fit = QPushButton("Fit", self)
        one = QPushButton("1:1", self)
        fit.clicked.connect(self.view.fit)
        one.clicked.connect(self.view.actual_size)
        bar = QHBoxLayout()
        bar.addWidget(self.chooser, 1)
        bar.addWidget(self.overlays)
        bar.addWidget(fit)
        bar.addWidget(one)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.damage = QLabel(self)  # what is wrong with a damaged record, above all else
        self.damage.setWordWrap(True)
        self.damage.setStyleSheet("background: #b42318; color: white; padding: 4px;")
        self.damage.hide()
        layout.addWidget(self.damage)
        layout.addLayout(bar)
        self._bar: PredictionBar | None = None  # made for the first record with predictions
        layout.addWidget(self.view, 1)
        self._frames: FrameStrip | None = None  # made for the first frames of a sequence
        layout.addWidget(self.info)
        self.predictions: Source | None = InRecords()  # where predictions come from
        self.iou = 0.5  # the overlap that pairs a prediction with a box
        self._values: dict[str, Any] = {}  # the shown record's lists, for its predictions
        self.pairing: Match | None = None  # of the image shown, when it has predictions
        self.highlighted_prediction: int | None = None
        self.class_names: dict[int, str] = {}  # the dataset's, once known (statistics, checks)
        self._annotations: list[ImageAnnotation] = []
        self.keymap = KeyMap()  # the layout's keys (renamed ones too)
        self.hidden_classes: set[tuple[int | None, str | None]] = set()  # (id, text)
        self.highlighted: int | None = None  # a box drawn thicker, with a white outline
        self.chooser.currentIndexChanged.connect(self._show_current)
        self.overlays.toggled.connect(self._show_current)
        self.keep_selection = False  # set while the same record is shown again (an edit)
        self._decoded: tuple[tuple[bytes, object], tuple[np.ndarray, int, int]] | None = None
        self.picker = BoxPicker(self.view, self._box_shown)
        self.picker.changed.connect(lambda _box: self._show_current())

    # -- as a viewer of the preview (see preview.VIEWERS) ---------------------------
    def offer(self, decoded: Decoded) -> list[ImageAnnotation] | None:
        """The record's images with their boxes, in the layout settings' keys."""
        features = features_of(decoded.payload)
        annotations = payload_images(decoded.payload, self.keymap)
        self._values = {k: fd.values for k, fd in features.items()} if features else {}
        return annotations or None

    def present(self, annotations: list[ImageAnnotation]) -> None:
        self.set_annotations(annotations)

    def clear(self) -> None:
        self._values = {}
        self.set_annotations([])

    def _pixels(self, ann: ImageAnnotation) -> tuple[np.ndarray, int, int]:
        """The image's pixels (a bounded preview; the scene keeps the image's own pixel
        units), decoded once: choosing or nudging a box redraws without decoding."""
        key = (ann.data, ann.raw_shape)
        if self._decoded is not None and self._decoded[0] == key:
            return self._decoded[1]
        if ann.raw_shape:
            rgba = raw_pixels(ann.data, ann.raw_shape)
            pixels = (rgba, rgba.shape[1], rgba.shape[0])
        else:
            pixels = decode_preview(ann.data)
        self._decoded = (key, pixels)
        return pixels

    def _pick_from(self, boxes: tuple[Box, ...], scale: tuple[float, float], keep: bool) -> None:
        """The boxes the picker chooses from, set while the view is drawn (so the
        picker's own request to redraw is not needed)."""
        blocked = self.picker.blockSignals(True)
        self.picker.set_boxes(boxes, scale, keep)
        self.picker.blockSignals(blocked)

    def _box_shown(self, number: int) -> bool:
        boxes = self.picker.boxes
        shown = self.overlays.isChecked() and 0 <= number < len(boxes)
        return shown and not is_hidden(boxes[number], self.hidden_classes)

    def set_hidden_classes(self, hidden: set[tuple[int | None, str | None]]) -> None:
        """Boxes of these classes (``(id, text)``) are not drawn."""
        self.hidden_classes = set(hidden)
        self._show_current()

    def highlight_box(self, box: int | None) -> None:
        """Draw box number ``box`` of the shown image so that it stands out (None: none)."""
        self.highlighted = box
        self._show_current()

    def refresh(self) -> None:
        """Draw the shown record again (its predictions may come from elsewhere now)."""
        self._show_current()

    def highlight_prediction(self, prediction: int | None) -> None:
        """Draw prediction number ``prediction`` of the shown record so that it stands
        out (a label error with no labelled box: the object the labels lack)."""
        self.highlighted_prediction = prediction
        self._show_current()

    def box_class(self, number: int) -> tuple[int | None, str | None] | None:
        """The class (id, text) of box ``number`` of the picture shown, if it has one."""
        boxes = self.picker.boxes
        if not 0 <= number < len(boxes):
            return None
        return boxes[number].label, boxes[number].text

    def set_damage(self, text: str | None) -> None:
        """Say above the picture that the record is damaged (None: it is not)."""
        self.damage.setText(text or "")
        self.damage.setVisible(text is not None)

    def set_annotations(self, annotations: list[ImageAnnotation]) -> None:
        self._annotations = annotations
        self.highlighted = self.highlighted_prediction = None
        if not self.keep_selection:
            self.view.fitting = True  # a new record is shown whole; an edit keeps the zoom
        self.chooser.blockSignals(True)
        self.chooser.clear()
        for a in annotations:
            suffix = f"[{a.index}]" if a.index else ""
            self.chooser.addItem(f"{a.key}{suffix}  ({a.layout})")
        self.chooser.setVisible(len(annotations) > 1)
        self.chooser.blockSignals(False)
        self._show_current()

    def _show_current(self) -> None:
        scene = self.view.scene()
        scene.clear()
        i = self.chooser.currentIndex()
        if not (0 <= i < len(self._annotations)):
            self._pick_from((), (1.0, 1.0), keep=False)
            self._hide_frames()
            self.info.setText("no image in this record")
            return
        ann = self._annotations[i]
        self._show_frames(ann, i)
        try:
            rgba, w, h = self._pixels(ann)
        except ImageError as exc:
            self._pick_from((), (1.0, 1.0), keep=False)
            message = f"{ann.key}: cannot show this image: {exc}"
            item = scene.addText(message)
            item.setDefaultTextColor(QColor("white"))
            item.setTextWidth(max(200, self.view.viewport().width() - 40))
            scene.setSceneRect(item.boundingRect())  # not the last image's rectangle
            self.view.resetTransform()
            self.view.fitting = False
            self.info.setText(message)
            self.image_shown.emit(message)
            return
        pixmap = scene.addPixmap(QPixmap.fromImage(to_qimage(rgba)))
        pixmap.setScale(w / rgba.shape[1])
        pixmap.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        scene.setSceneRect(QRectF(0, 0, w, h))
        scale = (w, h) if ann.normalized else (1.0, 1.0)
        if self.picker.boxes is not ann.boxes:
            self._pick_from(ann.boxes, scale, self.keep_selection)
        predicted = self._predicted(ann, w, h)
        if self.overlays.isChecked():
            self._draw_overlays(ann, w, h)
            if predicted is not None and self.prediction_bar.predictions.isChecked():
                assert self.pairing is not None
                colours = self.prediction_bar.outcome.isChecked()
                names = dict(self.class_names)
                names |= {b.label: b.text for b in ann.boxes if b.label is not None and b.text}
                draw_predictions(scene, predicted, self.pairing, (w, h), colours, names)
                if self.highlighted_prediction is not None:
                    self._halo_prediction(predicted, w, h)
        if self.view.fitting:
            self.view.fit()
        text = f"{ann.key}: {w}×{h}, {plural(len(ann.boxes), 'box', 'boxes')} ({ann.layout} layout)"
        if ann.notes:
            text += "; " + "; ".join(ann.notes)
        chosen = self.picker.selected
        if chosen is not None and chosen < len(ann.boxes):
            box = ann.boxes[chosen]
            caption = box_caption(
                box.label, box.text or self.class_names.get(-1 if box.label is None else box.label)
            )
            text = (
                f"box {chosen} of {len(ann.boxes)}{f': {caption}' if caption else ''} — "
                "arrows move it (Shift: by ten), Del deletes it, Tab goes to the next"
            )
        self.info.setText(text)
        self.image_shown.emit(text)

    @property
    def frames(self) -> FrameStrip:
        """The strip of a sequence's frames, under the picture, made the first time a
        frame of a sequence is shown."""
        if self._frames is None:
            strip = self._frames = FrameStrip(self)
            strip.chosen.connect(self.chooser.setCurrentIndex)
            layout = cast(QVBoxLayout, self.layout())
            layout.insertWidget(layout.indexOf(self.info), strip)
        return self._frames

    def _hide_frames(self) -> None:
        if self._frames is not None:
            self._frames.hide()

    def _show_frames(self, ann: ImageAnnotation, position: int) -> None:
        """The frame strip for a frame of a sequence (the frames of its list), hidden
        for any other picture."""
        if ann.layout != "frames":
            self._hide_frames()
            return
        same = [
            n for n, a in enumerate(self._annotations) if a.layout == "frames" and a.key == ann.key
        ]
        self.frames.set_frames(ann.key, same, position)

    @property
    def prediction_bar(self) -> PredictionBar:
        """What of the predictions is drawn, and their score threshold, above the
        picture: made the first time a record with predictions is shown (or the
        predictions are set up), shown while one is."""
        if self._bar is None:
            bar = self._bar = PredictionBar(self)
            bar.hide()
            bar.changed.connect(self._show_current)
            layout = cast(QVBoxLayout, self.layout())
            layout.insertWidget(layout.indexOf(self.view), bar)
        return self._bar

    def _predicted(self, ann: ImageAnnotation, w: int, h: int) -> list[Predicted] | None:
        """The shown image's predictions (None: none), paired with its boxes; the bar
        is shown with its counts when there are some."""
        predicted = None
        if self.predictions is not None and ann.index == 0:
            try:
                predicted = of_record(self.predictions, self._values, (w, h))
            except PredictionError:
                predicted = None
        if predicted is None:
            if self._bar is not None:
                self._bar.hide()
            self.pairing = None
            return None
        self.prediction_bar.show()
        sx, sy = (1.0, 1.0) if ann.normalized else (w, h)
        boxes = [
            replace(b, xmin=b.xmin / sx, ymin=b.ymin / sy, xmax=b.xmax / sx, ymax=b.ymax / sy)
            for b in ann.boxes
        ]
        self.pairing = pairing_of(boxes, predicted, self.prediction_bar.score(), self.iou)
        self.prediction_bar.counts.setText(counts_text(self.pairing))
        return predicted

    def _halo_prediction(self, predicted: list[Predicted], w: int, h: int) -> None:
        i = self.highlighted_prediction
        if i is None or not 0 <= i < len(predicted):
            return
        x0, y0, x1, y1 = predicted[i].corners
        halo = QPen(QColor("white"), 8)
        halo.setCosmetic(True)
        rect = QRectF(x0 * w, y0 * h, (x1 - x0) * w, (y1 - y0) * h)
        self.view.scene().addRect(rect, halo).setZValue(5)

    def _draw_overlays(self, ann: ImageAnnotation, w: int, h: int) -> None:
        scene = self.view.scene()
        sx, sy = (w, h) if ann.normalized else (1.0, 1.0)
        for k, mask in enumerate(ann.masks):
            self._draw_mask(mask, w, h, label_colour(k, None))
        pairing = self.pairing
        for number, box in enumerate(ann.boxes):
            if is_hidden(box, self.hidden_classes):
                continue
            if pairing is not None and not self.prediction_bar.labels.isChecked():
                continue
            colour = label_colour(box.label, box.text)
            if pairing is not None and self.prediction_bar.outcome.isChecked():
                colour = FOUND if pairing.found[number] else MISSED
            rect = QRectF(
                box.xmin * sx, box.ymin * sy, (box.xmax - box.xmin) * sx, (box.ymax - box.ymin) * sy
            )
            item = QGraphicsRectItem(rect)
            pen = QPen(colour, 2)
            pen.setCosmetic(True)
            item.setPen(pen)
            scene.addItem(item)
            if number in (self.highlighted, self.picker.selected):  # a halo, a thicker line
                halo_pen = QPen(QColor("white"), 8)
                halo_pen.setCosmetic(True)
                scene.addRect(rect, halo_pen).setZValue(3)
                thick = QPen(colour, 4)
                thick.setCosmetic(True)
                item.setPen(thick)
                item.setZValue(4)
            caption = box_caption(
                box.label, box.text or self.class_names.get(-1 if box.label is None else box.label)
            )
            if caption:
                label = caption_item(caption, colour, rect.topLeft())
                label.setZValue(5)
                scene.addItem(label)
        for x, y in ann.keypoints:
            px, py = (x * sx, y * sy)
            dot = scene.addEllipse(
                px - 3, py - 3, 6, 6, QPen(QColor("yellow")), QBrush(QColor("yellow"))
            )
            dot.setZValue(2)

    def _draw_mask(self, mask: bytes | np.ndarray, w: int, h: int, colour: QColor) -> None:
        try:
            if isinstance(mask, bytes):
                alpha = decode_image(mask)[..., 0]
            else:
                alpha = (np.asarray(mask).reshape(h, w) > 0.5).astype(np.uint8) * 255
        except (ImageError, ValueError):
            return
        if alpha.shape != (h, w):
            return
        rgba = np.zeros((h, w, 4), dtype=np.uint8)
        rgba[..., 0], rgba[..., 1], rgba[..., 2] = colour.red(), colour.green(), colour.blue()
        rgba[..., 3] = (alpha > 0).astype(np.uint8) * 110
        self.view.scene().addPixmap(QPixmap.fromImage(to_qimage(rgba))).setZValue(1)
