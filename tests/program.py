"""The ``tfr-viewer`` program run as a user runs it: ``python -m tfr_viewer`` in a
process of its own, for the tests that check its exit code, stdout and stderr."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import IO


def program(
    *argv: str,
    env: dict[str, str] | None = None,
    drop: tuple[str, ...] = (),
    stdout: IO[str] | None = None,
    timeout: float = 300,
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m tfr_viewer ARGV`` and wait: ``env`` over this process's
    environment, without the variables named in ``drop``; standard output into
    ``stdout`` when given (else captured), standard error captured, both as text."""
    environment = {k: v for k, v in os.environ.items() if k not in drop}
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *argv],
        stdout=stdout if stdout is not None else subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        timeout=timeout,
        env={**environment, **(env or {})},
    )
