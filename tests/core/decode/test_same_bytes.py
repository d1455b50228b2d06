"""Byte-identical images are judged once; different ones never share a verdict, even
when their lengths and checksums agree. On both paths (compiled core and pure Python)."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from tests.both_paths import hot_path  # noqa: F401 - an autouse fixture
from tfr_viewer.core.decode import image_verdict, same_bytes
from tfr_viewer.core.decode.image_verdict import verdict_of, verdicts
from tfr_viewer.core.decode.same_bytes import SameBytes


def _jpeg(seed: int) -> bytes:
    out = io.BytesIO()
    pixels = np.random.default_rng(seed).integers(0, 255, (30, 40, 3), dtype=np.uint8)
    Image.fromarray(pixels).save(out, "JPEG")
    return out.getvalue()


def _counting(monkeypatch) -> list[bytes]:
    judged: list[bytes] = []
    real = image_verdict.verdict_of

    def counting(data: bytes, side: int | None = None):
        judged.append(data)
        return real(data, side)

    monkeypatch.setattr(image_verdict, "verdict_of", counting)
    monkeypatch.setattr(image_verdict, "_JUDGED", SameBytes())
    return judged


def test_copies_are_decoded_once_and_get_the_verdict_of_a_decode(monkeypatch):
    judged = _counting(monkeypatch)
    a, b = _jpeg(1), _jpeg(2)
    cut = a[: len(a) // 2]
    values = [a, b, bytes(a), cut, b, bytes(cut), a]
    got = verdicts(values, 64)
    assert got == [verdict_of(v, 64) for v in values]
    assert sorted(judged) == sorted([a, b, cut])  # each distinct value once
    again = verdicts([bytes(b), bytes(a)], 64)
    assert again == [verdict_of(b, 64), verdict_of(a, 64)] and len(judged) == 3
    assert verdicts([a], None) == [verdict_of(a)] and len(judged) == 4  # another setting


def test_values_under_one_key_are_told_apart_by_their_bytes(monkeypatch):
    """Every value filed under the same key, as colliding checksums would be: each
    still gets its own verdict."""
    judged = _counting(monkeypatch)
    monkeypatch.setattr(image_verdict, "key_of", lambda data: (0, 0))
    monkeypatch.setattr(same_bytes, "key_of", lambda data: (0, 0))
    a, b = _jpeg(3), _jpeg(4)
    values = [a, b, b"\xff\xd8not a jpeg at all", a, b]
    assert verdicts(values, 64) == [verdict_of(v, 64) for v in values]
    assert len(judged) == 3
    assert verdicts([b, a], 64) == [verdict_of(b, 64), verdict_of(a, 64)]


def test_the_memo_holds_no_more_than_its_budget():
    memo: SameBytes[int] = SameBytes(budget=1000)
    values = [bytes([k]) * 300 for k in range(10)]
    for k, v in enumerate(values):
        memo.put(v, k)
        assert memo.get(v) == k  # the newest stays
    held = [memo.get(v) for v in values]
    assert sum(h is not None for h in held) == 3
    assert all(h in (None, k) for k, h in enumerate(held))
    memo.put(b"x" * 2000, 99)  # larger than the budget: not held
    assert memo.get(b"x" * 2000) is None and memo.get(values[9]) == 9


def test_a_cycle_slightly_longer_than_the_budget_still_finds_most():
    """Inputs used in turn, one more than the memo holds: most are found (dropping the
    least recently used would find none)."""
    memo: SameBytes[int] = SameBytes(budget=10 * 300)
    values = [bytes([k]) * 300 for k in range(11)]
    found = 0
    for _ in range(50):
        for k, v in enumerate(values):
            if memo.get(v) == k:
                found += 1
            else:
                memo.put(v, k)
    assert found > 0.6 * 50 * len(values)


def test_equal_compares_bytes_and_views_by_their_bytes():
    a = _jpeg(5)
    view = memoryview(bytearray(b"xx" + a))[2:].toreadonly()
    changed = bytearray(a)
    changed[-1] ^= 1
    assert same_bytes.equal(a, view) and same_bytes.equal(view, a)
    assert not same_bytes.equal(a, bytes(changed)) and not same_bytes.equal(view, changed)
    assert not same_bytes.equal(a, a[:-1]) and same_bytes.equal(b"", memoryview(b""))
