"""Wording helpers: plurals and the one float format used everywhere."""

from __future__ import annotations

import numpy as np

from tfr_viewer.core.text import (
    dtype_text,
    float_text,
    plural,
    shortest_float32,
    shortest_floats,
    value_text,
    whole_number,
)


def test_whole_numbers_are_ascii_digits_of_a_bounded_length():
    assert whole_number("42") == 42 and whole_number(" -7 ") == -7 and whole_number(9) == 9
    for text in ("²", "\u0663", "4\u0662", "1" * 21, "1e3", "0x10", "", "-", "1.0", None, True):
        assert whole_number(text) is None, text
    assert whole_number("1" * 21, digits=21) == int("1" * 21)
    assert whole_number(10**25) is None


def test_plural():
    assert plural(1, "problem") == "1 problem"
    assert plural(0, "problem") == "0 problems"
    assert plural(12_345, "record") == "12,345 records"


def test_floats_use_the_shortest_text_that_reads_back():
    values = np.array([0.1, 1.0, 2.5, 1e-7, 123456789.0, 3.4e38, -0.0], np.float32)
    for v, text in zip(values, [float_text(x) for x in values], strict=True):
        assert np.float32(text) == v
        assert len(text) <= len(repr(float(v)))
    assert float_text(0.1) == "0.1" and float_text(1.0) == "1.0"
    assert [float_text(x) for x in (np.nan, np.inf, -np.inf)] == ["nan", "inf", "-inf"]
    assert shortest_floats([0.1, 0.3]) == [0.1, 0.3]
    assert value_text(np.float32(0.1)) == "0.1" and value_text(b"ab") == "ab"
    assert dtype_text("string") == "string (bytes)" and dtype_text("int8") == "int8"


def _float32_cases(count: int) -> np.ndarray:
    """Random bit patterns, every power of two and its neighbours (where the float32s
    below are twice as close as those above), subnormals and the extremes."""
    rng = np.random.default_rng(11)
    bits = [rng.integers(0, 2**32, count, dtype=np.uint64).astype(np.uint32)]
    edges = [(e << 23) + d for e in range(255) for d in (-2, -1, 0, 1, 2) if (e << 23) + d >= 0]
    edges += list(range(1, 600)) + [0x7F7FFFFF, 0x007FFFFF]
    edge = np.array(edges, dtype=np.uint32)
    bits += [edge, edge | np.uint32(0x80000000)]
    values = np.concatenate(bits).view(np.float32)
    return values[np.isfinite(values)]


def test_the_shortest_float32_text_without_numpy_is_numpys():
    values = _float32_cases(60_000)
    expected = values.astype(str).astype(np.float64).tolist()
    got = [shortest_float32(v) for v in values.tolist()]
    wrong = [
        (v, e, g)
        for v, e, g in zip(values.tolist(), expected, got, strict=True)
        if repr(e) != repr(g)
    ]
    assert wrong == []
    assert [float_text(v) for v in values[:2000].tolist()] == [repr(e) for e in expected[:2000]]


def test_values_are_rounded_to_float32_first():
    assert shortest_float32(0.1) == 0.1 and shortest_float32(1 / 3) == 0.33333334
    assert shortest_float32(1e39) == np.inf and shortest_float32(-1e39) == -np.inf
    doubles = [3.4028234663852886e38, 3.4028235677973366e38, 1e-46, 0.7e-45, 16777217.0, 2 / 3]
    with np.errstate(over="ignore"):
        numpys = [repr(float(str(np.float32(d)))) for d in doubles]
    assert [float_text(d) for d in doubles] == numpys
