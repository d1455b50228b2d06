"""The window's export actions: Export…, Export Rows as JSON Lines, CSV or images, and
Save Intact Records As…; long work runs in a child process."""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import QObject

from ..app.jobs import operation_payload, operation_task
from ..app.writing import FormatExportRequest
from ..core.task_messages import Done, Failed, Progress
from ..core.text import plural
from ..core.write import ExportError, ExportOptions
from ..core.write.export import export
from ..core.write.writers import WRITERS
from . import file_dialogs
from .actions import OPEN, Action, Entry, On, Submenu
from .dialogs.export_dialog import ExportDialog
from .host import EditState, PanelHost
from .process_task import ProcessTask

# the formats that write the rows with their edits, besides TFRecord (Export…)
FORMATS = tuple((w.name, w.title) for w in WRITERS if w.edits and w.name != "tfrecord")


class ExportActions(QObject):
    """Export…, Export Rows as › and Save Intact Records As… of the File menu (the
    edit actions' ``exports``, made the first time one of :data:`ACTIONS` runs)."""

    def __init__(self, window: PanelHost, edits: EditState) -> None:
        super().__init__(window.as_widget())
        self.window = window
        self.edits = edits
        self.last_task: ProcessTask | None = None

    def _rows(self) -> tuple[np.ndarray, np.ndarray]:
        """Every record kept (not deleted), and those of them the table shows."""
        w = self.window
        ds = w.session.dataset
        assert ds is not None
        keep = self.window.session.workspace.edits.kept
        all_rows = keep(list(range(len(ds))))
        filtered = (
            w.session.model.shown_records().tolist() if w.session.model is not None else all_rows
        )
        return np.array(all_rows, dtype=np.int64), np.array(keep(filtered), dtype=np.int64)

    def scopes(self) -> dict[str, np.ndarray]:
        """The export dialog's choices: every record, the selected, the filtered and the
        edited ones, deleted records left out."""
        keep = self.window.session.workspace.edits.kept
        all_rows, filtered = self._rows()
        return {
            "all": all_rows,
            "selected": np.array(keep(self.edits.selected_records()), dtype=np.int64),
            "filtered": filtered,
            "edited": np.array(
                keep(self.window.session.workspace.edits.edited_records()), dtype=np.int64
            ),
        }

    def export_dialog(self) -> ExportDialog | None:
        """File › Export… (Ctrl+E): the rows a filter shows are chosen at first, when a
        filter hides some."""
        w = self.window
        if w.session.dataset is None:
            return None
        all_rows, filtered = self._rows()
        scope = "filtered" if 0 < len(filtered) < len(all_rows) else "all"
        dialog = ExportDialog(
            w.session.dataset,
            self.scopes(),
            self.window.session.workspace.edits.payloads,
            w.as_widget(),
            scope,
        )
        dialog.exported.connect(self.edits.exported)
        dialog.open()
        self.last_dialog = dialog
        return dialog

    def export_as(
        self, fmt: str, out: str | None = None, records: Sequence[int] | None = None
    ) -> ProcessTask | None:
        """The current (filtered) rows, or ``records``, edits applied and deleted
        records left out, as JSON Lines, CSV, images or a TFDS folder; runs in a child
        process and reports in the status bar."""
        w = self.window
        if w.session.dataset is None:
            return None
        if out is None:
            if fmt == "images":
                out = file_dialogs.save_file(w.as_widget(), "New folder for the images")
            elif fmt == "tfds":
                out = file_dialogs.save_file(
                    w.as_widget(), "New folder for the TFDS dataset (NAME/VERSION)"
                )
            else:
                ext = next(x.extension for x in WRITERS if x.name == fmt)
                out = file_dialogs.save_file(
                    w.as_widget(), f"Export as {fmt}", filters=f"{fmt} (*{ext})"
                )
            if not out:
                return None
        ds = w.session.dataset
        chosen = (
            self._rows()[1]
            if records is None
            else np.array(w.session.workspace.edits.kept(list(records)), dtype=np.int64)
        )
        records = ds.undamaged(chosen).tolist()
        wanted = set(records)
        payloads = {
            r: p for r, p in self.window.session.workspace.edits.payloads.items() if r in wanted
        }
        request = FormatExportRequest(records, fmt, out, payloads)
        task = ProcessTask(operation_task, operation_payload(ds, request), parent=self)

        def report(msg: object) -> None:
            match msg:
                case Progress(done, total):
                    w.statusBar().showMessage(f"exporting {fmt}: {done:,} of {total:,}")
                case Done(written):
                    w.statusBar().showMessage(f"wrote {written:,} to {out}", 20000)
                case Failed(_kind, message):
                    w.show_error(f"Cannot export {fmt}", message)

        task.message.connect(report)
        task.start()
        self.last_task = task
        return task

    def save_intact(self, path: str | None = None) -> bool:
        """Write every intact record to a new file; report what was lost."""
        w = self.window
        ds = w.session.dataset
        if ds is None:
            return False
        if path is None:
            path = file_dialogs.save_file(
                w.as_widget(), "Save intact records as", os.path.dirname(ds.files[0].path)
            )
            if not path:
                return False
        intact = ds.intact()
        try:  # the file dialog asked before replacing a file
            summary = export(ds, intact, ExportOptions(path, overwrite=True))
        except (ExportError, OSError) as exc:
            w.show_error("Cannot save the intact records", str(exc))
            return False
        lost = len(ds.problems())
        w.statusBar().showMessage(
            f"saved {plural(summary.records, 'intact record')} to {path}; "
            f"{plural(lost, 'problem')} left out",
            20000,
        )
        return True


_HERE = "edit_actions.exports"  # where the window keeps this group
# File › Export…, Export Rows as › (one per format), Save Intact Records As…
ACTIONS: tuple[Entry, ...] = (
    Action("file.export", "&Export…", "file", On(f"{_HERE}.export_dialog"), "Ctrl+E", 2, OPEN),
    Submenu("file/rows", "Export &Rows as", 2, "The rows shown (filtered), edits applied"),
    *(
        Action(
            f"file.rows.{fmt}", text, "file/rows", On(f"{_HERE}.export_as", (fmt,)), None, 0, OPEN
        )
        for fmt, text in FORMATS
    ),
    Action(
        "file.save_intact",
        "Save &Intact Records As…",
        "file",
        On(f"{_HERE}.save_intact"),
        None,
        2,
        OPEN,
    ),
)
