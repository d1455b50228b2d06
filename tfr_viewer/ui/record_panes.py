"""What the window shows of the selection: a record's tree, its previews and its line
in the status bar, or a damaged region's facts and bytes, or nothing. A record is read
with its file's payload type (off the window's thread for a remote file) and decoded
when it arrives, if it is still the one chosen."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..core.decode.file_payloads import file_decoder
from ..core.decode.payloads import decode
from ..core.io import Problem, SourceError, damage_text
from .models.feature_tree import region_nodes
from .tree_state import TreeState

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from .feature_tree_view import FeatureTreeView
    from .host import OffThread, PanelHost, RecordReads
    from .viewers.preview import PreviewPane

REGION_PREVIEW = 1 << 20  # bytes of a damaged region shown in the hex view


class RecordPanes:
    """Fills the tree, the previews and the status bar for what is selected."""

    def __init__(
        self,
        w: PanelHost,
        tree: FeatureTreeView,
        preview: PreviewPane,
        reads: RecordReads,
        remote: OffThread,
        shown: SignalInstance,
    ) -> None:
        """``reads``: a record's payload as edited; ``remote``: reads off the window's
        thread; ``shown``: emitted with a record once its panes show it."""
        self.w, self.session = w, w.session
        self.tree, self.tree_model, self.preview = tree, tree.tree_model, preview
        self.reads, self.remote, self.shown = reads, remote, shown
        self.described = ""  # the status bar's text about the record shown
        self.tree_record: int | None = None  # the record the feature tree shows

    def clear(self) -> None:
        """Nothing selected: the tree, the previews and the status bar show nothing of a
        record."""
        w = self.w
        if self.session.current is not None or self.session.current_region is not None:
            self.session.select(None)
        if self.described and w.statusBar().currentMessage() == self.described:
            w.statusBar().clearMessage()
        self.described = ""
        self.tree_model.set_decoded(None)
        self.tree_record = None
        self.preview.show_record(None, b"")

    def show_region(self, region: Problem) -> None:
        """A damaged region: what it is in the tree, its bytes in the hex view."""
        w = self.w
        ds = self.session.dataset
        if ds is None:
            return
        self.session.select(None, region)
        self.tree_record = None
        number = next(i for i, f in enumerate(ds.files) if f.path == region.file)
        try:
            size = region.size or REGION_PREVIEW
            data = ds.files[number].open().read_at(region.offset, min(size, REGION_PREVIEW))
        except (SourceError, OSError) as exc:
            data = b""
            w.statusBar().showMessage(f"cannot read the region: {exc}", 15000)
        self.tree_model.set_nodes(region_nodes(region))
        self.tree.resizeColumnToContents(0)
        self.preview.show_record(None, data)
        w.statusBar().showMessage(region.without_hint(), 30000)

    def show_record(self, record: int) -> None:
        dataset = self.session.dataset
        if dataset is None:
            return
        self.session.select(record)
        # the payload, and its file's type (decided on records of the file: read with it)
        read = lambda: (  # noqa: E731
            self.reads.payload(record),
            file_decoder(dataset, dataset.locate(record)[0]),
        )
        if self.remote.off_thread(read, lambda got, exc: self._show_payload(record, got, exc)):
            return  # a remote record: shown when it arrives
        got: tuple[bytes, str | None]
        try:
            got, error = read(), None
        except (SourceError, OSError, IndexError) as exc:
            got, error = (b"", None), exc
        self._show_payload(record, got, error)

    def _show_payload(
        self, record: int, got: tuple[bytes, str | None] | None, error: BaseException | None
    ) -> None:
        """Show a record read as ``got``: its payload and its file's payload type."""
        w = self.w
        if self.session.dataset is None or self.session.current != record:
            return  # another record was chosen while this one was read
        raw, within = got if got is not None else (b"", None)
        try:
            if error is not None:
                raise error
            decoded = decode(raw, within=within)
        except (SourceError, OSError, IndexError) as exc:
            self.tree_model.set_decoded(None)
            self.preview.show_record(None, b"")
            w.statusBar().showMessage(f"record {record}: {exc}", 15000)
            self.shown.emit(record)
            return
        # the same record again (an edit, an undo): its open nodes and selection stay
        kept = TreeState.of(self.tree) if record == self.tree_record else None
        ref = self.session.dataset.ref(record)
        damage = damage_text(ref.status.kind) if ref.status.damaged else None
        self.tree_model.set_decoded(decoded, damage)
        self.tree_record = record
        if kept is None:
            self.tree.open_first_levels()
        else:
            kept.restore(self.tree)
        self.tree.resizeColumnToContents(0)
        self.preview.images.keep_selection = kept is not None  # its selected box too
        self.preview.show_record(decoded, raw, damage)
        self.preview.images.keep_selection = False
        status = "deleted" if self.reads.is_deleted(record) else ref.status.kind
        self.described = (
            f"record {record}: {os.path.basename(ref.file)} "
            f"{self.session.dataset.at_byte(ref.file_number, ref.offset)}, "
            f"{ref.length:,} bytes, {decoded.payload.type}, {status}"
        )
        w.statusBar().showMessage(self.described)
        self.shown.emit(record)

    def filter_said(self, text: str) -> None:
        """A filter's warning or error, for a while; nothing (the filter was cleared):
        what the status bar says of the record shown, again."""
        if text:
            self.w.statusBar().showMessage(text, 15000)
        else:
            self.w.statusBar().showMessage(self.described)
