"""Choosing a box's class: from the classes the dataset is known to have (its boxes in
the statistics, the record's own boxes), or typed: ``7 dog``, ``7`` or ``dog``."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtWidgets import QInputDialog, QWidget

from ...core.text import whole_number

Class = tuple[int | None, str | None]  # (class id, class text)


def class_texts(known: Iterable[Class]) -> list[str]:
    """The choices, as typed: ``7 dog``, once each, by id."""
    seen = dict.fromkeys(c for c in known if c != (None, None))
    ordered = sorted(seen, key=lambda c: (c[0] is None, c[0] or 0, c[1] or ""))
    return [" ".join(str(p) for p in c if p is not None) for c in ordered]


def parse_class(text: str, known: Iterable[Class]) -> Class | None:
    """What ``text`` names: an id and a text, an id (its text from ``known``), or a
    text (its id from ``known``); None for nothing."""
    words = text.strip().split(maxsplit=1)
    if not words:
        return None
    known = list(known)
    label = whole_number(words[0])
    if label is not None:
        named = words[1].strip() if len(words) > 1 else None
        if named is None:
            named = next((t for i, t in known if i == label and t), None)
        return label, named
    name = text.strip()
    return next((i for i, t in known if t == name and i is not None), None), name


def choose_class(
    parent: QWidget, title: str, known: Iterable[Class], current: Class | None = None
) -> Class | None:
    """Ask for a class (a list of the known ones, or typed); None when cancelled."""
    known = list(known)
    choices = class_texts(known)
    first = class_texts([current])[0] if current and current != (None, None) else ""
    at = choices.index(first) if first in choices else 0
    text, ok = QInputDialog.getItem(
        parent,
        title,
        "Class (choose one, or type an id and a name, e.g. 7 dog):",
        choices or [""],
        at,
        True,
    )
    if not ok:
        return None
    return parse_class(text, known)
