"""A seeded generator of Example / SequenceExample payloads in odd but legal encodings,
and of damaged ones, for comparing the compiled extractor with upb.

Odd encodings: packed and unpacked repeated fields, lists split over several fields, a
oneof that switches, keys after values, duplicate keys, entries without a key or a
value, unknown fields of every wire type at every level (groups too), known fields with
the wrong wire type, features split over several messages, non-UTF-8 and empty keys,
and the feature lists of a SequenceExample. Damage: bit flips, cuts, insertions and
splices of bytes.
"""

from __future__ import annotations

import random
import struct

# "\\xff" is also the name of the key b"\xff": a record holding both holds one key
KEYS = ["a", "label", "score", "", "é", "image/encoded", "x" * 40, "\\xff"]
BAD_KEYS = [b"\xff", b"k\xc3", b"\xed\xa0\x80"]  # not UTF-8: named with \x escapes
ASKED = sorted({*KEYS, *(k.decode("utf-8", "backslashreplace") for k in BAD_KEYS)})


def varint(value: int) -> bytes:
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def tag(field: int, wire: int) -> bytes:
    return varint(field << 3 | wire)


def delimited(field: int, body: bytes) -> bytes:
    return tag(field, 2) + varint(len(body)) + body


def unknown(rng: random.Random, depth: int = 0) -> bytes:
    """One unknown field of a random wire type, with a field number not used nearby."""
    field = rng.choice([4, 5, 9, 15, 16, 100, 2047, (1 << 29) - 1])
    wire = rng.choice([0, 1, 2, 3, 5])
    if wire == 0:
        return tag(field, 0) + varint(rng.getrandbits(rng.choice([1, 7, 35, 64])))
    if wire == 1:
        return tag(field, 1) + rng.randbytes(8)
    if wire == 5:
        return tag(field, 5) + rng.randbytes(4)
    if wire == 2:
        return delimited(field, rng.randbytes(rng.randrange(6)))
    inner = b"".join(unknown(rng, depth + 1) for _ in range(rng.randrange(3) if depth < 3 else 0))
    return tag(field, 3) + inner + tag(field, 4)


def maybe_unknown(rng: random.Random, p: float = 0.1) -> bytes:
    return unknown(rng) if rng.random() < p else b""


def values_of(rng: random.Random, kind: int) -> list:
    n = rng.choice([0, 1, 1, 2, 3, 7])
    if kind == 1:
        return [rng.randbytes(rng.randrange(5)) for _ in range(n)]
    if kind == 2:
        pick = [0.1, -0.0, 1.5, float("inf"), 3.4e38, 1e-45, 0.5]
        return [
            rng.choice(pick) if rng.random() < 0.7 else rng.uniform(-1e6, 1e6) for _ in range(n)
        ]
    pick = [0, 1, -1, 3, (1 << 63) - 1, -(1 << 63), 300]
    return [
        rng.choice(pick) if rng.random() < 0.7 else rng.getrandbits(64) - (1 << 63)
        for _ in range(n)
    ]


def list_body(rng: random.Random, kind: int, values: list) -> bytes:
    """A BytesList / FloatList / Int64List body, packed or not, possibly split."""
    out = bytearray(maybe_unknown(rng))
    if kind == 1:
        for v in values:
            out += delimited(1, v) + maybe_unknown(rng, 0.05)
        return bytes(out)
    if kind == 2:
        enc = [struct.pack("<f", v) for v in values]
        if rng.random() < 0.5:
            cut = rng.randrange(len(enc) + 1)
            for part in (enc[:cut], enc[cut:]):
                if part or rng.random() < 0.3:
                    out += delimited(1, b"".join(part))
        else:
            for e in enc:
                out += tag(1, 5) + e
    else:
        enc = [varint(v) for v in values]
        if rng.random() < 0.5:
            out += delimited(1, b"".join(enc))
        else:
            for e in enc:
                out += tag(1, 0) + e
    if rng.random() < 0.05:
        out += tag(1, rng.choice([0, 1, 5]) if kind == 1 else 1) + rng.randbytes(8)
    return bytes(out + maybe_unknown(rng))


