"""A dataset's label map in the window: Analyze › Open Label Map… reads a
``label_map.pbtxt`` (the Object Detection API's ``item { id name }``), remembered for the
dataset (by the path of its first file); one found beside the data (``*label_map*.pbtxt``
in the first file's folder) is read when nothing was chosen. Its names are the classes
offered when a box's class is changed, and name the ids on the boxes."""

from __future__ import annotations

import glob
import os
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer

from ..core.analyze.label_map import LabelMapError, read_label_map
from . import file_dialogs
from .actions import Action, Entry
from .settings_values import read_text_map

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings

    from ..core.io import Dataset
    from .host import PanelHost
    from .viewers.preview import PreviewPane

SETTING = "label-maps"  # {first file of a dataset: its label map}


def found_beside(dataset: Dataset) -> str | None:
    """A label map in the folder of the dataset's first (local) file, if there is one."""
    if not dataset.files or "://" in dataset.files[0].path:
        return None
    folder = os.path.dirname(os.path.abspath(dataset.files[0].path))
    found = sorted(glob.glob(os.path.join(glob.escape(folder), "*label_map*.pbtxt")))
    return found[0] if found else None


class LabelMaps:
    """Opens, remembers and applies the open dataset's label map."""

    def __init__(self, w: PanelHost, preview: PreviewPane, settings: QSettings) -> None:
        self.w, self.preview, self.settings = w, preview, settings
        self.path: str | None = None  # the label map in use
        self.names: dict[int, str] = {}
        w.session.opened.connect(self._opened)
        w.session.closed.connect(self._closed)

    def actions(self) -> list[Entry]:
        opened = lambda: self.w.session.is_open  # noqa: E731
        return [
            Action(
                "analyze.label_map",
                "Open &Label Map…",
                "analyze",
                self.open_dialog,
                None,
                2,
                opened,
                order=2,
            )
        ]

    def open_dialog(self) -> None:
        path = file_dialogs.open_file(
            self.w.as_widget(), "Open label map", "", "Label maps (*.pbtxt);;All files (*)"
        )
        if path:
            self.use(path, remember=True)

    def use(self, path: str, remember: bool = False) -> bool:
        """Read the label map at ``path`` and name the classes by it; False (said) when
        it cannot be read."""
        try:
            names = read_label_map(path)
        except LabelMapError as exc:
            self.w.show_error("Cannot read the label map", str(exc))
            return False
        self.path, self.names = path, names
        images = self.preview.images
        images.class_names = {**images.class_names, **names}
        images.refresh()
        ds = self.w.session.dataset
        if remember and ds is not None and ds.files:
            kept = self._kept()
            kept[os.path.abspath(ds.files[0].path)] = path
            self.settings.setValue(SETTING, kept)
        self.w.statusBar().showMessage(f"label map {path}: {len(names)} classes", 10000)
        return True

    def _opened(self, dataset: Dataset) -> None:
        # after the other panes have taken the new dataset (they reset the class names)
        QTimer.singleShot(0, lambda: self._reopen(dataset))

    def _reopen(self, dataset: Dataset) -> None:
        if self.w.session.dataset is not dataset:
            return
        kept = self._kept()
        first = os.path.abspath(dataset.files[0].path) if dataset.files else ""
        path = kept.get(first) or found_beside(dataset)
        if path and os.path.isfile(path):
            self.use(path)

    def _kept(self) -> dict[str, str]:
        """The label maps remembered, by the first file of their dataset."""
        return read_text_map(self.settings, SETTING)

    def _closed(self) -> None:
        self.path, self.names = None, {}
