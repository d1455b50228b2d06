"""How records and views show in Jupyter (``_repr_html_``), with no widget library: a
record's picture with its boxes drawn and its features in a table; a view's first page
of rows with a thumbnail each. Pictures are inline PNG (``data:`` URLs); every text is
escaped."""

from __future__ import annotations

import html
from typing import Any, Protocol

import numpy as np

from ..core.decode import ImageError, annotated_thumbnail, box_caption
from ..core.io import STATUS_HELP
from ..core.report.page import png_url
from ..core.text import plural


class Record(Protocol):  # what is shown of a record (api.records.Record)
    @property
    def index(self) -> int: ...
    @property
    def file(self) -> str: ...
    @property
    def offset(self) -> int: ...
    @property
    def length(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def values(self) -> dict[str, Any]: ...
    @property
    def damaged(self) -> bool: ...
    def images(self) -> list[Any]: ...


class View(Protocol):  # what is shown of a view (api.dataset.DatasetView)
    @property
    def records(self) -> np.ndarray: ...
    @property
    def files(self) -> list[str]: ...
    def __len__(self) -> int: ...
    def record(self, index: int) -> Any: ...


PAGE = 20  # rows of a view shown
PICTURE = 384  # the side of a record's picture, in pixels
THUMB = 96
VALUES = 8  # values of a list shown before "…"

_STYLE = (
    "<style>.tfv td,.tfv th{text-align:left;padding:2px 8px;vertical-align:top;"
    "font-family:monospace;font-size:12px}.tfv .bad{color:#b42318}</style>"
)


def _picture(record: Record, size: int) -> str:
    try:
        found = record.images()
    except Exception:  # a payload that is no Example shows no picture
        return ""
    if not found:
        return ""
    try:
        pixels = annotated_thumbnail(found[0], size)
    except ImageError as exc:
        return f'<span class="bad">{html.escape(str(exc))}</span>'
    return f'<img src="{png_url(pixels)}" alt="record {record.index}">'


def value_text(values: Any) -> str:
    """A feature's values, short: bytes as text when they read as such, else sizes."""
    items = list(values)
    shown = []
    for v in items[:VALUES]:
        if isinstance(v, (bytes, bytearray, memoryview)):
            raw = bytes(v)
            try:
                text = raw.decode("utf-8")
                shown.append(
                    repr(text)
                    if text.isprintable() and len(text) <= 64
                    else f"<{len(raw):,} bytes>"
                )
            except UnicodeDecodeError:
                shown.append(f"<{len(raw):,} bytes>")
        elif isinstance(v, (float, np.floating)):
            shown.append(f"{float(v):.6g}")
        else:
            shown.append(str(v))
    more = f", … ({len(items):,})" if len(items) > VALUES else ""
    return "[" + ", ".join(shown) + more + "]"


def record_html(record: Record) -> str:
    """The record: where it is, its status, its picture and its features."""
    status = html.escape(record.status)
    head = (
        f"<b>record {record.index:,}</b> · {html.escape(record.file)} @{record.offset:,} · "
        f"{record.length:,} bytes · {html.escape(record.type)} · "
        + (status if record.status == "ok" else f'<span class="bad">{status}</span>')
    )
    rows = "".join(
        f"<tr><td>{html.escape(key)}</td><td>{html.escape(value_text(values))}</td></tr>"
        for key, values in sorted(record.values.items())
    )
    if record.damaged:  # said before anything of it is shown
        head += (
            f'<div class="bad">this record is damaged ({status}): '
            f"{html.escape(STATUS_HELP.get(record.status, ''))}</div>"
        )
    boxes = ""
    try:
        found = record.images()
    except Exception:
        found = []
    if found and found[0].boxes:
        names = ", ".join(box_caption(b.label, b.text) or "?" for b in found[0].boxes)
        boxes = f"<div>{len(found[0].boxes)} boxes: {html.escape(names)}</div>"
    return (
        f'{_STYLE}<div class="tfv"><div>{head}</div>{_picture(record, PICTURE)}{boxes}'
        f"<table><tr><th>feature</th><th>values</th></tr>{rows}</table></div>"
    )


def view_html(view: View) -> str:
    """The view's first :data:`PAGE` records: number, status, a thumbnail, and the
    first few features."""
    cells = []
    shown = min(len(view), PAGE)
    for index in view.records[:shown].tolist():
        record = view.record(int(index))
        features = sorted(record.values.items())[:4]
        said = "<br>".join(
            f"{html.escape(key)}: {html.escape(value_text(values))}" for key, values in features
        )
        cells.append(
            f"<tr><td>{record.index:,}</td><td>{html.escape(record.status)}</td>"
            f"<td>{_picture(record, THUMB)}</td><td>{said}</td></tr>"
        )
    more = f"<div>… {len(view) - shown:,} more</div>" if len(view) > shown else ""
    return (
        f'{_STYLE}<div class="tfv"><div><b>{plural(len(view), "record")}</b> in '
        f"{plural(len(view.files), 'file')}</div><table><tr><th>#</th><th>status</th><th>image</th>"
        f"<th>features</th></tr>{''.join(cells)}</table>{more}</div>"
    )
