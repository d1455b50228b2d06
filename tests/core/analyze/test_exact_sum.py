"""Exact sums: equal to the rational sum of the values, the same however the values are
split, and mean and standard deviation as numpy gives them for ordinary data."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from tfr_viewer.core.analyze.exact_sum import (
    SQUARE_BASE,
    SUM_BASE,
    exact_moments,
    mean_of,
    std_of,
)


def test_sums_are_exact_and_split_independent():
    rng = np.random.default_rng(0)
    for trial in range(10):
        values = np.concatenate(
            [
                rng.normal(0, 10.0 ** rng.integers(-30, 30), 800),
                rng.integers(-(2**40), 2**40, 300).astype(np.float64),
                [5e-324, -5e-324, 1.7e308, -1.7e308, 0.0, -0.0, 0.1],
            ]
        )
        total, squares = exact_moments(values)
        assert Fraction(total) * Fraction(2) ** SUM_BASE == sum(map(Fraction, values.tolist()))
        assert Fraction(squares) * Fraction(2) ** SQUARE_BASE == sum(
            Fraction(v) ** 2 for v in values.tolist()
        )
        parts = [exact_moments(p) for p in np.array_split(rng.permutation(values), 1 + trial)]
        assert sum(t for t, _ in parts) == total and sum(q for _, q in parts) == squares


def test_mean_and_std_agree_with_numpy():
    rng = np.random.default_rng(1)
    values = rng.normal(5, 2, 100_000)
    total, squares = exact_moments(values)
    assert np.isclose(mean_of(total, len(values)), values.mean(), rtol=1e-15)
    assert np.isclose(std_of(total, squares, len(values)), values.std(), rtol=1e-12)
    assert exact_moments(np.zeros(0)) == (0, 0)
