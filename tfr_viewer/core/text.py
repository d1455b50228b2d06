"""Small wording helpers shared by messages in the CLI and the window."""

from __future__ import annotations

from typing import Any

import numpy as np


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """``1 problem``, ``2 problems``, ``1,234 records`` (thousands separated)."""
    word = noun if count == 1 else (plural_form or noun + "s")
    return f"{count:,} {word}"


def float_text(value: float) -> str:
    """The shortest text that reads back as the same float32 (``0.1``, not
    ``0.10000000149011612``), spelled as Python and JSON spell it: the same text as
    :func:`shortest_floats` and the JSON output give."""
    return repr(float(str(np.float32(value))))


def shortest_floats(values: object) -> list[float]:
    """Float32 values as Python floats whose repr is the shortest text that reads back
    as the same float32 (vectorised: numpy prints float32 with the shortest digits)."""
    arr = np.asarray(values, dtype=np.float32)
    return arr.astype(str).astype(np.float64).tolist()


def value_text(v: Any) -> str:
    """One element: text for bytes, the shortest round-trip text for float32."""
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")[:200]
    if isinstance(v, np.float32 | np.float16):
        return float_text(float(v))
    return repr(float(v)) if isinstance(v, float | np.floating) else str(v)


def dtype_text(dtype: str) -> str:
    """A tensor's dtype as a reader expects it (``string`` holds bytes)."""
    return "string (bytes)" if dtype == "string" else dtype
