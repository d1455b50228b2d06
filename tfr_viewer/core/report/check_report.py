"""The HTML report of ``check``: the counts, then the findings grouped by kind (most
severe first) with what to do, each with its file, record and byte offset, and a
thumbnail of the record's picture with its boxes drawn (the finding's box outlined)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..analyze.findings import KINDS, SEVERITIES
from ..text import plural
from .page import esc, page, png_url, table

ROWS = 200  # findings of a kind listed one by one
THUMBS = 24  # findings of a kind shown with a picture
SIZE = 128


def thumbnail(read: Callable[[int], bytes], record: int, box: int | None) -> str:
    """An ``<img>`` of the record's first picture with its boxes (``box`` outlined in
    white and black), or an empty string when it has none."""
    from PIL import Image, ImageDraw

    from ..decode import ImageError, annotated_thumbnail, decode, payload_images
    from ..decode.thumbs import draw_box

    try:
        found = payload_images(decode(read(record)).payload)
        if not found:
            return ""
        ann = found[0]
        rgba = annotated_thumbnail(ann, SIZE)
    except (ImageError, OSError, IndexError, ValueError):
        return ""
    if box is not None and 0 <= box < len(ann.boxes):
        h, w = rgba.shape[:2]
        full = ann.raw_shape[1::-1] if ann.raw_shape else None
        b = ann.boxes[box]
        sx, sy = (w, h) if ann.normalized or full is None else (w / full[0], h / full[1])
        img = Image.fromarray(rgba)
        draw = ImageDraw.Draw(img)
        corners = (b.xmin * sx, b.ymin * sy, b.xmax * sx, b.ymax * sy)
        draw_box(draw, corners, "white", 4)
        draw_box(draw, corners, "black", 1)
        rgba = np.asarray(img).copy()
    return f'<img src="{png_url(rgba)}" alt="record {record}">'


def check_html(
    findings: Sequence[dict[str, Any]],
    meta: dict[str, Any],
    read: Callable[[int], bytes] | None,
    title: str = "Data-quality findings",
    files: Sequence[str] = (),
) -> str:
    """The report of ``findings`` (as ``check --json`` gives them); ``meta`` has
    ``records`` and ``files``; ``read(record)`` gives a record's payload for its
    thumbnail (None: no pictures), for the findings in ``files`` (the dataset ``read``
    reads: findings of other files, from a saved report, get none)."""
    readable = {os.path.abspath(p) for p in files}
    counts = {s: sum(f["severity"] == s for f in findings) for s in SEVERITIES}
    said = ", ".join(f'<span class="{s}">{n:,} {s}</span>' for s, n in counts.items())
    body = [
        f"<p>{plural(meta.get('records', 0), 'record')} in {plural(meta.get('files', 0), 'file')}: "
        f"{said or 'no findings'}.</p>"
    ]
    groups: dict[str, list[dict[str, Any]]] = {}
    for f in findings:
        groups.setdefault(f["kind"], []).append(f)
    order = sorted(groups, key=lambda k: (SEVERITIES.index(groups[k][0]["severity"]), k))
    for kind in order:
        group = groups[kind]
        severity = group[0]["severity"]
        body.append(
            f'<h2 id="{esc(kind)}"><span class="{severity}">{severity}</span> {esc(kind)}: '
            f"{len(group):,} finding{'s' if len(group) != 1 else ''}</h2>"
            f'<p class="hint">What to do: {esc(KINDS.get(kind, ("", ""))[1])}</p>'
        )
        rows = []
        for n, f in enumerate(group[:ROWS]):
            picture = ""
            mine = f.get("file") is not None and os.path.abspath(f["file"]) in readable
            if read is not None and mine and f.get("record") is not None and n < THUMBS:
                picture = thumbnail(read, int(f["record"]), f.get("box"))
            where = os.path.basename(f["file"]) if f.get("file") else ""
            rows.append(
                [
                    esc(f["record"] if f["record"] is not None else "dataset"),
                    f'<span class="mono">{esc(where)}</span>',
                    esc(f"{f['offset']:,}" if f.get("offset") is not None else ""),
                    f'<span class="mono">{esc(f.get("feature") or "")}</span>',
                    esc(f["box"] if f.get("box") is not None else ""),
                    esc(f["message"]),
                    picture,
                ]
            )
        body.append(table(["record", "file", "offset", "feature", "box", "message", ""], rows))
        if len(group) > ROWS:
            body.append(f"<p>… and {len(group) - ROWS:,} more (check --json lists them all)</p>")
    return page(title, "".join(body))
