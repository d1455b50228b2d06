"""`recover` and `export` from the command line, on real damaged files."""

from __future__ import annotations

import json
import struct

import pytest

from tests.tf_oracle import tf_read
from tfr_viewer.cli import main
from tfr_viewer.core.io.framing import encode_frame, encode_header

PAYLOADS = [bytes([65 + i]) * (40 + i) for i in range(12)]


def damaged_variants():
    frames = [encode_frame(p) for p in PAYLOADS]

    def flip(k: int, where: int) -> list[bytes]:
        fs = list(frames)
        b = bytearray(fs[k])
        b[where] ^= 0x08
        fs[k] = bytes(b)
        return fs

    big = list(frames)
    b = bytearray(big[6])
    b[:12] = encode_header(2**63)
    big[6] = bytes(b)
    raw = list(frames)
    r = bytearray(raw[2])
    r[:8] = struct.pack("<Q", 2**63)
    raw[2] = bytes(r)
    whole = b"".join(frames)
    return {
        "length_crc": (b"".join(flip(3, 9)), [3]),
        "payload": (b"".join(flip(5, 20)), [5]),
        "payload_crc": (b"".join(flip(7, -1)), [7]),
        "truncated": (whole[:-9], [11]),
        "garbage": (b"".join(frames[:4]) + b"\x07" * 37 + b"".join(frames[4:]), []),
        "length_2_63_fixed_crc": (b"".join(big), [6]),
        "length_2_63": (b"".join(raw), [2]),
    }


@pytest.mark.parametrize("name", sorted(damaged_variants()))
def test_recover_gives_exactly_the_intact_records(tmp_path, capsys, name):
    blob, lost = damaged_variants()[name]
    src = tmp_path / "in.tfrecord"
    src.write_bytes(blob)
    out = tmp_path / "out.tfrecord"
    assert main(["recover", str(src), "-o", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert tf_read(out) == [p for i, p in enumerate(PAYLOADS) if i not in lost]
    assert report["records"] == len(PAYLOADS) - len(lost)
    assert report["lost"] and all("offset" in p for p in report["lost"])
    assert src.read_bytes() == blob


def test_export_with_filter_and_options(tmp_path, capsys):
    src = tmp_path / "in.tfrecord"
    src.write_bytes(b"".join(encode_frame(p) for p in PAYLOADS))
    out = tmp_path / "sel.tfrecord"
    code = main(
        [
            "export",
            str(src),
            "-o",
            str(out),
            "--filter",
            "length > 45",
            "--compression",
            "zlib",
            "--shards",
            "2",
            "--json",
        ]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["records"] == 6 and len(summary["files"]) == 2
    assert tf_read(summary["files"], "zlib") == PAYLOADS[6:]
    assert main(["export", str(src), "-o", str(out), "--split", "a=0.5"]) == 2
    assert "add up" in capsys.readouterr().err
    assert main(["export", str(src), "-o", str(src)]) == 2
    assert "source" in capsys.readouterr().err


def test_export_other_formats(tmp_path, capsys):
    from pathlib import Path

    samples = Path(__file__).resolve().parents[2] / "resources" / "samples"
    src = str(samples / "shapes_odapi.tfrecord")
    assert main(["export", src, "-o", str(tmp_path / "imgs"), "--format", "images"]) == 0
    assert "images" in capsys.readouterr().out
    names = sorted(p.name for p in (tmp_path / "imgs").iterdir())
    assert len(names) == 24 and names[0] == "record-0.jpg"  # boxes are not image classes
    assert main(["export", src, "-o", str(tmp_path / "a.jsonl"), "--format", "jsonl"]) == 0
    assert len((tmp_path / "a.jsonl").read_text().splitlines()) == 24


def test_export_says_what_is_missing_and_when_nothing_goes_out(tmp_path, capsys):
    for i in (0, 2):  # member 00001 of the set is missing
        path = tmp_path / f"train-{i:05d}-of-00003"
        path.write_bytes(b"".join(encode_frame(p) for p in PAYLOADS[:3]))
    (tmp_path / "train-empty.tfrecord").write_bytes(b"")
    out = tmp_path / "out.tfrecord"
    assert main(["export", str(tmp_path / "train-*"), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "1 of 3 shards missing (00001)" in err and "train-empty.tfrecord: is empty" in err
    assert tf_read([str(out)]) == PAYLOADS[:3] * 2

    one = tmp_path / "one.tfrecord"
    one.write_bytes(b"".join(encode_frame(p) for p in PAYLOADS[:3]))
    empty = tmp_path / "out-none.tfrecord"
    args = ["export", str(one), "-o", str(empty)]
    assert main([*args, "--filter", "length > 1000"]) == 0
    assert "warning: no intact record matches the filter, so the output holds none" in (
        capsys.readouterr().err
    )
    assert tf_read([str(empty)]) == []
    assert main([*args, "--filter", "length > 1000", "--overwrite", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["warnings"] == [
        "no intact record matches the filter, so the output holds none"
    ]
    assert captured.err == ""  # with --json the warnings are in the output
    jsonl = tmp_path / "none.jsonl"
    argv = ["export", str(one), "-o", str(jsonl), "--format", "jsonl", "--json"]
    assert main([*argv, "--filter", "length > 1000"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["written"] == 0 and result["warnings"] == [
        "no intact record matches the filter, so the output holds none"
    ]
    damaged = tmp_path / "damaged.tfrecord"
    frame = encode_frame(b"x" * 40)
    damaged.write_bytes(frame[:-1] + bytes([frame[-1] ^ 1]))  # its data CRC is wrong
    assert main(["export", str(damaged), "-o", str(tmp_path / "d.tfrecord")]) == 0
    assert "warning: no record is intact, so the output holds none" in capsys.readouterr().err
