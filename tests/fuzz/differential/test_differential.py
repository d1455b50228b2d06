"""The compiled extractor and key discovery agree with upb on every row: a few
thousand generated cases here, 100,000 in the slow run, and the known traps by name."""

from __future__ import annotations

import pytest

from tfr_viewer.core import fast

from .compare import mismatches, run, schema_mismatch
from .encoding import case, delimited, tag, varint

pytestmark = pytest.mark.skipif(not fast.available(), reason="the compiled core is not built")


def test_three_thousand_generated_cases_agree_with_upb():
    summary = run(seed=11, cases=3000)
    assert summary["failures"] == []
    assert summary["left_to_upb"] == 0


@pytest.mark.slow
def test_one_hundred_thousand_generated_cases_agree_with_upb():
    summary = run(seed=1, cases=100_000)
    assert summary["failures"] == []


def test_the_generator_reaches_malformed_and_odd_payloads():
    from tfr_viewer.core.io.payload_block import PayloadBlock
    from tfr_viewer.core.query.extract import ROW_MALFORMED, _extract_python

    payloads = [case(11, n) for n in range(2000)]
    status, columns = _extract_python(PayloadBlock.of(payloads), ["a", "label"])
    malformed = (status == ROW_MALFORMED).mean()
    assert 0.15 < malformed < 0.6
    assert columns["a"].present.mean() > 0.1
    assert set(columns["a"].kinds.tolist()) == {0, 1, 2, 3}


def _entry(key: bytes, feature: bytes, extra: bytes = b"") -> bytes:
    return delimited(1, delimited(1, key) + delimited(2, feature) + extra)


def _ints(*values: int) -> bytes:
    return delimited(3, delimited(1, b"".join(varint(v) for v in values)))


TRAPS = {
    # an entry carrying an unknown field is kept out of the map: the earlier one stays
    "entry with an unknown field": delimited(
        1, _entry(b"a", _ints(1)) + _entry(b"a", _ints(2), tag(3, 0) + varint(9))
    ),
    "field number 0": delimited(1, _entry(b"a", _ints(1))) + tag(0, 0) + varint(1),
    "field number 0 inside an unknown group": tag(7, 3)
    + tag(0, 0)
    + varint(1)
    + tag(7, 4)
    + delimited(1, _entry(b"a", _ints(1))),
    # a malformed Feature under a key nobody asked for still rejects the payload
    "malformed feature under another key": delimited(
        1, _entry(b"a", _ints(1)) + _entry(b"zz", delimited(2, delimited(1, b"abc")))
    ),
    # a key that is not UTF-8 is read (TensorFlow's parser reads it), here overwritten
    "bad UTF-8 in an overwritten key": delimited(
        1, delimited(1, delimited(1, b"\xff") + delimited(1, b"a") + delimited(2, _ints(5)))
    ),
    "oneof switch then back": delimited(
        1, _entry(b"a", _ints(1, 2) + delimited(1, delimited(1, b"x")) + _ints(3))
    ),
    "value split over two fields of the entry": delimited(
        1, delimited(1, delimited(1, b"a") + delimited(2, _ints(1)) + delimited(2, _ints(2)))
    ),
    "unpacked floats": delimited(
        1, _entry(b"a", delimited(2, tag(1, 5) + b"\xcd\xcc\xcc\x3d" + tag(1, 5) + b"\0\0\0\0"))
    ),
    "packed floats of a bad size": delimited(
        1, _entry(b"a", delimited(2, delimited(1, b"\0" * 5)))
    ),
    "a varint of eleven bytes": delimited(
        1, _entry(b"a", delimited(3, tag(1, 0) + b"\xff" * 10 + b"\0"))
    ),
    "an unterminated group": tag(7, 3) + tag(1, 0) + varint(1),
    # the quick path for the usual encoding (one packed list, one-byte lengths) must
    # hand every near miss to the full walk
    "packed varint of eleven bytes": delimited(
        1, _entry(b"a", delimited(3, delimited(1, b"\xff" * 10 + b"\0")))
    ),
    "packed varint of ten bytes": delimited(
        1, _entry(b"a", delimited(3, delimited(1, b"\xff" * 9 + b"\x01" + varint(4))))
    ),
    "packed varint cut at the end": delimited(
        1, _entry(b"a", delimited(3, delimited(1, varint(3) + b"\x80")))
    ),
    "bytes value running past its list": delimited(
        1, _entry(b"a", delimited(1, delimited(1, b"xy")[:-1] + b"\x05z"))
    ),
    "bytes list with a second field": delimited(
        1, _entry(b"a", delimited(1, delimited(1, b"x") + tag(2, 0) + varint(1)))
    ),
    "packed floats after an unpacked one": delimited(
        1, _entry(b"a", delimited(2, tag(1, 5) + b"\0\0\0\0" + delimited(1, b"\0" * 4)))
    ),
    "entry of key, value and a trailing byte": delimited(
        1, delimited(1, delimited(1, b"a") + delimited(2, _ints(1)) + b"\x00")
    ),
    "non-ASCII key in the usual entry": delimited(1, _entry("é".encode(), _ints(7))),
    "eight-byte ASCII key then a bad byte": delimited(1, _entry(b"abcdefgh\xc3", _ints(7))),
    "a key that is not UTF-8, then its name as text": delimited(
        1, _entry(b"\xff", _ints(1)) + _entry(b"\\xff", _ints(2))
    ),
    "a key's name as text, then the key": delimited(
        1, _entry(b"\\xff", _ints(1)) + _entry(b"\xff", _ints(2))
    ),
    "a surrogate and an overlong form in a key": delimited(
        1, _entry(b"\xed\xa0\x80\xc0\xafa\xf4\x90", _ints(3))
    ),
}


@pytest.mark.parametrize("name", sorted(TRAPS))
def test_known_traps_agree_with_upb(name):
    payload = TRAPS[name]
    problems, left = mismatches([payload])
    assert problems == [] and left == 0
    assert schema_mismatch([payload]) is None


def test_the_traps_decide_what_they_claim():
    from tfr_viewer.core.io.payload_block import PayloadBlock
    from tfr_viewer.core.query.extract import ROW_MALFORMED, extract

    def one(name, key="a"):
        status, columns = extract(PayloadBlock.of([TRAPS[name]]), [key])
        return int(status[0]), columns[key].rag.values.tolist()

    assert one("entry with an unknown field") == (0, [1])
    assert one("field number 0")[0] == ROW_MALFORMED
    assert one("field number 0 inside an unknown group") == (0, [1])
    assert one("malformed feature under another key")[0] == ROW_MALFORMED
    assert one("bad UTF-8 in an overwritten key") == (0, [5])
    assert one("oneof switch then back") == (0, [3])
    assert one("value split over two fields of the entry") == (0, [1, 2])
    assert one("a key that is not UTF-8, then its name as text", "\\xff") == (0, [2])
    assert one("a key's name as text, then the key", "\\xff") == (0, [2])
    named = "\\xed\\xa0\\x80\\xc0\\xafa\\xf4\\x90"
    assert one("a surrogate and an overlong form in a key", named) == (0, [3])
    assert one("unpacked floats") == (0, [float(__import__("numpy").float32(0.1)), 0.0])
