"""rapidgzip's own messages stay off standard error; everything else written there
meanwhile (another thread's report, the window's traceback) still reaches it."""

from __future__ import annotations

import gzip
import subprocess
import sys
import textwrap

from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.io.quiet_stderr import keep

PROGRAM = textwrap.dedent(
    """
    import os, sys, threading
    import rapidgzip
    from tfr_viewer.core.io.quiet_stderr import quiet_stderr

    path = sys.argv[1]
    reader = rapidgzip.RapidgzipFile(path, parallelization=2)
    other = threading.Thread(target=lambda: os.write(2, b"another thread: still here\\n"))
    with quiet_stderr():
        os.write(2, b"before the read\\n")
        other.start()
        other.join()
        try:
            reader.seek(0)
            reader.readinto(bytearray(1000))  # rapidgzip prints its message, then raises
        except Exception as exc:
            print("raised", type(exc).__name__, flush=True)
        print("a Python report", file=sys.stderr, flush=True)
    reader.close()
    os.write(2, b"after\\n")
    """
)


def _cut_gzip(tmp_path):
    """A GZIP stream of frames cut inside its first block: rapidgzip prints, then raises."""
    small = gzip.compress(b"".join(encode_frame(b"a" * 50) for _ in range(20)))
    path = tmp_path / "cut.gz"
    path.write_bytes(small[:40])
    return path


def test_rapidgzip_lines_are_dropped_and_the_rest_kept_in_order(tmp_path):
    path = _cut_gzip(tmp_path)
    loud = subprocess.run(
        [sys.executable, "-c", PROGRAM.replace("with quiet_stderr():", "if True:"), str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Unexpected end of file when getting block" in loud.stderr  # the attack is real
    run = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(path)], capture_output=True, text=True, check=True
    )
    assert run.stdout.startswith("raised")
    assert run.stderr.splitlines() == [
        "before the read",
        "another thread: still here",
        "a Python report",
        "after",
    ]


def test_only_rapidgzip_lines_are_filtered():
    captured = (
        b"Unexpected end of file when getting block at 10 B 0 b (block index: 0) on demand\n"
        b"Traceback (most recent call last):\n"
        b"[Warning] Trailing garbage after EOF ignored!\n"
        b"  a line that mentions [Warning] inside\n"
    )
    assert keep(captured) == (
        b"Traceback (most recent call last):\n  a line that mentions [Warning] inside\n"
    )
