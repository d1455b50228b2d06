"""Run a directory's tests on the compiled core and on the pure-Python path.

A ``conftest.py`` that imports :func:`hot_path` makes every test in its directory run
once per path that this installation has; both must give the same results.
"""

from __future__ import annotations

import pytest

from tfr_viewer.core import fast

PATHS = ["compiled", "python"] if fast.available() else ["python"]


@pytest.fixture(autouse=True, params=PATHS)
def hot_path(request: pytest.FixtureRequest):
    """The path the test runs on: ``compiled`` or ``python``."""
    before = fast.native() is not None
    fast.use(request.param == "compiled")
    try:
        yield request.param
    finally:
        fast.use(before)
