"""Compressed files that fail late, built as the attacks built them: every record
decoded before the failure is indexed, the damage is reported where it is, and
`recover` saves the records (as a subprocess: exit codes and stderr)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import zlib

import pytest

from tests.tf_oracle import tf_read, tf_write
from tfr_viewer.core.io import Compression, Dataset
from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.io.inflate import inflate

PAYLOADS = [os.urandom(300) + b"x" * 2000 for _ in range(200)]
RAW = b"".join(encode_frame(p) for p in PAYLOADS)


def variants(tmp_path):
    g = gzip.compress(RAW)
    z = zlib.compress(RAW)
    small = gzip.compress(b"".join(encode_frame(b"a" * 50) for _ in range(20)))
    cases = {
        "gzip cut in half": (g[: len(g) // 2], "truncated", "cut"),
        "gzip + zeros": (g + b"\0" * 100, "garbage", range(200)),
        "gzip + garbage": (g + b"garbage!" * 10, "garbage", range(200)),
        "gzip bad crc": (g[:-8] + b"\1\2\3\4" + g[-4:], "truncated", range(200)),
        "zlib cut in half": (z[: len(z) // 2], "truncated", "cut"),
        "zlib bad adler": (z[:-4] + b"\0\0\0\0", "truncated", range(200)),
        "zlib + zeros": (z + b"\0" * 50, "garbage", range(200)),
    }
    out = {}
    for name, (data, kind, intact) in cases.items():
        path = tmp_path / (name.replace(" ", "_") + ".tfrecord")
        path.write_bytes(data)
        if intact == "cut":  # the records that end within what still decodes
            decoded = inflate(str(path), Compression.GZIP if name[0] == "g" else Compression.ZLIB)
            ends = [sum(len(encode_frame(p)) for p in PAYLOADS[: i + 1]) for i in range(200)]
            intact = [i for i, end in enumerate(ends) if end <= decoded.size]
            decoded.close()
            assert 80 < len(intact) < 120
        out[name] = (path, kind, list(intact))
    path = tmp_path / "small_cut.tfrecord.gz"
    path.write_bytes(small[:40])
    out["small gzip cut"] = (path, "truncated", None)
    return out


@pytest.mark.parametrize(
    "name",
    [
        "gzip cut in half",
        "gzip + zeros",
        "gzip + garbage",
        "gzip bad crc",
        "zlib cut in half",
        "zlib bad adler",
        "zlib + zeros",
        "small gzip cut",
    ],
)
def test_late_failures_keep_what_decodes(tmp_path, name):
    path, kind, intact = variants(tmp_path)[name]
    with Dataset([str(path)]) as ds:
        ds.index()
        stream = [p for p in ds.problems() if p.region]
        assert len(stream) == 1 and stream[0].kind == kind, ds.problems()
        assert stream[0].offset > 0  # where the damage is, not byte 0
        if intact is not None:
            assert ds.intact().tolist() == intact
            assert [ds.read(i) for i in intact] == [PAYLOADS[i] for i in intact]
    run = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "verify", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1, run.stderr  # never "OK"
    assert run.stderr == ""  # rapidgzip's own messages stay off the terminal
    assert any(p["kind"] == kind for p in json.loads(run.stdout)["problems"])


def test_recover_saves_the_records_before_a_late_failure(tmp_path):
    path, _, intact = variants(tmp_path)["gzip cut in half"]
    out = tmp_path / "saved.tfrecord"
    run = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "recover", str(path), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert tf_read(out) == [PAYLOADS[i] for i in intact]


def test_sound_streams_are_untouched(tmp_path):
    for compression in ("gzip", "zlib"):
        path = tf_write(tmp_path / f"ok.{compression}", PAYLOADS[:30], compression)
        with Dataset([str(path)]) as ds:
            ds.index()
            assert ds.problems() == [] and len(ds) == 30
    whole = inflate(str(path), Compression.ZLIB)
    assert whole.problem is None and whole.size == len(
        RAW[: sum(len(encode_frame(p)) for p in PAYLOADS[:30])]
    )
    whole.close()
    two = tmp_path / "two_members.gz"
    two.write_bytes(gzip.compress(RAW[:1000]) + gzip.compress(RAW[1000:3000]))
    both = inflate(str(two), Compression.GZIP)
    assert both.problem is None and both.read_at(0, 3000) == RAW[:3000]
    both.close()


def test_bytes_before_damage_inside_one_deflate_block_are_kept(tmp_path):
    """zlib drops the output of a call that fails; a stream whose only block is damaged
    in the middle must still give back everything before the damage."""
    import gzip as gz
    import random

    rng = random.Random(51)
    kept = []
    for i in range(30):
        # text from a small alphabet: one dynamic Huffman block, so damage in the middle
        # is a decoding error there, not just wrong bytes
        raw = "".join(rng.choices("abcdefghijklmnop ", k=40_000)).encode()
        data = bytearray(gz.compress(raw))
        middle = len(data) // 2
        data[middle : middle + 32] = b"\0" * 32
        path = tmp_path / f"c{i}.gz"
        path.write_bytes(bytes(data))
        decoded = inflate(str(path), Compression.GZIP)
        got = decoded.read_at(0, decoded.size)
        assert decoded.problem is not None
        assert got[:15_000] == raw[:15_000] and len(got) >= 15_000, (i, len(got))
        kept.append(len(got))
    assert min(kept) < 30_000  # some files stop decoding at the damage (others decode
    # wrong bytes there, which only the checksum at the end shows)
