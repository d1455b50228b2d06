"""File › Message Types…: the records of the open dataset read as a project's own
message type, from a ``.proto`` file (its imports found beside it and among protobuf's
well-known types; compiled by grpcio-tools' protoc) or a descriptor set
(``protoc --include_imports --descriptor_set_out``), the type chosen from those it
defines, or the one that reads each file's records best. The choice is remembered for
the dataset (by the path of its first file) and read again when it opens."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QInputDialog

from ..core.user_error import UserError
from . import file_dialogs
from .actions import Action, Entry
from .settings_values import read_text_map

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings

    from ..core.decode.message_types import MessageTypes
    from ..core.io import Dataset
    from .host import PanelHost

SETTING = "message-types"  # {first file of a dataset: "FILE\tMESSAGE" (MESSAGE may be "")}
BEST = "The type that reads the records best"
FILTERS = ".proto files and descriptor sets (*.proto *.pb *.desc *.protoset *.binpb);;All files (*)"


class MessageTypeChoice:
    """Chooses, remembers and applies the message type the open dataset's records are
    read as; ``shown(record)`` shows a record again (the one selected, read anew)."""

    def __init__(self, w: PanelHost, settings: QSettings, shown: Callable[[int], None]) -> None:
        self.w, self.settings, self.shown = w, settings, shown
        self.source: str | None = None  # the .proto or descriptor set in use
        self.message: str | None = None  # the type named, None: the best per file
        w.session.opened.connect(self._opened)
        w.session.closed.connect(self._closed)

    def actions(self) -> list[Entry]:
        return [
            Action(
                "file.message_types",
                "Message &Types…",
                "file",
                self.choose,
                "Ctrl+Shift+T",
                0,
                lambda: self.w.session.is_open,
                order=6,
            )
        ]

    def choose(self) -> None:
        """Ask for a ``.proto`` or a descriptor set, then for one of its types."""
        parent = self.w.as_widget()
        path = file_dialogs.open_file(
            parent, "Message types: a .proto file or a descriptor set", self.source or "", FILTERS
        )
        if not path:
            return
        types = self._load(path)
        if types is None:
            return
        names = [BEST, *types.names()]
        current = names.index(self.message) if self.message in names else 0
        text, ok = QInputDialog.getItem(
            parent, "Message type", f"Read the records as (from {os.path.basename(path)}):",
            names, current, False,
        )  # fmt: skip
        if ok and text in names:
            self.use(path, None if text == BEST else text, remember=True)

    def use(self, path: str, message: str | None, remember: bool = False) -> bool:
        """Read the open dataset's records as ``message`` of ``path`` (None: the type
        that reads each file best); False (said) when that cannot be."""
        ds = self.w.session.dataset
        types = self._load(path)
        if ds is None or types is None:
            return False
        try:
            kind: object = types.get(message) if message else types
        except UserError as exc:
            self.w.show_error("Cannot read the records as that type", str(exc))
            return False
        ds.message_type = kind
        for f in ds.files:
            f.payload_decoder = None  # each file's type decided again
        self.source, self.message = path, message
        if remember and ds.files:
            kept = read_text_map(self.settings, SETTING)
            kept[os.path.abspath(ds.files[0].path)] = f"{path}\t{message or ''}"
            self.settings.setValue(SETTING, kept)
        current = self.w.session.current
        if current is not None:
            self.shown(current)
        said = message or "the type that reads each file's records best"
        self.w.statusBar().showMessage(f"records read as {said} of {path}", 10000)
        return True

    def _load(self, path: str) -> MessageTypes | None:
        from ..core.decode.message_types import load

        proto = path.endswith(".proto") or os.path.isdir(path)
        try:
            return load(path, None) if proto else load(None, path)
        except UserError as exc:
            self.w.show_error("Cannot read the message types", str(exc))
            return None

    def _opened(self, dataset: Dataset) -> None:
        QTimer.singleShot(0, lambda: self._reopen(dataset))

    def _reopen(self, dataset: Dataset) -> None:
        """The type remembered for the dataset, read again."""
        if self.w.session.dataset is not dataset or not dataset.files:
            return
        kept = read_text_map(self.settings, SETTING).get(os.path.abspath(dataset.files[0].path))
        if kept:
            path, _, message = kept.partition("\t")
            if os.path.exists(path):
                self.use(path, message or None)

    def _closed(self) -> None:
        self.source, self.message = None, None
