"""The compiled core under AddressSanitizer: the generated corpus never makes it read or
write outside its buffers. Skipped, with the reason, where the compiler cannot build
with the sanitizer."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CASES = 100_000


def _asan_build(folder: Path, native: Path = ROOT / "native") -> tuple[Path, str]:
    cc = os.environ.get("CC", "gcc")
    runtime = subprocess.run(
        [cc, "-print-file-name=libasan.so"], capture_output=True, text=True
    ).stdout.strip()
    if not runtime or not os.path.isabs(runtime) or not os.path.exists(runtime):
        pytest.skip(f"{cc} has no AddressSanitizer runtime (libasan.so)")
    out = folder / ("_fast" + sysconfig.get_config_var("EXT_SUFFIX"))
    sources = sorted(str(p) for p in native.glob("*.c"))
    build = subprocess.run(
        [
            cc,
            "-shared",
            "-fPIC",
            "-g",
            "-O1",
            "-fsanitize=address",
            "-fno-omit-frame-pointer",
            f"-I{sysconfig.get_paths()['include']}",
            *sources,
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
    )
    if build.returncode:
        pytest.skip(f"{cc} cannot build with -fsanitize=address: {build.stderr[-300:]}")
    return out, runtime


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="the sanitizer run is set up for Linux")
def test_the_corpus_under_address_sanitizer(tmp_path):
    module, runtime = _asan_build(tmp_path)
    env = dict(
        os.environ,
        LD_PRELOAD=runtime,
        PYTHONMALLOC="malloc",
        ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",
    )
    run = subprocess.run(
        [sys.executable, "-m", "tests.native.asan_harness", str(module), str(CASES)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert f"{CASES} cases clean" in run.stdout


def test_the_harness_would_catch_a_read_past_the_end(tmp_path):
    """A deliberately broken build (reading one byte past each payload) must abort."""
    if sys.platform != "linux":
        pytest.skip("the sanitizer run is set up for Linux")
    broken = tmp_path / "native"
    broken.mkdir()
    for source in (ROOT / "native").iterdir():
        text = source.read_text()
        if source.name == "columns.c":
            marker = "        int st = record_parse(&rec, p, n, 0);"
            assert marker in text
            text = text.replace(
                marker, "        volatile uint8_t past = p[n];\n        (void)past;\n" + marker
            )
        (broken / source.name).write_text(text)
    module, runtime = _asan_build(tmp_path, broken)
    env = dict(os.environ, LD_PRELOAD=runtime, PYTHONMALLOC="malloc", ASAN_OPTIONS="detect_leaks=0")
    run = subprocess.run(
        [sys.executable, "-m", "tests.native.asan_harness", str(module), "20"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode != 0
    assert "heap-buffer-overflow" in run.stderr
