"""Changing what a filtering proxy model lets through, so that its views hear of it."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSortFilterProxyModel


def change_filter(proxy: QSortFilterProxyModel, apply: Callable[[], object]) -> None:
    """Run ``apply`` (which changes what ``proxy`` accepts) and tell the views: with
    ``beginFilterChange``/``endFilterChange`` where Qt has them (6.10), else by
    invalidating the filter."""
    if hasattr(proxy, "beginFilterChange"):
        proxy.beginFilterChange()
        apply()
        proxy.endFilterChange(QSortFilterProxyModel.Direction.Rows)
    else:
        apply()
        proxy.invalidateFilter()
