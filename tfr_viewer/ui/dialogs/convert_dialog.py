"""File › New Dataset from Images…: choose a source (class folders, a flat folder, a CSV
of labels or of boxes, Pascal VOC XML, COCO JSON), a layout and the output; the preview
shows the first files, the classes with their counts, the boxes and the file names to be
written. The conversion runs in a child process with progress and Cancel; when it is
done, ``converted(files)`` fires and the window opens them."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...app.jobs import standalone_task
from ...app.writing import ConvertRequest
from ...core.decode.layouts.registry import DEFAULT_LAYOUT, names as layout_names
from ...core.io import Compression
from ...core.task_messages import Done, Failed, Progress
from ...core.text import plural
from ...core.write import ExportOptions, convert_sources as sources, parse_split
from ...core.write.convert import ConvertOptions, class_order, class_shift, list_source
from ...core.write.convert_encode import Reencode
from ...core.write.export import planned_names
from .. import file_dialogs
from ..process_task import ProcessTask

PREVIEW_FILES = 8


def describe(listing: sources.Listing, names: list[str], layout: str = DEFAULT_LAYOUT) -> str:
    """The preview's text: what the source holds and what will be written (class ids as
    the layout writes them: the Object Detection API's start at 1)."""
    lines = [f"{plural(len(listing.items), 'image')} found ({listing.kind.replace('_', ' ')})"]
    if listing.skipped:
        first = listing.skipped[0]
        lines.append(
            f"{sources.skip_summary(listing.skipped, 'to skip')}, e.g. {first.path}: {first.reason}"
        )
        outside = sum(s.kind == "outside_source" for s in listing.skipped)
        if outside:
            lines.append(
                f"{plural(outside, 'file')} named outside the source's folder: tick \"Read "
                "files named outside the source's folder\" to read them"
            )
    boxes = sum(len(i.boxes) for i in listing.items)
    if listing.classes:
        per_class: Counter[Any] = Counter()
        for item in listing.items:
            if item.boxes:
                per_class.update(b[4] for b in item.boxes)
            elif item.label is not None:
                per_class[item.label] += 1
        shift = class_shift(layout, listing.classes)
        lines.append(f"{plural(len(listing.classes), 'class', 'classes')}:")
        for i, name in sorted(listing.classes.items()):
            lines.append(f"  {i + shift}  {name}: {per_class.get(i, 0):,}")
    if boxes:
        lines.append(f"{plural(boxes, 'box', 'boxes')} in all")
    lines.append("first files:")
    lines += [f"  {item.path}" for item in listing.items[:PREVIEW_FILES]]
    lines.append("will write:")
    lines += [f"  {n}" for n in names[:PREVIEW_FILES]]
    if len(names) > PREVIEW_FILES:
        lines.append(f"  … {plural(len(names) - PREVIEW_FILES, 'more file')}")
    return "\n".join(lines)


