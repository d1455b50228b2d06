"""``cat``: the bytes of one record, or of one value of a bytes feature, exactly as
TensorFlow reads and parses them; damage, typos and unsafe outputs end in one line."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys

import pytest
from PIL import Image

from tests.tf_oracle import tf, tf_read, tf_write


def _jpeg(color: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (16, 12), color).save(out, "JPEG")
    return out.getvalue()


@pytest.fixture
def dataset(tmp_path):
    t = tf().train
    payloads = []
    for i, color in enumerate(("red", "green", "blue", "white")):
        feature = {
            "image/encoded": t.Feature(bytes_list=t.BytesList(value=[_jpeg(color)])),
            "label": t.Feature(int64_list=t.Int64List(value=[i])),
            "parts": t.Feature(bytes_list=t.BytesList(value=[b"a%d" % i, b"", b"c\x00"])),
        }
        payloads.append(t.Example(features=t.Features(feature=feature)).SerializeToString())
    first = tf_write(tmp_path / "a.tfrecord", payloads[:2])
    second = tf_write(tmp_path / "b.tfrecord", payloads[2:])
    return first, second


def _cat(*args, stdout=subprocess.PIPE):
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "cat", *map(str, args)],
        stdout=stdout,
        stderr=subprocess.PIPE,
        check=False,
    )


def _parsed(path, local: int, key: str) -> list[bytes]:
    t = tf()
    record = tf_read(path)[local]
    spec = {key: t.io.VarLenFeature(t.string)}
    return [bytes(v) for v in t.io.parse_single_example(record, spec)[key].values.numpy()]


def test_cat_writes_what_tensorflow_reads_and_parses(dataset, tmp_path):
    first, second = dataset
    # the whole payload of global record 2 (the first of the second file)
    run = _cat(2, first, second)
    assert run.returncode == 0, run.stderr
    assert run.stdout == tf_read(second)[0]
    # one bytes value: the encoded image, to a file
    out = tmp_path / "3.jpg"
    run = _cat(first, second, 3, "--key", "image/encoded", "-o", out)
    assert run.returncode == 0 and run.stdout == b""
    assert out.read_bytes() == _parsed(second, 1, "image/encoded")[0]
    assert Image.open(out).size == (16, 12)
    # each value of a list, the empty one and one with a NUL byte included
    for n in range(3):
        run = _cat(1, first, "--key", "parts", "--value", n)
        assert run.returncode == 0 and run.stdout == _parsed(first, 1, "parts")[n]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--key", "image/encodd"], "did you mean 'image/encoded'?"),
        (["--key", "label"], "holds int64 values, not bytes"),
        (["--key", "parts", "--value", "3"], "holds 3 values; --value 3 is not one of them"),
        (["--key", "parts", "--value", "-1"], "--value -1 is not one of them"),
    ],
)
def test_cat_says_what_the_record_holds_instead(dataset, args, said):
    first, _ = dataset
    run = _cat(0, first, *args)
    err = run.stderr.decode()
    assert run.returncode == 2 and run.stdout == b""
    assert said in err and err.count("\n") == 1 and "Traceback" not in err
    assert "record 0 (" in err and "byte 0" in err


def test_cat_of_a_missing_record_or_no_number_is_a_usage_error(dataset):
    first, second = dataset
    run = _cat(4, first, second)
    assert run.returncode == 2 and b"record 4 does not exist" in run.stderr
    assert b"has 4 records" in run.stderr
    run = _cat(first, second)
    assert run.returncode == 2 and b"cat INDEX PATH" in run.stderr


def test_cat_refuses_a_damaged_record_and_names_where_it_is(dataset):
    first, _ = dataset
    data = bytearray(first.read_bytes())
    data[-10] ^= 0x01  # a bit of record 1's payload
    first.write_bytes(bytes(data))
    run = _cat(1, first, "--key", "image/encoded")
    err = run.stderr.decode()
    assert run.returncode == 1 and run.stdout == b""
    assert "damaged (bad_data_crc)" in err and str(first) in err and "recover" in err
    assert _cat(0, first).returncode == 0  # the intact record before it is still served


def test_cat_never_writes_over_an_input_or_an_existing_file(dataset, tmp_path):
    first, _ = dataset
    before = first.read_bytes()
    link = tmp_path / "link.bin"
    os.symlink(first, link)
    run = _cat(0, first, "-o", link, "--overwrite")
    assert run.returncode == 2 and first.read_bytes() == before
    assert run.stderr.count(b"\n") == 1
    kept = tmp_path / "kept.bin"
    kept.write_bytes(b"mine")
    run = _cat(0, first, "-o", kept)
    assert run.returncode == 2 and kept.read_bytes() == b"mine" and b"--overwrite" in run.stderr
    assert _cat(0, first, "-o", kept, "--overwrite").returncode == 0
    assert kept.read_bytes() == tf_read(first)[0]


def test_cat_does_not_pour_bytes_into_a_terminal(dataset):
    first, _ = dataset
    leader, follower = pty.openpty()
    try:
        run = _cat(0, first, stdout=follower)
    finally:
        os.close(follower)
    os.set_blocking(leader, False)
    try:
        shown = os.read(leader, 4096)
    except (BlockingIOError, OSError):
        shown = b""
    os.close(leader)
    assert run.returncode == 2 and shown == b""
    assert b"-o FILE" in run.stderr
