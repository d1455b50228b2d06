"""The reports' charts, drawn by matplotlib (the ``report`` extra) as inline PNG."""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence
from typing import Any

from ..user_error import UserError
from .page import readable


class ReportUnavailable(UserError):
    """matplotlib is not installed; the message says how to install it."""


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        # a text from the data is shown as written: "$x$" is no formula (and "$" alone
        # no error)
        matplotlib.rcParams["text.parse_math"] = False
        import matplotlib.pyplot as plt
    except ImportError:
        raise ReportUnavailable(
            "HTML reports draw their charts with matplotlib: pip install 'tfr-viewer[report]'"
        ) from None
    return plt


def require() -> None:
    """ReportUnavailable unless the charts can be drawn (checked before the work)."""
    _pyplot()


def _url(fig: Any) -> str:
    plt = _pyplot()
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=80, bbox_inches="tight")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii")


def histogram(edges: Sequence[float], counts: Sequence[int], title: str) -> str:
    """A histogram of ``counts`` between ``edges`` (``len(counts) + 1`` of them)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(4.2, 2.2))
    widths = [b - a for a, b in zip(edges[:-1], edges[1:], strict=True)]
    ax.bar(list(edges[:-1]), list(counts), width=widths, align="edge", color="#3b82f6")
    ax.set_title(readable(title), fontsize=9)
    ax.tick_params(labelsize=7)
    return _url(fig)


def bars(
    labels: Sequence[str],
    counts: Sequence[float],
    title: str,
    second: Sequence[float] | None = None,
) -> str:
    """Horizontal bars, one per label (a second series beside the first, to compare)."""
    plt = _pyplot()
    n = len(labels)
    fig, ax = plt.subplots(figsize=(4.2, max(1.2, 0.22 * n + 0.6)))
    ys = list(range(n))
    if second is None:
        ax.barh(ys, list(counts), color="#3b82f6")
    else:
        ax.barh([y - 0.2 for y in ys], list(counts), height=0.4, color="#3b82f6", label="A")
        ax.barh([y + 0.2 for y in ys], list(second), height=0.4, color="#f59e0b", label="B")
        ax.legend(fontsize=7)
    ax.set_yticks(ys)
    ax.set_yticklabels([readable(label[:40]) for label in labels], fontsize=7)
    ax.invert_yaxis()
    ax.set_title(readable(title), fontsize=9)
    ax.tick_params(axis="x", labelsize=7)
    return _url(fig)
