"""The layouts a record may follow, in the order they are tried: a new one is one
module (a :class:`~.annotations.Layout`) and one entry in :data:`LAYOUTS`."""

from __future__ import annotations

from . import odapi, tfds, tutorial
from .annotations import BoxKeys, KeyMap, Layout

LAYOUTS: tuple[Layout, ...] = (odapi, tfds, tutorial)
DEFAULT_LAYOUT = tutorial.NAME  # what a conversion writes unless told


def by_name(name: str) -> Layout:
    """The layout called ``name``; ValueError names the known ones."""
    for layout in LAYOUTS:
        if layout.NAME == name:
            return layout
    raise ValueError(f"unknown layout {name!r}: one of {', '.join(names())}")


def names() -> tuple[str, ...]:
    """The layouts a conversion writes, by name (``convert --layout``)."""
    return tuple(layout.NAME for layout in LAYOUTS)


def box_keys(numeric: list[str], keymap: KeyMap) -> BoxKeys | None:
    """Where a record keeps its boxes, by the first layout that finds them among its
    ``numeric`` keys; None when none does."""
    for layout in LAYOUTS:
        where = layout.box_keys(numeric, keymap)
        if where is not None:
            return where
    return None
