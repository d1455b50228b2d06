"""Stopping a worker that runs in a QThread and polls a CancelToken."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QThread


def stop_worker(worker: Any, thread: QThread | None) -> None:
    """Cancel ``worker`` (its ``token``) and wait for ``thread`` to end; both may be None."""
    if worker is not None:
        worker.token.cancel()
    if thread is not None:
        thread.quit()
        thread.wait()
