"""Every CRC32C path of the compiled core, bit for bit against a bit-at-a-time
reference: the one this CPU runs (built natively), and the arm64 one (built with a cross
compiler and run under qemu's user-mode emulator, skipped with the reason where those
are not installed)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HARNESS = Path(__file__).with_name("crc_harness.c")


def _build_and_run(cc: str, tmp_path: Path, runner: list[str], *flags: str) -> str:
    exe = tmp_path / "crc_harness"
    build = subprocess.run(
        [cc, "-O2", "-Wall", "-Werror", *flags, f"-I{ROOT / 'native'}", str(HARNESS)]
        + [str(ROOT / "native" / "crc32c.c"), "-o", str(exe)],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    run = subprocess.run([*runner, str(exe)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == "0 mismatches"
    return run.stdout.splitlines()[0]


def test_the_native_paths_match_the_reference(tmp_path):
    cc = os.environ.get("CC", "gcc")
    if shutil.which(cc) is None:
        pytest.skip(f"no C compiler ({cc})")
    path = _build_and_run(cc, tmp_path, [])
    if os.uname().machine in ("x86_64", "AMD64"):
        with open("/proc/cpuinfo") as f:
            has_sse42 = " sse4_2" in f.read()
        assert path == ("SSE 4.2, three streams" if has_sse42 else "portable (slicing-by-8)")


def test_the_arm64_path_matches_the_reference_under_emulation(tmp_path):
    cc, emulator = "aarch64-linux-gnu-gcc", "qemu-aarch64"
    missing = [tool for tool in (cc, emulator) if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not installed (apt: gcc-aarch64-linux-gnu qemu-user)")
    assert _build_and_run(cc, tmp_path, [emulator], "-static") == "ARMv8 CRC, three streams"
