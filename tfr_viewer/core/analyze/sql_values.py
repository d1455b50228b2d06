"""A SQL result's values as JSON holds them and as a table of text shows them (the
command line's table, the SQL dock, the HTML report): numbers as they are (a ``FLOAT``
as the shortest text of its float32, a ``HUGEINT`` sum as a whole number), text,
``null``, lists and structs as JSON's, bytes as ``{size, text}`` when they are UTF-8
text and ``{size, base64}`` otherwise; shown, bytes as their text in quotes (or their
size), a list as its items."""

from __future__ import annotations

import base64
from decimal import Decimal
from typing import Any


def cell(value: Any, kind: Any = None) -> Any:
    """A result's value as JSON holds it (see the module); ``kind``, its Arrow type."""
    import pyarrow as pa

    from ..text import shortest_float32

    if value is None:
        return None
    if isinstance(value, bytes):
        try:
            return {"size": len(value), "text": value.decode("utf-8")}
        except UnicodeDecodeError:
            return {"size": len(value), "base64": base64.b64encode(value).decode("ascii")}
    if isinstance(value, float) and kind is not None and pa.types.is_float32(kind):
        return shortest_float32(value)
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, list):
        inner = kind.value_type if kind is not None and hasattr(kind, "value_type") else None
        return [cell(v, inner) for v in value]
    if isinstance(value, dict):
        fields = (
            {kind.field(i).name: kind.field(i).type for i in range(kind.num_fields)}
            if (kind is not None and pa.types.is_struct(kind))
            else {}
        )
        return {str(k): cell(v, fields.get(k)) for k, v in value.items()}
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def short(value: Any, width: int) -> str:
    """A JSON value (:func:`cell`) as a table of text shows it, cut to ``width``
    characters."""
    shown = _shown(value)
    return shown if len(shown) <= width else shown[: width - 1] + "…"


def _shown(value: Any) -> str:
    from ..json_text import dumps

    if isinstance(value, dict) and "size" in value and ("text" in value or "base64" in value):
        text = value.get("text")
        return repr(text) if text is not None else f"<{value['size']:,} bytes>"
    if isinstance(value, str):
        return value
    if value is None:
        return "NULL"
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return str(dumps(value))
