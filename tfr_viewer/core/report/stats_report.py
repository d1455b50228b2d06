"""The HTML report of ``stats``: the dataset's counts, the classes and boxes, and a card
per feature with its figures and charts."""

from __future__ import annotations

from typing import Any

from ..analyze.key_kinds import kinds_warning
from ..text import plural
from . import charts
from .page import esc, page, table


def _figures(numeric: dict[str, Any]) -> str:
    keys = ("count", "min", "max", "mean", "std", "zeros")
    return table(
        keys,
        [
            [
                esc(
                    f"{numeric[k]:.6g}" if isinstance(numeric.get(k), float) else numeric.get(k, "")
                )
                for k in keys
            ]
        ],
    )


def _histogram(found: dict[str, Any] | None, title: str) -> str:
    hist = (found or {}).get("histogram")
    if not hist or not hist.get("counts"):
        return ""
    return (
        f'<img src="{charts.histogram(hist["edges"], hist["counts"], title)}" alt="{esc(title)}">'
    )


CHARTED = 100  # features whose card has charts; the others' cards are their figures


def feature_card(key: str, f: dict[str, Any], charted: bool = True) -> str:
    parts = [
        f"<h3>{esc(key)}</h3><div>{esc(f.get('kind', ''))}, in {f.get('present', 0):,} records "
        f"({100 * f.get('presence', 0):.1f}%)</div>"
    ]
    if warning := kinds_warning(key, f.get("kinds", {})):
        parts.append(f'<div class="warning">{esc(warning)}</div>')
    if f.get("numeric"):
        parts.append(_figures(f["numeric"]))
    if not charted:
        return '<div class="card">' + "".join(parts) + "</div>"
    if f.get("numeric"):
        parts.append(_histogram(f["numeric"], "values"))
    parts.append(_histogram(f.get("value_counts"), "values per record"))
    top = (f.get("bytes") or {}).get("top")
    if top:
        labels = [str(value) for value, _count in top[:12]]  # [value, count] pairs
        counts = [count for _value, count in top[:12]]
        parts.append(f'<img src="{charts.bars(labels, counts, "most common")}" alt="most common">')
    images = f.get("images") or {}
    for side in ("width", "height"):
        parts.append(_histogram(images.get(side), f"image {side} (px)"))
    return '<div class="card">' + "".join(parts) + "</div>"


def stats_html(stats: dict[str, Any], title: str = "Statistics") -> str:
    """The report of ``stats`` (as ``stats --json`` gives it)."""
    charts.require()
    records, files = stats.get("records", 0), stats.get("files", 0)
    body = [
        f"<p>{plural(records, 'record')} in {plural(files, 'file')}; "
        f"{stats.get('damaged', 0):,} damaged.</p>"
    ]
    for name, title_ in (
        ("classes", "Classes (per image)"),
        ("object_classes", "Classes (per box)"),
    ):
        found = stats.get(name) or {}
        classes = found.get("classes") or []
        if classes:
            labels = [f"{c['id']} {c['text'] or ''}".strip() for c in classes[:30]]
            counts = [c["count"] for c in classes[:30]]
            body.append(f"<h2>{title_}</h2>")
            chart = charts.bars(labels, counts, esc(found.get("key", "")))
            body.append(f'<img src="{chart}" alt="classes">')
    boxes = stats.get("boxes") or {}
    if boxes:
        body.append("<h2>Boxes</h2>")
        body.append(_histogram(boxes.get("per_image"), "boxes per image"))
        body.append(_histogram(boxes.get("area"), "box area (fraction of the image)"))
    features = stats.get("features", {})
    body.append("<h2>Features</h2>")
    if len(features) > CHARTED:  # a chart takes a quarter of a second to draw
        body.append(
            f"<p>Charts for the first {CHARTED} of {len(features):,} features; the others "
            "with their figures (stats --json has all of them).</p>"
        )
    body.append("<div class='cards'>")
    body += [feature_card(k, f, n < CHARTED) for n, (k, f) in enumerate(features.items())]
    body.append("</div>")
    return page(title, "".join(body))
