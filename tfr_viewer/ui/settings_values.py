"""Reading what the window remembers (QSettings) as the types it was written as. A
settings file is a file like any other: edited by hand, left by another version, or
written to attack. Whatever cannot be read as its type and size is forgotten (removed,
so the next start is clean) and the default used; the window always opens."""

from __future__ import annotations

from typing import Any, TypeVar

from PySide6.QtCore import QByteArray, QSettings

from ..core.json_text import load_document

MAX_LIST = 100  # entries of a remembered list (recent files, URLs) that are read
MAX_TEXT = 1 << 16  # characters of one remembered text
MAX_JSON = 1 << 16  # characters of a remembered JSON document


T = TypeVar("T")


def _forget(settings: QSettings, key: str, default: T) -> T:
    settings.remove(key)
    return default


def read_bytes(settings: QSettings, key: str) -> QByteArray | None:
    """A remembered byte array (a window geometry or state), or None."""
    value = settings.value(key)
    if value is None:
        return None
    if isinstance(value, QByteArray | bytes):
        data = QByteArray(value)
        if 0 < data.size() <= MAX_JSON:
            return data
    return _forget(settings, key, None)


def read_int(settings: QSettings, key: str, low: int, high: int) -> int | None:
    """A remembered whole number within ``[low, high]``, or None."""
    from ..core.text import whole_number

    value = settings.value(key)
    if value is None:
        return None
    number = whole_number(value if isinstance(value, int | str) else None, 12)
    if number is None or not low <= number <= high:
        return _forget(settings, key, None)
    return number


def read_texts(settings: QSettings, key: str, limit: int = MAX_LIST) -> list[str]:
    """A remembered list of texts (one text is a list of one), at most ``limit`` of
    them, each of at most ``MAX_TEXT`` characters; anything else is forgotten."""
    value = settings.value(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        return _forget(settings, key, [])
    kept = [v for v in value[: limit * 4] if 0 < len(v) <= MAX_TEXT][:limit]
    if len(kept) != len(value):
        settings.setValue(key, kept)
    return kept


def read_text_map(settings: QSettings, key: str, limit: int = MAX_LIST) -> dict[str, str]:
    """A remembered mapping of texts to texts (at most ``limit`` entries)."""
    value = settings.value(key, {})
    if not isinstance(value, dict) or len(value) > limit * 4:
        return _forget(settings, key, {})
    kept = {
        k: v
        for k, v in value.items()
        if isinstance(k, str) and isinstance(v, str) and len(k) + len(v) <= MAX_TEXT
    }
    return dict(list(kept.items())[-limit:])


def read_json_object(settings: QSettings, key: str) -> dict[str, Any]:
    """A remembered JSON object (stored as its text), or ``{}``: text past
    ``MAX_JSON`` characters, bad JSON, nesting too deep for Python and anything that
    is not an object are forgotten."""
    value = settings.value(key)
    if value is None:
        return {}
    if not isinstance(value, str) or len(value) > MAX_JSON:
        return _forget(settings, key, {})
    try:
        parsed = load_document(value)
    except ValueError:
        return _forget(settings, key, {})
    return parsed if isinstance(parsed, dict) else _forget(settings, key, {})