class ConvertDialog(QDialog):
    converted = Signal(object)  # the written files, a list of paths

    def __init__(self, start_dir: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New Dataset from Images")
        self.start_dir = start_dir
        self.source = QLineEdit(self)
        self.source.setPlaceholderText(
            "a folder of class folders or images, a CSV, VOC XML or COCO JSON"
        )
        folder = QPushButton("Folder…", self)
        folder.clicked.connect(self._choose_folder)
        file = QPushButton("File…", self)
        file.clicked.connect(self._choose_file)
        self.flat = QCheckBox("A flat folder of images (no labels)", self)
        # never remembered: each conversion starts confined to the source's folder
        self.allow_outside = QCheckBox("Read files named outside the source's folder", self)
        self.allow_outside.setToolTip(
            "A CSV or an annotation file may name images by ../ or absolute paths. They are "
            "skipped unless this is ticked (the command line's --allow-outside)."
        )
        self.file_column = QLineEdit("filename", self)
        self.label_column = QLineEdit("label", self)
        self.layout_choice = QComboBox(self)
        self.layout_choice.addItems(list(layout_names()))
        self.layout_choice.setCurrentText(DEFAULT_LAYOUT)
        self.output = QLineEdit(self)
        browse = QPushButton("Browse…", self)
        browse.clicked.connect(self._choose_output)
        self.compression = QComboBox(self)
        self.compression.addItems(["none", "gzip", "zlib"])
        self.shards = QSpinBox(self)
        self.shards.setRange(1, 100_000)
        self.split = QLineEdit(self)
        self.split.setPlaceholderText("e.g. train=0.8,val=0.2 (empty: no split)")
        self.shuffle = QSpinBox(self)
        self.shuffle.setRange(-1, 2**31 - 1)
        self.shuffle.setValue(0)  # shuffled unless asked: class folders come class by class
        self.shuffle.setSpecialValueText("no shuffle")
        self.shuffle.setToolTip(
            "The records are shuffled with this seed (the same seed, the same order). "
            "Without a shuffle they are written in the source's order, which for class "
            "folders is one class after another."
        )
        self.reencode = QCheckBox("Re-encode as JPEG, quality", self)
        self.quality = QSpinBox(self)
        self.quality.setRange(1, 100)
        self.quality.setValue(90)
        self.max_side = QSpinBox(self)
        self.max_side.setRange(0, 100_000)
        self.max_side.setSpecialValueText("any size")
        self.max_side.setSuffix(" px")
        self.preview = QPlainTextEdit(self)
        self.preview.setReadOnly(True)
        self.progress = QProgressBar(self)
        self.progress.hide()
        self.buttons = QDialogButtonBox(self)
        self.convert_button = self.buttons.addButton(
            "Convert", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.start)
        self.buttons.rejected.connect(self.cancel)
        form = QFormLayout()
        row = QHBoxLayout()
        row.addWidget(self.source, 1)
        row.addWidget(folder)
        row.addWidget(file)
        form.addRow("Source:", row)
        form.addRow("", self.flat)
        form.addRow("CSV file column:", self.file_column)
        form.addRow("CSV label column:", self.label_column)
        form.addRow("", self.allow_outside)
        form.addRow("Layout:", self.layout_choice)
        out_row = QHBoxLayout()
        out_row.addWidget(self.output, 1)
        out_row.addWidget(browse)
        form.addRow("Output:", out_row)
        form.addRow("Compression:", self.compression)
        form.addRow("Shards:", self.shards)
        form.addRow("Shuffle seed:", self.shuffle)
        form.addRow("Split:", self.split)
        encode_row = QHBoxLayout()
        encode_row.addWidget(self.reencode)
        encode_row.addWidget(self.quality)
        encode_row.addWidget(QLabel("largest side:", self))
        encode_row.addWidget(self.max_side)
        encode_row.addStretch(1)
        form.addRow("Images:", encode_row)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel("Preview:", self))
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.progress)
        layout.addWidget(self.buttons)
        for edit in (self.source, self.file_column, self.label_column, self.output, self.split):
            edit.editingFinished.connect(self.update_preview)
        for signal in (
            self.flat.toggled,
            self.allow_outside.toggled,
            self.layout_choice.currentIndexChanged,
            self.shards.valueChanged,
            self.shuffle.valueChanged,
            self.compression.currentIndexChanged,
        ):
            signal.connect(self.update_preview)
        self.listing: sources.Listing | None = None
        self._task: ProcessTask | None = None
        self.summary: Any = None
        self.resize(760, 640)

    # -- choosing ------------------------------------------------------------------
    def _choose_folder(self) -> None:
        path = file_dialogs.folder(self, "Folder of images", self.start_dir)
        if path:
            self.set_source(path)

    def _choose_file(self) -> None:
        path = file_dialogs.open_file(
            self,
            "CSV, VOC or COCO file",
            self.start_dir,
            "Labels (*.csv *.tsv *.json);;All files (*)",
        )
        if path:
            self.set_source(path)

    def _choose_output(self) -> None:
        path = file_dialogs.save_file(self, "New TFRecord file", self.output.text())
        if path:
            self.output.setText(path)
            self.update_preview()

    def set_source(self, path: str) -> None:
        self.source.setText(path)
        if not self.output.text():
            base = os.path.basename(os.path.normpath(path)).rsplit(".", 1)[0] or "dataset"
            folder = os.path.dirname(os.path.normpath(path))
            self.output.setText(os.path.join(folder, f"{base}-tfrecords", f"{base}.tfrecord"))
        self.update_preview()

    def options(self) -> ConvertOptions:
        """What the dialog says (raises ValueError for a bad split)."""
        split = parse_split(self.split.text()) if self.split.text().strip() else ()
        shards = self.shards.value()
        seed = self.shuffle.value()
        out = ExportOptions(
            self.output.text().strip(),
            Compression.parse(self.compression.currentText()),
            shards if shards > 1 else None,
            None,
            seed if seed >= 0 else None,
            split,
        )
        layout = self.layout_choice.currentText()
        reencode = None
        if self.reencode.isChecked():
            reencode = Reencode(self.quality.value(), self.max_side.value() or None)
        return ConvertOptions(out, layout, reencode=reencode)

    def update_preview(self) -> None:
        path = self.source.text().strip()
        self.listing = None
        is_file = os.path.isfile(path)
        self.file_column.setEnabled(is_file)
        self.label_column.setEnabled(is_file)
        self.allow_outside.setEnabled(is_file or not self.flat.isChecked())
        self.flat.setEnabled(not is_file)
        if not path:
            self.preview.setPlainText("Choose a folder of images or a CSV, VOC or COCO file.")
            self.convert_button.setEnabled(False)
            return
        try:
            listing = list_source(
                path,
                self.flat.isChecked(),
                self.file_column.text(),
                self.label_column.text(),
                allow_outside=self.allow_outside.isChecked(),
            )
            options = self.options()
            names = planned_names(options.output, len(listing.items)) if options.output.out else []
        except (ValueError, OSError) as exc:
            self.preview.setPlainText(f"Cannot use this: {exc}")
            self.convert_button.setEnabled(False)
            return
        self.listing = listing
        text = describe(listing, names, options.layout)
        if options.output.shuffle_seed is None and (unmixed := class_order(listing)):
            text = f"Warning: {unmixed}.\n{text}"
        self.preview.setPlainText(text)
        self.convert_button.setEnabled(bool(listing.items) and bool(options.output.out))

    # -- running -------------------------------------------------------------------
    def start(self) -> None:
        self.update_preview()
        if self.listing is None or self._task is not None:
            return
        try:
            options = self.options()
        except ValueError as exc:
            self.preview.setPlainText(f"Cannot use this: {exc}")
            return
        self.convert_button.setEnabled(False)
        self.progress.setValue(0)
        self.progress.show()
        task = self._task = ProcessTask(
            standalone_task, ConvertRequest(self.listing, options), parent=self
        )
        task.message.connect(self._on_message)
        task.ended.connect(self._on_ended)
        task.start()

    def _on_message(self, msg: object) -> None:
        match msg:
            case Progress(done, total):
                self.progress.setMaximum(max(total, 1))
                self.progress.setValue(done)
            case Done(report):
                self.summary = s = report.summary
                found = ", ".join(plural(n, k) for k, n in sorted(s.findings.items()))
                skipped = "".join(f"\n  skipped {x.path}: {x.reason}" for x in s.skipped[:20])
                self.preview.setPlainText(
                    f"{plural(s.records, 'image')} written to {plural(len(s.files), 'file')} "
                    f"in {s.seconds:.1f} s, {sources.skip_summary(s.skipped)}; checks: "
                    f"{found or 'no findings'}.{skipped}"
                )
            case Failed(_kind, message):
                self.preview.setPlainText(f"The conversion failed: {message}")

    def _on_ended(self) -> None:
        self._task = None
        self.progress.hide()
        self.convert_button.setEnabled(True)
        if self.summary is not None:
            self.converted.emit(list(self.summary.files))
            self.accept()

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self.preview.appendPlainText("Cancelled: nothing was written.")
            return
        self.reject()
