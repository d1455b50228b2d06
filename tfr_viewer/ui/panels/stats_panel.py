"""The Statistics panel: one card per feature with its figures and a chart (pyqtgraph);
clicking a bar filters the table to the records behind it.

Charts: the values of a categorical feature (text, or integers with few values); the
histogram of a numeric one; the widths and heights of images (from their headers); else
how many values each record holds. A click turns the bar into a filter expression
(:func:`bar_filter`) that the filter bar runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .bar_chart import BarChart

import json
from collections.abc import Sequence
from dataclasses import dataclass
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

from ...core.analyze.stats_summary import FeatureSummary, Histogram, StatsSummary
from ...core.text import float_text, number_text, plural, value_or_float32_text
from .task_strip import TaskStrip


def key_ref(key: str) -> str:
    """How the filter language names feature ``key``."""
    return key if key.isidentifier() else f"f[{json.dumps(key)}]"


def _literal(value: Any) -> str:
    return json.dumps(value) if isinstance(value, str) else str(value)


def _value(value: float | int | None) -> str:
    return "-" if value is None else value_or_float32_text(value)


def _range(ref: str, edges: tuple[float, ...], i: int) -> str:
    lo, hi = float_text(edges[i]), float_text(edges[i + 1])
    last = i == len(edges) - 2
    return f"{lo} <= {ref} <= {hi}" if last else f"{lo} <= {ref} < {hi}"


@dataclass(frozen=True)
class Chart:
    """One chart of a card: bars over ``edges`` (a histogram) or one bar a label;
    ``filters[i]`` is the expression that selects the records behind bar ``i``."""

    title: str
    counts: tuple[int, ...]
    filters: tuple[str, ...]
    labels: tuple[str, ...] = ()
    edges: tuple[float, ...] = ()


def _histogram(title: str, ref: str, hist: Histogram) -> Chart:
    filters = tuple(_range(ref, hist.edges, i) for i in range(len(hist.counts)))
    return Chart(title, hist.counts, filters, edges=hist.edges)


def _categories(title: str, items: Sequence[tuple[str, int]], filters: Sequence[str]) -> Chart:
    return Chart(title, tuple(n for _, n in items), tuple(filters), tuple(t for t, _ in items))


def chart_of(key: str, f: FeatureSummary) -> list[Chart]:
    """The charts of one feature's card."""
    ref = key_ref(key)
    charts = []
    numeric = f.numeric
    top = f.bytes.top if f.bytes is not None else ()
    if f.images is not None:
        for side in ("width", "height"):
            figures = f.images.side(side)
            title = f"image {side} (px)"
            if figures.single:
                size = int(figures.min or 0)
                charts.append(
                    _categories(title, [(str(size), figures.count)], [f"{side}({ref}) == {size}"])
                )
            elif figures.histogram.counts:
                charts.append(_histogram(title, f"{side}({ref})", figures.histogram))
    elif f.values:
        items = [(str(v), n) for v, n in f.values]
        charts.append(_categories("values", items, [f"{ref} == {v}" for v, _ in f.values]))
    elif numeric is not None and numeric.single:
        value = _value(numeric.min)
        charts.append(_categories("values", [(value, numeric.count)], [f"{ref} == {value}"]))
    elif numeric is not None and numeric.histogram.counts:
        sampled = " (sampled)" if numeric.histogram.sampled else ""
        charts.append(_histogram("values" + sampled, ref, numeric.histogram))
    elif (
        f.bytes is not None
        and top
        and top[0][1] > 1
        and not f.bytes.high_cardinality
        and len(top) <= 20
    ):
        charts.append(_categories("values", top, [f"{ref} == {_literal(t)}" for t, _ in top]))
    if not charts or len(f.per_record) > 1:
        items = [(str(k), n) for k, n in f.per_record]
        filters = [f"has({json.dumps(key)}) and len({ref}) == {k}" for k, _ in f.per_record]
        charts.append(_categories("values per record", items, filters))
    return charts


def summary_of(f: FeatureSummary) -> str:
    """One line of figures for a card."""
    head = f"{f.kind}, in {100 * f.presence:.1f}% of records"
    if f.images is not None:
        img = f.images
        fmts = ", ".join(f"{k} {v:,}" for k, v in img.formats)
        bad = f", {img.undecodable:,} undecodable" if img.undecodable else ""
        return f"{head}; images: {fmts}{bad}"
    if f.numeric is not None:
        n = f.numeric
        if not n.count:
            return f"{head}; no finite values"
        extra = "".join(f", {k:,} {name}" for k, name in ((n.nan, "NAN"), (n.inf, "INF")) if k)
        return (
            f"{head}; min {_value(n.min)}, mean {number_text(n.mean, 4)}, "
            f"max {_value(n.max)}, std {number_text(n.std, 4)}, "
            f"{n.zeros:,} zeros{extra}"
        )
    if f.bytes is not None:
        b = f.bytes
        mean = float(b.sizes.mean or 0)
        return f"{head}; ~{b.distinct:,} distinct, {mean:.0f} bytes on average"
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
        self.charts: dict[str, list[BarChart]] = {}  # key -> its BarCharts, for tests and clicks
        self.stats: StatsSummary | None = None

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

    def set_stats(self, stats: StatsSummary) -> None:
        """Show the figures of a ``stats`` report."""
        from .bar_chart import BarChart  # pyqtgraph loads with the first statistics

        self.stopped("")
        self.stats = stats
        self._clear_cards()
        damaged = f"; {plural(stats.damaged, 'damaged record')} skipped" if stats.damaged else ""
        keys = plural(len(stats.features), "field path" if stats.message else "feature")
        read_as = f" read as {stats.message}" if stats.message else ""
        self.summary.setText(
            f"{plural(stats.records, 'record')}{read_as} in {plural(stats.files, 'file')}, "
            f"{keys}{damaged}. Click a bar to filter."
        )
        for key, f in stats.features:
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
                column.addWidget(QLabel(spec.title, card))
                chart = BarChart(card)
                if spec.edges:
                    chart.set_histogram(list(spec.edges), list(spec.counts))
                else:
                    chart.set_categories(list(spec.labels), list(spec.counts))
                chart.hint = "Click a bar to show its records"
                chart.setToolTip(chart.hint)
                chart.bar_clicked.connect(
                    lambda i, filters=spec.filters: self.filter_requested.emit(filters[i])
                )
                column.addWidget(chart)
                charts.addLayout(column, 1)
                self.charts[key].append(chart)
            box.addLayout(charts)
            self.cards_layout.insertWidget(self.cards_layout.count() - 1, card)
