"""Where a window's long work runs, proved rather than timed: the calls that do it in
the window's process (a dataset's scan or verification, a filter, a sort, a read from a
remote file) are watched where the window reaches them, and each records whether it ran
on the window's thread. A test then asserts that none did, and that the event loop
turned while the work went on: true on an idle machine and on a busy one alike. (How
long the loop waits at most is measured by ``tests/benchmarks/gui_benchmarks.py``.)"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

# (where, name): the long work a window's action may set off in its own process, as the
# window reaches it (a module's imported name, or a class's method)
HEAVY = (
    ("tfr_viewer.core.io.dataset:Dataset", "scan"),
    ("tfr_viewer.core.io.dataset:Dataset", "verify"),
    ("tfr_viewer.app.filtering", "matching"),
    ("tfr_viewer.ui.sorter", "sort_records"),
    ("tfr_viewer.core.io.remote_source:RemoteSource", "readinto_at"),
    ("tfr_viewer.core.io.remote_source:RemoteSource", "read_at"),
)


class WorkPlaces:
    """Records, for each watched call in this process, its function and whether it ran
    on the main (the window's) thread."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, bool]] = []
        self._lock = threading.Lock()

    def wrap(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def watched(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                self.calls.append((name, threading.current_thread() is threading.main_thread()))
            return real(*args, **kwargs)

        return watched

    def on_the_window_thread(self) -> list[str]:
        with self._lock:
            return [name for name, main in self.calls if main]

    def clear(self) -> None:
        with self._lock:
            self.calls.clear()


@pytest.fixture
def work_places(monkeypatch: pytest.MonkeyPatch) -> WorkPlaces:
    import importlib

    places = WorkPlaces()
    for where, name in HEAVY:
        module_name, _, class_name = where.partition(":")
        owner = importlib.import_module(module_name)
        if class_name:
            owner = getattr(owner, class_name)
        label = f"{class_name or module_name}.{name}"
        monkeypatch.setattr(owner, name, places.wrap(label, getattr(owner, name)))
    return places
