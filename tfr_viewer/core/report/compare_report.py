"""The HTML report of ``compare``: the verdict, the drift of every feature against the
threshold, the keys in one dataset only, the classes side by side and the images found
in both."""

from __future__ import annotations

from typing import Any

from . import charts
from .page import esc, page, table


def compare_html(report: dict[str, Any], title: str = "Comparison") -> str:
    """The report of ``compare`` (as ``compare --json`` gives it)."""
    charts.require()
    verdict = (
        "FAILED: " + "; ".join(report.get("reasons", [])) if report.get("failed") else "passed"
    )
    body = [
        f"<p>A: {report['a']['records']:,} records; B: {report['b']['records']:,} records; "
        f"threshold {report['threshold']:g}. <b>{esc(verdict)}</b></p><h2>Drift per feature</h2>"
    ]
    rows = []
    exceeded = set(report.get("exceeded", []))
    for key, f in report.get("features", {}).items():
        drift = f.get("drift")
        cell = esc(f"{drift:.4f}" if isinstance(drift, float) else "-")
        if key in exceeded:
            cell = f'<span class="error">{cell} exceeds</span>'
        rows.append(
            [
                f'<span class="mono">{esc(key)}</span>',
                esc(f.get("type", "")),
                cell,
                esc(f"{f.get('presence_a', 0):.3f} / {f.get('presence_b', 0):.3f}"),
            ]
        )
    body.append(table(["feature", "type", "drift", "presence A / B"], rows))
    for side in ("only_in_a", "only_in_b"):
        keys = report.get(side) or []
        if keys:
            body.append(f"<h2>Keys {side.replace('_', ' ')}</h2><p>{esc(', '.join(keys))}</p>")
    classes = report.get("classes") or {}
    rows_ = classes.get("rows") or []
    if rows_:
        labels = [f"{c.get('id')} {c.get('text') or ''}".strip() for c in rows_[:30]]
        a = [c.get("a", 0) for c in rows_[:30]]
        b = [c.get("b", 0) for c in rows_[:30]]
        level = "per box" if classes.get("level") == "object_classes" else "per image"
        body.append(f"<h2>Classes ({level}): A and B</h2>")
        body.append(f'<img src="{charts.bars(labels, a, "count", b)}" alt="classes">')
    leaks = report.get("leaks") or {}

    def place(p: dict[str, Any]) -> str:
        name = str(p.get("file", "")).rsplit("/", 1)[-1]
        return esc(
            f"record {p.get('record')} ({name} @{p.get('offset', 0):,}) {p.get('feature', '')}"
        )

    for kind in ("exact", "near"):
        found = leaks.get(kind) or []
        if found:
            body.append(f"<h2>Images in both ({kind}): {len(found):,}</h2>")
            body.append(
                table(["in A", "in B"], [[place(x["a"]), place(x["b"])] for x in found[:200]])
            )
    return page(title, "".join(body))
