"""The Object Detection API's label map (``label_map.pbtxt``): ``item { id: 1 name: 'cat' }``
blocks in protobuf text format. Only ``id``, ``name`` and ``display_name`` are read."""

from __future__ import annotations

import re
from pathlib import Path

from ..user_error import UserError

_ITEM = re.compile(r"item\s*\{(.*?)\}", re.S)
_FIELD = re.compile(r"""(\w+)\s*:\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|(-?\d+))""")


class LabelMapError(UserError, ValueError):
    """A label map that cannot be read."""


def parse_label_map(text: str, where: str = "label map") -> dict[int, str]:
    """``{id: name}`` (``display_name`` when there is no ``name``). Raises
    :class:`LabelMapError` for an item without an id, or a file with no items."""
    out: dict[int, str] = {}
    for n, item in enumerate(_ITEM.findall(text), start=1):
        fields: dict[str, str] = {}
        for name, dq, sq, number in _FIELD.findall(item):
            fields.setdefault(name, number or dq or sq)
        if "id" not in fields or not fields["id"].lstrip("-").isdigit():
            raise LabelMapError(f"{where}: item {n} has no numeric id")
        out[int(fields["id"])] = fields.get("name") or fields.get("display_name") or ""
    if not out:
        raise LabelMapError(f"{where}: no `item {{ id: ... name: ... }}` entries found")
    return out


def read_label_map(path: str) -> dict[int, str]:
    """:func:`parse_label_map` of a file; unreadable files raise :class:`LabelMapError`."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LabelMapError(f"cannot read the label map {path}: {exc}") from None
    return parse_label_map(text, path)
