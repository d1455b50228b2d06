"""Exact sums of float64 values and of their squares, so that statistics merged in any
order (files one after another, splits of a shard on many workers) are bit for bit the
same.

Every finite float64 is an integer multiple of 2**SUM_BASE and its square one of
2**SQUARE_BASE, so the sums are kept as Python integers in those units. A block of values
is summed with numpy in int64, over runs of at most ``RUN`` values of one binary exponent
(short enough that the int64 sums cannot overflow), and only the run totals become
Python integers. Mean and variance are then rounded once, from the exact figures.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

SUM_BASE = -1126  # a value is a 53-bit mantissa times 2**(exponent - 53) >= 2**-1126
SQUARE_BASE = 2 * SUM_BASE
RUN = 256
_HALF = 27  # a 53-bit mantissa as hi * 2**27 + lo


def _runs(exponents: np.ndarray) -> np.ndarray:
    """Start of every run: where the exponent changes, and every ``RUN`` values."""
    n = len(exponents)
    changes = np.flatnonzero(np.diff(exponents)) + 1
    return np.unique(np.concatenate([np.arange(0, n, RUN), changes]))


def exact_moments(values: np.ndarray) -> tuple[int, int]:
    """``(sum, sum of squares)`` of finite float64 ``values``, in units of
    ``2**SUM_BASE`` and ``2**SQUARE_BASE``: exact integers."""
    values = np.asarray(values, dtype=np.float64)
    if not len(values):
        return 0, 0
    fractions, exponents = np.frexp(values)
    mantissas = (fractions * 2.0**53).astype(np.int64)  # value = mantissa * 2**(exp - 53)
    exponents = exponents.astype(np.int64) - 53
    order = np.argsort(exponents, kind="stable")
    mantissas, exponents = mantissas[order], exponents[order]
    starts = _runs(exponents)
    shift = exponents[starts] - SUM_BASE
    sums = np.add.reduceat(mantissas, starts)  # RUN values below 2**53: below 2**61
    total = sum(s << x for s, x in zip(sums.tolist(), shift.tolist(), strict=True))
    magnitude = np.abs(mantissas)
    hi, lo = magnitude >> _HALF, magnitude & ((1 << _HALF) - 1)
    hh = np.add.reduceat(hi * hi, starts).tolist()  # each term below 2**52
    hl = np.add.reduceat(hi * lo, starts).tolist()  # below 2**53
    ll = np.add.reduceat(lo * lo, starts).tolist()  # below 2**54
    squares = 0
    for a, b, c, x in zip(hh, hl, ll, (2 * shift).tolist(), strict=True):
        squares += ((a << (2 * _HALF)) + (b << (_HALF + 1)) + c) << x
    return total, squares


_LIMB = 21  # an int64 as a * 2**42 + b * 2**21 + c, with 0 <= b, c < 2**21
_CHUNK = 1 << 18  # products of limbs are below 2**43: a chunk's sums fit in int64


def exact_int_moments(values: np.ndarray) -> tuple[int, int]:
    """:func:`exact_moments` of integer ``values`` (int64 or smaller), in the same units,
    without rounding any of them to float64 first (2**53 + 1 stays itself)."""
    values = np.asarray(values, dtype=np.int64)
    mask = (1 << _LIMB) - 1
    total = squares = 0
    for start in range(0, len(values), _CHUNK):
        v = values[start : start + _CHUNK]
        a, b, c = v >> (2 * _LIMB), (v >> _LIMB) & mask, v & mask
        sa, sb, sc = (int(x.sum()) for x in (a, b, c))
        total += (sa << (2 * _LIMB)) + (sb << _LIMB) + sc
        aa, ab = int((a * a).sum()), int((a * b).sum())
        mid = int((2 * a * c + b * b).sum())
        bc, cc = int((b * c).sum()), int((c * c).sum())
        squares += (
            (aa << (4 * _LIMB))
            + (ab << (3 * _LIMB + 1))
            + (mid << (2 * _LIMB))
            + (bc << (_LIMB + 1))
            + cc
        )
    return total << -SUM_BASE, squares << -SQUARE_BASE


def mean_of(total: int, count: int) -> float | int:
    """The mean of ``count`` values whose exact sum is ``total``: an ``int`` when it is
    a whole number that a float would round (the mean of ids near 2**63), else the
    correctly rounded float."""
    exact = Fraction(total, count) * Fraction(2) ** SUM_BASE
    if exact.denominator == 1 and float(exact) != exact:
        return int(exact)
    return float(exact)


def std_of(total: int, squares: int, count: int) -> float:
    """The population standard deviation, from the exact figures (rounded once before
    the square root)."""
    spread = Fraction(squares * count - total * total, count * count)
    return math.sqrt(float(spread * Fraction(2) ** SQUARE_BASE))
