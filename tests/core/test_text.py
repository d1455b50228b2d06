"""Wording helpers: plurals and the one float format used everywhere."""

from __future__ import annotations

import numpy as np

from tfr_viewer.core.text import dtype_text, float_text, plural, shortest_floats, value_text


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