def feature_body(rng: random.Random) -> bytes:
    """A Feature: usually one list, sometimes none, several (the oneof switches) or one
    list split in two (they merge)."""
    shape = rng.random()
    if shape < 0.06:
        return maybe_unknown(rng, 0.5)
    kinds = [rng.choice([1, 2, 3])]
    if shape > 0.9:
        kinds.append(rng.choice([1, 2, 3]))
    out = bytearray()
    for kind in kinds:
        out += delimited(kind, list_body(rng, kind, values_of(rng, kind)))
        out += maybe_unknown(rng, 0.05)
    if rng.random() < 0.02:
        out += tag(rng.choice([1, 2, 3]), 0) + varint(5)  # a known field, wrong wire type
    return bytes(out)


def key_bytes(rng: random.Random) -> bytes:
    if rng.random() < 0.02:
        return rng.choice(BAD_KEYS)
    return rng.choice(KEYS).encode("utf-8")


def entry(rng: random.Random, value: bytes) -> bytes:
    """A map entry in one of several legal layouts."""
    key = delimited(1, key_bytes(rng))
    val = delimited(2, value)
    r = rng.random()
    if r < 0.7:
        body = key + val
    elif r < 0.8:
        body = val + key
    elif r < 0.84:
        body = key  # no value: an empty Feature
    elif r < 0.87:
        body = val  # no key: the empty key
    elif r < 0.9:
        body = key + delimited(1, key_bytes(rng)) + val  # the later key wins
    elif r < 0.93:
        half = rng.randrange(len(value) + 1)
        body = key + val + delimited(2, value[:0]) if half == 0 else key + val + val
    elif r < 0.96:
        body = key + val + unknown(rng)  # upb keeps such an entry out of the map
    else:
        body = key + tag(2, 0) + varint(1) + val  # a value with the wrong wire type
    return delimited(1, body)


def features_body(rng: random.Random, lists: bool = False) -> bytes:
    out = bytearray(maybe_unknown(rng, 0.05))
    for _ in range(rng.choice([0, 1, 2, 3, 4, 6])):
        if lists:
            value = b"".join(delimited(1, feature_body(rng)) for _ in range(rng.randrange(4)))
        else:
            value = feature_body(rng)
        out += entry(rng, value) + maybe_unknown(rng, 0.03)
    return bytes(out)


def payload(rng: random.Random) -> bytes:
    """An Example (or SequenceExample) payload."""
    out = bytearray(maybe_unknown(rng, 0.05))
    body = features_body(rng)
    if rng.random() < 0.1:
        cut = rng.randrange(len(body) + 1)
        out += delimited(1, body[:cut]) + delimited(1, body[cut:])  # may split mid-entry
    else:
        out += delimited(1, body)
    if rng.random() < 0.15:
        out += delimited(2, features_body(rng, lists=True))
    if rng.random() < 0.03:
        out += tag(1, 0) + varint(7)  # features with the wrong wire type: unknown
    return bytes(out + maybe_unknown(rng, 0.05))


def mutate(rng: random.Random, data: bytes) -> bytes:
    """Damage: flips, cuts, insertions or a splice."""
    buf = bytearray(data)
    for _ in range(rng.choice([1, 1, 2, 4])):
        op = rng.random()
        if not buf:
            buf += rng.randbytes(3)
        i = rng.randrange(len(buf))
        if op < 0.4:
            buf[i] ^= 1 << rng.randrange(8)
        elif op < 0.55:
            buf[i] = rng.choice([0, 0x80, 0xFF, 0x08, 0x0A, 0x12, 0x1A, 0x0B, 0x0C, 0x7F])
        elif op < 0.7:
            del buf[i:]
        elif op < 0.85:
            buf[i:i] = rng.randbytes(rng.randrange(1, 4))
        else:
            j = rng.randrange(len(buf))
            buf[i:i] = buf[j : j + rng.randrange(1, 8)]
    return bytes(buf)


def case(seed: int, number: int) -> bytes:
    """Case ``number`` of the corpus for ``seed``: always the same bytes."""
    rng = random.Random(seed * 1_000_003 + number)
    data = payload(rng)
    if rng.random() < 0.35:
        data = mutate(rng, data)
    return data
