"""The export dialog: scope, output, compression, sharding, shuffle and split, with a
preview of the file names. The export runs in a child process; the window stays usable."""

from __future__ import annotations

import dataclasses
import os

import numpy as np
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...app.jobs import operation_payload, operation_task
from ...app.writing import ExportRecordsRequest, ExportReport
from ...core.io import Compression, Dataset
from ...core.task_messages import Done, Failed, Progress
from ...core.text import plural
from ...core.write import (
    ExportOptions,
    clean_stale_temporaries,
    existing_outputs,
    parse_split,
    plan,
)
from .. import file_dialogs
from ..process_task import ProcessTask

SCOPES = ("all", "selected", "filtered", "edited")


def default_output(dataset: Dataset) -> str:
    """Where an export goes unless the user says: beside the dataset's folder, never in
    it (a later Open Folder would read the export as one more shard)."""
    from ...core.io.remote import is_url

    first = dataset.files[0].path if dataset.files else ""
    if not first or is_url(first):
        return os.path.join(os.path.expanduser("~"), "export.tfrecord")
    folder = os.path.dirname(os.path.abspath(first))
    parent = os.path.dirname(folder)
    return os.path.join(parent, f"{os.path.basename(folder) or 'dataset'}-export.tfrecord")


class ExportDialog(QDialog):
    """``scopes`` maps each scope to its global record numbers (deleted ones removed);
    ``scope`` is the one chosen at first. ``exported(records)`` fires when an export of
    ``records`` succeeded."""

    exported = Signal(object)

    def __init__(
        self,
        dataset: Dataset,
        scopes: dict[str, np.ndarray],
        payloads: dict[int, bytes],
        parent: QWidget | None = None,
        scope: str = "all",
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export records")
        self.dataset, self.scopes, self.payloads = dataset, scopes, payloads
        self.task: ProcessTask | None = None
        self.report: ExportReport | None = None
        self._records = np.zeros(0, dtype=np.int64)
        form = QFormLayout()
        self.scope_group = QButtonGroup(self)
        scope_row = QHBoxLayout()
        for i, name in enumerate(SCOPES):
            button = QRadioButton(f"{name} ({len(scopes.get(name, [])):,})", self)
            button.setEnabled(len(scopes.get(name, [])) > 0)
            self.scope_group.addButton(button, i)
            scope_row.addWidget(button)
        first = self.scope_group.button(SCOPES.index(scope) if scope in SCOPES else 0)
        (first if first.isEnabled() else self.scope_group.button(0)).setChecked(True)
        form.addRow("Records", scope_row)
        self.output = QLineEdit(default_output(dataset), self)
        browse = QPushButton("Browse…", self)
        browse.clicked.connect(self._browse)
        out_row = QHBoxLayout()
        out_row.addWidget(self.output, 1)
        out_row.addWidget(browse)
        form.addRow("Output", out_row)
        self.compression = QComboBox(self)
        self.compression.addItems([c.value for c in Compression])
        form.addRow("Compression", self.compression)
        self.shard_mode = QComboBox(self)
        self.shard_mode.addItems(["one file", "N shards", "at most M MB a shard"])
        self.shards = QSpinBox(self)
        self.shards.setRange(1, 100_000)
        self.shards.setValue(4)
        self.max_mb = QDoubleSpinBox(self)
        self.max_mb.setRange(0.001, 100_000)
        self.max_mb.setValue(150)
        shard_row = QHBoxLayout()
        for w in (self.shard_mode, self.shards, self.max_mb):
            shard_row.addWidget(w)
        form.addRow("Sharding", shard_row)
        self.shuffle = QCheckBox("Shuffle with seed", self)
        self.seed = QSpinBox(self)
        self.seed.setRange(0, 2**31 - 1)
        shuffle_row = QHBoxLayout()
        shuffle_row.addWidget(self.shuffle)
        shuffle_row.addWidget(self.seed)
        form.addRow("Order", shuffle_row)
        self.split = QLineEdit(self)
        self.split.setPlaceholderText("e.g. train=0.8,val=0.2 (empty: no split)")
        form.addRow("Split", self.split)
        self.preview = QPlainTextEdit(self)
        self.preview.setReadOnly(True)
        self.preview.setMaximumHeight(120)
        self.progress = QProgressBar(self)
        self.progress.hide()
        self.status = QLabel(self)
        self.buttons = QDialogButtonBox(self)
        self.run_button = self.buttons.addButton("Export", QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.run_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel("Files that will be written:", self))
        layout.addWidget(self.preview)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        for signal in (
            self.output.textChanged,
            self.compression.currentIndexChanged,
            self.shard_mode.currentIndexChanged,
            self.shards.valueChanged,
            self.max_mb.valueChanged,
            self.shuffle.toggled,
            self.seed.valueChanged,
            self.split.textChanged,
            self.scope_group.idClicked,
        ):
            signal.connect(self._settings_changed)
        self.update_preview()

    def _settings_changed(self) -> None:
        """A setting changed: the last run's result line is about other settings."""
        if self.task is None:
            self.status.clear()
        self.update_preview()

    def _browse(self) -> None:
        path = file_dialogs.save_file(self, "Export to", self.output.text())
        if path:
            self.output.setText(path)

    def records(self) -> np.ndarray:
        return self.scopes[SCOPES[self.scope_group.checkedId()]]

    def options(self) -> ExportOptions:
        """The chosen options; raises ValueError with a readable message."""
        mode = self.shard_mode.currentIndex()
        split = parse_split(self.split.text()) if self.split.text().strip() else ()
        return ExportOptions(
            self.output.text().strip(),
            Compression(self.compression.currentText()),
            self.shards.value() if mode == 1 else None,
            int(self.max_mb.value() * 1e6) if mode == 2 else None,
            self.seed.value() if self.shuffle.isChecked() else None,
            split,
        )

    def update_preview(self) -> None:
        mode = self.shard_mode.currentIndex()
        self.shards.setEnabled(mode == 1)
        self.max_mb.setEnabled(mode == 2)
        self.seed.setEnabled(self.shuffle.isChecked())
        try:
            files = plan(self.dataset, self.records(), self.options())
        except ValueError as exc:
            self.preview.setPlainText(str(exc))
            self.run_button.setEnabled(False)
            return
        self.run_button.setEnabled(bool(self.output.text().strip()) and self.task is None)
        lines = [f"{path}  ({plural(len(part), 'record')})" for path, part in files[:200]]
        if len(files) > 200:
            lines.append(f"… {len(files) - 200} more files")
        self.preview.setPlainText("\n".join(lines))

    def start(self) -> None:
        try:
            options = self.options()
            names = [name for name, _ in plan(self.dataset, self.records(), options)]
        except ValueError as exc:
            self.status.setText(str(exc))
            return
        existing = existing_outputs(names)
        if existing:
            shown = "\n".join(existing[:10]) + ("\n…" if len(existing) > 10 else "")
            answer = QMessageBox.question(
                self,
                "Replace files?",
                f"{len(existing)} of the files exist already:\n{shown}\n\nReplace them?",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No,
            )
            if answer != QMessageBox.StandardButton.Yes:
                self.status.setText("nothing was written; choose another name")
                return
            options = dataclasses.replace(options, overwrite=True)
        records = self.records()
        self._records = records
        payloads = {int(r): self.payloads[int(r)] for r in records if int(r) in self.payloads}
        ds = self.dataset
        request = ExportRecordsRequest(records, options, payloads)
        self.task = ProcessTask(operation_task, operation_payload(ds, request), parent=self)
        self.task.message.connect(self._on_message)
        self.task.ended.connect(self._on_ended)
        self.run_button.setEnabled(False)
        self.progress.setRange(0, max(len(records), 1))
        self.progress.show()
        self.status.setText("exporting…")
        self.task.start()

    def _on_message(self, msg: object) -> None:
        match msg:
            case Progress(done):
                self.progress.setValue(done)
            case Done(report):
                self.report = report
                s = report.summary
                self.status.setText(
                    f"{plural(s.records, 'record')}, {s.bytes:,} bytes in "
                    f"{plural(len(s.files), 'file')}, {s.skipped_damaged:,} damaged skipped, "
                    f"{s.seconds:.1f} s"
                )
                self.exported.emit(self._records)
                self.progress.setValue(self.progress.maximum())
            case Failed(_kind, message):
                self.status.setText(f"export failed: {message}")

    def _on_ended(self) -> None:
        cancelled = self.task is not None and self.task.cancelled
        self.task = None
        if cancelled:
            folder = os.path.dirname(os.path.abspath(self.output.text()))
            if os.path.isdir(folder):
                clean_stale_temporaries(folder)
            self.status.setText("export cancelled; nothing was written")
        self.cancel_button.setText("Close")
        self.update_preview()

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
            return
        self.reject() if self.report is None else self.accept()
