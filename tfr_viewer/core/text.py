"""Small wording helpers shared by messages in the CLI and the window."""

from __future__ import annotations

import math
import re
import struct
from typing import Any

_F32 = struct.Struct("<f")
_U32 = struct.Struct("<I")


EMPTY = "(empty)"  # what the window shows for a list without values, whatever its kind
_WHOLE = re.compile(r"-?[0-9]+", re.ASCII)


def natural_key(path: str) -> list[object]:
    """Sort key that orders ``a2`` before ``a10`` (runs of ASCII digits by their value,
    compared as text of equal length, so that no run is too long to convert)."""
    parts = re.split(r"([0-9]+)", path)
    return [(len(t.lstrip("0")), t.lstrip("0"), t) if i % 2 else t for i, t in enumerate(parts)]


def whole_number(text: object, digits: int = 20) -> int | None:
    """The integer ``text`` writes in ASCII digits (an optional ``-`` first), of at most
    ``digits`` digits; None for anything else. The one reading of a number a file or a
    user wrote: ``str.isdigit`` and ``int`` also take "²", "٣" and 5,000-digit runs,
    which ``int`` then refuses or turns into a number no file position can be."""
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        return None
    if isinstance(text, int):
        return text if len(str(abs(text))) <= digits else None
    text = text.strip()
    if not _WHOLE.fullmatch(text) or len(text.lstrip("-")) > digits:
        return None
    return int(text)


def human_bytes(size: int) -> str:
    """A size as people read it: ``812 B``, ``3.4 kB``, ``1.2 GB`` (powers of 1,000)."""
    if size < 1000:
        return f"{size:,} B"
    power, unit = next(
        (p, u)
        for p, u in ((4, "TB"), (3, "GB"), (2, "MB"), (1, "kB"))
        if size >= 999.95 * 1000 ** (p - 1) or p == 1
    )
    return f"{size / 1000**power:,.1f} {unit}"


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """``1 problem``, ``2 problems``, ``1,234 records`` (thousands separated)."""
    word = noun if count == 1 else (plural_form or noun + "s")
    return f"{count:,} {word}"


def as_float32(value: float) -> float:
    """``value`` rounded to the nearest float32 (to an infinity beyond its range)."""
    try:
        result: float = _F32.unpack(_F32.pack(value))[0]
        return result
    except OverflowError:
        return math.copysign(math.inf, value)


def _nearest(x: float, digits: int) -> float | None:
    """The decimal of ``digits`` significant digits nearest ``x``, if it reads back."""
    y = float(f"{x:.{digits - 1}e}")
    return y if as_float32(y) == x else None


def shortest_float32(value: float) -> float:
    """The float32 nearest ``value`` as the Python float whose repr is the shortest text
    that reads back as that float32 (``0.1``, not ``0.10000000149011612``), the nearest
    one when several are as short: what numpy prints, without numpy."""
    x = as_float32(value)
    if x == 0 or not math.isfinite(x):
        return x
    if _U32.unpack(_F32.pack(x))[0] & 0x7FFFFF:
        # Float32s are evenly spaced around x, so the nearest decimal of some length
        # reads back whenever any of that length does, and so does every longer one:
        # search the length (9 digits always suffice).
        lo, hi = 1, 9
        while lo < hi:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if _nearest(x, mid) is not None else (mid + 1, hi)
        return _nearest(x, lo) or x
    # A power of two: the float32s below are twice as close as those above, so the
    # nearest decimal may miss where its neighbour above reads back.
    for digits in range(1, 10):
        found = _nearest(x, digits)
        if found is not None:
            return found
        mantissa, exponent = f"{x:.{digits - 1}e}".split("e")
        scale = int(exponent) - digits + 1
        nearest = int(mantissa.replace(".", ""))
        for m in sorted((nearest - 1, nearest + 1), key=lambda m: abs(m * 10.0**scale - x)):
            y = float(f"{m}e{scale}")
            if as_float32(y) == x:
                return y
    return x


def float_text(value: float) -> str:
    """The shortest text that reads back as the same float32, spelled as Python and
    JSON spell it: the same text as :func:`shortest_floats` and the JSON output give."""
    return repr(shortest_float32(value))


def number_text(value: float | int | None, digits: int = 6) -> str:
    """A figure as people read it: an integer (or a float with an integral value) in
    plain digits, never ``1.357e+09`` nor ``240.0``; other floats with ``digits``
    significant digits; ``-`` for none."""
    if value is None:
        return "-"
    if isinstance(value, int):
        return str(value)
    if math.isfinite(value) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return f"{value:.{digits}g}"


def value_or_float32_text(value: float | int) -> str:
    """A statistic of a feature's values: an integer in plain digits, a float as the
    shortest text that reads back as the same float32 (:func:`float_text`)."""
    return str(value) if isinstance(value, int) else float_text(value)


def shortest_floats(values: object) -> list[float]:
    """Float32 values as Python floats whose repr is the shortest text that reads back
    as the same float32 (vectorised: numpy prints float32 with the shortest digits)."""
    import numpy as np

    arr = np.asarray(values, dtype=np.float32)
    result: list[float] = arr.astype(str).astype(np.float64).tolist()
    return result


def value_text(v: Any) -> str:
    """One element: text for bytes, the shortest round-trip text for float32."""
    import numpy as np

    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")[:200]
    if isinstance(v, np.float32 | np.float16):
        return float_text(float(v))
    return repr(float(v)) if isinstance(v, float | np.floating) else str(v)


def dtype_text(dtype: str) -> str:
    """A tensor's dtype as a reader expects it (``string`` holds bytes)."""
    return "string (bytes)" if dtype == "string" else dtype
