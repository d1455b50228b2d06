"""The Statistics panel: one card per feature with its figures and a chart (pyqtgraph);
clicking a bar filters the table to the records behind it.

Charts: the values of a categorical feature (text, or integers with few values); the
histogram of a numeric one; the widths and heights of images (from their headers); else
how many values each record holds. A click turns the bar into a filter expression
(:func:`bar_filter`) that the filter bar runs.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ...core.text import float_text, number_text, plural, value_or_float32_text
from .task_strip import TaskStrip


def key_ref(key: str) -> str:
    """How the filter language names feature ``key``."""
    return key if key.isidentifier() else f"f[{json.dumps(key)}]"


def _literal(value: Any) -> str:
    return json.dumps(value) if isinstance(value, str) else str(value)


def _range(ref: str, edges: list[float], i: int) -> str:
    lo, hi = float_text(edges[i]), float_text(edges[i + 1])
    last = i == len(edges) - 2
    return f"{lo} <= {ref} <= {hi}" if last else f"{lo} <= {ref} < {hi}"


def chart_of(key: str, f: dict[str, Any]) -> list[dict[str, Any]]:
    """The charts of one feature's card: ``{title, labels | edges, counts, filters}``
    where ``filters[i]`` is the expression that selects the records behind bar ``i``."""
    ref = key_ref(key)
    charts = []
    numeric = f.get("numeric")
    top = f.get("bytes", {}).get("top") or []
    if "images" in f:
        for side in ("width", "height"):
            figures = f["images"][side]
            hist = figures["histogram"]
            if figures["count"] and figures["min"] == figures["max"]:
                size = int(figures["min"])
                charts.append(
                    {
                        "title": f"image {side} (px)",
                        "labels": [str(size)],
                        "counts": [figures["count"]],
                        "filters": [f"{side}({ref}) == {size}"],
                    }
                )
            elif hist["counts"]:
                charts.append(
                    {
                        "title": f"image {side} (px)",
                        "edges": hist["edges"],
                        "counts": hist["counts"],
                        "filters": [
                            _range(f"{side}({ref})", hist["edges"], i)
                            for i in range(len(hist["counts"]))
                        ],
                    }
                )
    elif numeric and numeric.get("values"):
        values = numeric["values"]
        charts.append(
            {
                "title": "values",
                "labels": [str(v) for v, _ in values],
                "counts": [n for _, n in values],
                "filters": [f"{ref} == {v}" for v, _ in values],
            }
        )
    elif numeric and numeric["count"] and numeric["min"] == numeric["max"]:
        value = value_or_float32_text(numeric["min"])
        charts.append(
            {
                "title": "values",
                "labels": [value],
                "counts": [numeric["count"]],
                "filters": [f"{ref} == {value}"],
            }
        )
    elif numeric and numeric["histogram"]["counts"]:
        hist = numeric["histogram"]
        charts.append(
            {
                "title": "values" + (" (sampled)" if hist["sampled"] else ""),
                "edges": hist["edges"],
                "counts": hist["counts"],
                "filters": [_range(ref, hist["edges"], i) for i in range(len(hist["counts"]))],
            }
        )
    elif top and top[0][1] > 1 and not f["bytes"]["high_cardinality"] and len(top) <= 20:
        charts.append(
            {
                "title": "values",
                "labels": [t for t, _ in top],
                "counts": [n for _, n in top],
                "filters": [f"{ref} == {_literal(t)}" for t, _ in top],
            }
        )
    per_record = f["value_counts"]["per_record"]
    if not charts or len(per_record) > 1:
        items = sorted(per_record.items(), key=lambda kv: int(kv[0]))
        charts.append(
            {
                "title": "values per record",
                "labels": [k for k, _ in items],
                "counts": [n for _, n in items],
                "filters": [f"has({json.dumps(key)}) and len({ref}) == {k}" for k, _ in items],
            }
        )
    return charts


def summary_of(f: dict[str, Any]) -> str:
    """One line of figures for a card."""
    head = f"{f['kind']}, in {100 * f['presence']:.1f}% of records"
    if "images" in f:
        img = f["images"]
        fmts = ", ".join(f"{k} {v:,}" for k, v in img["formats"].items())
        bad = f", {img['undecodable']:,} undecodable" if img["undecodable"] else ""
        return f"{head}; images: {fmts}{bad}"
    if "numeric" in f:
        n = f["numeric"]
        if not n["count"]:
            return f"{head}; no finite values"
        extra = "".join(f", {n[k]:,} {k.upper()}" for k in ("nan", "inf") if n[k])
        return (
            f"{head}; min {value_or_float32_text(n['min'])}, mean {number_text(n['mean'], 4)}, "
            f"max {value_or_float32_text(n['max'])}, std {number_text(n['std'], 4)}, "
            f"{n['zeros']:,} zeros{extra}"
        )
    if "bytes" in f:
        b = f["bytes"]
        return f"{head}; ~{b['distinct']:,} distinct, {b['sizes']['mean']:.0f} bytes on average"
    return head


class StatisticsPanel(QWidget):
    """``filter_requested(expression)`` when a bar is clicked; ``run_requested()`` and
    ``cancel_requested()`` from its buttons."""

    filter_requested = Signal(str)
    run_requested = Signal()
    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.strip = TaskStrip(
            self,
            "Compute",
            "Compute the statistics of every record again",
            "No statistics yet.",
            "computing",
        )
        self.strip.run_button.clicked.connect(self.run_requested.emit)
        self.strip.cancel.clicked.connect(self.cancel_requested.emit)
        self.summary = self.strip.text
        self.cards = QWidget(self)
        self.cards_layout = QVBoxLayout(self.cards)
        self.cards_layout.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.cards)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(self.strip.row)
        layout.addWidget(scroll, 1)
        self.charts: dict[str, list] = {}  # key -> its BarCharts, for tests and clicks
        self.stats: dict[str, Any] | None = None

    def running(self, done: int, total: int) -> None:
        self.strip.running(done, total)

    def stopped(self, message: str) -> None:
        self.strip.stopped(message)

    def clear(self) -> None:
        self.stats = None
        self._clear_cards()
        self.stopped("No statistics yet.")

    def _clear_cards(self) -> None:
        self.charts = {}
        while self.cards_layout.count() > 1:
            item = self.cards_layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()

    def set_stats(self, stats: dict[str, Any]) -> None:
        """Show the result of ``stats --json``."""
        from .bar_chart import BarChart  # pyqtgraph loads with the first statistics

        self.stopped("")
        self.stats = stats
        self._clear_cards()
        damaged = (
            f"; {plural(stats['damaged'], 'damaged record')} skipped" if stats["damaged"] else ""
        )
        self.summary.setText(
            f"{plural(stats['records'], 'record')} in {plural(stats['files'], 'file')}, "
            f"{plural(len(stats['features']), 'feature')}{damaged}. Click a bar to filter."
        )
        for key, f in stats["features"].items():
            card = QFrame(self.cards)
            card.setFrameShape(QFrame.Shape.StyledPanel)
            box = QVBoxLayout(card)
            title = QLabel(f"<b>{key}</b>", card)
            title.setTextFormat(Qt.TextFormat.RichText)
            title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            box.addWidget(title)
            line = QLabel(summary_of(f), card)
            line.setWordWrap(True)
            box.addWidget(line)
            charts = QHBoxLayout()
            self.charts[key] = []
            for spec in chart_of(key, f):
                column = QVBoxLayout()
                column.addWidget(QLabel(spec["title"], card))
                chart = BarChart(card)
                if "edges" in spec:
                    chart.set_histogram(spec["edges"], spec["counts"])
                else:
                    chart.set_categories(spec["labels"], spec["counts"])
                chart.hint = "Click a bar to show its records"
                chart.setToolTip(chart.hint)
                chart.bar_clicked.connect(
                    lambda i, filters=spec["filters"]: self.filter_requested.emit(filters[i])
                )
                column.addWidget(chart)
                charts.addLayout(column, 1)
                self.charts[key].append(chart)
            box.addLayout(charts)
            self.cards_layout.insertWidget(self.cards_layout.count() - 1, card)
