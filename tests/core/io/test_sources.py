"""Compression is detected from content, and compressed files allow random access."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import zlib

import pytest

from tests.tf_oracle import tf_write
from tfr_viewer.core.io.framing import Compression, encode_frame
from tfr_viewer.core.io.sources import (
    CompressedSource,
    PlainSource,
    SourceError,
    detect_compression,
    open_source,
)


@pytest.mark.parametrize("compression", ["none", "gzip", "zlib"])
def test_detects_tensorflow_compression_whatever_the_name(tmp_path, compression):
    # Misleading names on purpose: detection must look at the bytes.
    name = {"none": "x.gz", "gzip": "x.tfrecord", "zlib": "x.gz"}[compression]
    path = tf_write(tmp_path / name, [b"abc" * 100] * 10, compression)
    with open_source(path) as src:
        assert src.compression is Compression(compression)
        assert src.read_at(0, 12) == encode_frame(b"abc" * 100)[:12]


def test_a_plain_file_whose_length_looks_like_a_zlib_header_is_plain():
    frame = encode_frame(b"x" * 0x9C78)  # length bytes start with 78 9c
    assert frame[:2] == b"\x78\x9c"
    assert detect_compression(frame[:64]) is Compression.NONE


def test_garbage_with_a_zlib_like_start_that_does_not_inflate_is_plain():
    assert detect_compression(b"\x78\x9c" + b"\xff" * 30) is Compression.NONE
    assert detect_compression(b"") is Compression.NONE


def test_random_access_into_gzip_and_zlib(tmp_path):
    data = b"".join(encode_frame(os.urandom(1000)) for _ in range(3000))
    for name, blob in [("g", gzip.compress(data)), ("z", zlib.compress(data))]:
        path = tmp_path / name
        path.write_bytes(blob)
        with open_source(path) as src:
            assert isinstance(src, CompressedSource)
            for offset in (2_000_000, 17, 1_500_000, 0, len(data) - 5):
                assert src.read_at(offset, 100) == data[offset : offset + 100]
            assert src.read_at(len(data) - 5, 100) == data[-5:]
            assert src.size == len(data)


def test_reading_a_closed_source_says_so(tmp_path):
    path = tmp_path / "a.tfrecord"
    path.write_bytes(encode_frame(b"abc"))
    src = open_source(path)
    assert isinstance(src, PlainSource)
    src.close()
    src.close()
    with pytest.raises(SourceError, match="closed"):
        src.read_at(0, 1)


def test_missing_and_folder_paths_give_clear_errors(tmp_path):
    with pytest.raises(SourceError, match="cannot be read"):
        open_source(tmp_path / "nope.tfrecord")
    with pytest.raises(SourceError, match="folder"):
        open_source(tmp_path)


def test_interpreter_exits_cleanly_with_a_reader_left_open(tmp_path):
    path = tmp_path / "a.gz"
    path.write_bytes(gzip.compress(encode_frame(b"abc") * 1000))
    code = (
        "from tfr_viewer.core.io.sources import open_source\n"
        f"s = open_source({str(path)!r})\n"
        "assert s.read_at(0, 3)\n"
        "print('done')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "done"


def test_a_file_that_says_it_is_empty_but_gives_data_is_not_a_tfrecord(
    tmp_path, monkeypatch, capsys
):
    """Files the system makes up as they are read (/proc/cpuinfo) report 0 bytes: they
    are called what they are, exit 2, never "0 records: OK"."""
    import os

    from tfr_viewer.cli import main

    fake = tmp_path / "cpuinfo"
    fake.write_text("processor\t: 0\nvendor_id\t: GenuineIntel\n")
    real_fstat = os.fstat

    def lying_fstat(fd):
        st = real_fstat(fd)
        if os.path.samefile(f"/proc/self/fd/{fd}", fake):
            return os.stat_result(
                (
                    st.st_mode,
                    st.st_ino,
                    st.st_dev,
                    st.st_nlink,
                    st.st_uid,
                    st.st_gid,
                    0,
                    st.st_atime,
                    st.st_mtime,
                    st.st_ctime,
                )
            )
        return st

    monkeypatch.setattr(os, "fstat", lying_fstat)
    for command in ("verify", "info", "count"):
        assert main([command, str(fake)]) == 2
        err = capsys.readouterr().err
        assert "not a TFRecord file: it says it holds 0 bytes" in err, err
        assert "OK" not in err


@pytest.mark.skipif(
    not hasattr(os, "posix_fadvise") or not hasattr(os, "RWF_NOWAIT"),
    reason="the system can neither be asked to fetch nor asked what it holds",
)
def test_a_plain_file_is_asked_ahead_only_for_bytes_not_in_memory(tmp_path, monkeypatch):
    """Asking the system to fetch bytes it already holds costs a walk over their pages,
    so a prefetch of a cached range asks nothing; once the file is dropped from the
    cache, it asks for exactly the range."""
    from tfr_viewer.core.io.plain_source import PlainSource

    path = tmp_path / "cached.tfrecord"
    path.write_bytes(os.urandom(1 << 20))
    asked: list[tuple[int, int, int]] = []
    real = os.posix_fadvise

    def advise(fd, offset, n, advice):  # noqa: ANN001, ANN202
        asked.append((offset, n, advice))
        return real(fd, offset, n, advice)

    source = PlainSource(str(path))
    try:
        source.read_at(0, 1 << 20)  # in the cache now
        monkeypatch.setattr(os, "posix_fadvise", advise)
        source.prefetch(4096, 500_000)
        assert asked == []
        # bytes the system no longer holds (whether a page is dropped is the kernel's
        # to decide, and a look at it may bring it back: the answer is given here)
        monkeypatch.setattr(source, "_cached", lambda offset: False)
        source.prefetch(4096, 500_000)
        assert asked == [(4096, 500_000, os.POSIX_FADV_WILLNEED)]
    finally:
        source.close()
