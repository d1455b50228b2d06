"""Run a core task (``target(conn, *args)``) in a child process and relay its messages.

Used for CPU-bound Python work that would otherwise compete with the window for the
interpreter lock. Messages are plain data; ``message`` is emitted for each one (from a
reader thread, delivered queued), ``ended`` once the child has gone.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from ..app.jobs import run_child
from ..core.io.inputs_read import read_so_far
from ..core.task_messages import Failed


class SignalGate:
    """Lets a thread emit a QObject's signals only while the object lives."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open = True

    def close(self) -> None:
        with self._lock:
            self._open = False

    def emit(self, owner: QObject, signal: str, *args: object) -> None:
        """``owner.<signal>.emit(*args)`` unless ``owner`` has been deleted (the signal
        is looked up only then: on a deleted object even that touches freed memory)."""
        with self._lock:
            if self._open:
                getattr(owner, signal).emit(*args)


class ProcessTask(QObject):
    message = Signal(object)
    ended = Signal()

    def __init__(
        self, target: Callable[..., None], payload: object = None, parent: QObject | None = None
    ) -> None:
        """``target(conn)`` first receives ``payload`` from ``conn``, then sends messages."""
        super().__init__(parent)
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe(duplex=True)
        read = read_so_far()  # the window's inputs are the job's too
        self._process = ctx.Process(target=run_child, args=(target, child, read), daemon=True)
        self._child = child
        self._payload = payload
        self._thread = threading.Thread(target=self._read, daemon=True, name="tfr-task-reader")
        self.cancelled = False
        # Signals are emitted from the reader thread; once the owner deletes this object
        # (a window closed while the child still runs), emitting would touch freed
        # memory. Deletion and each emit take this lock, so neither overlaps the other.
        gate = self._gate = SignalGate()
        self.destroyed.connect(lambda *_: gate.close())

    def start(self) -> None:
        """Returns at once: starting the child and sending it the payload (which may be
        large) happen on the reader thread, never on the window's thread."""
        self._thread.start()

    def cancel(self) -> None:
        """Terminate the child (it only reads files); ``ended`` still follows."""
        self.cancelled = True
        if self._process.pid is not None and self._process.is_alive():
            self._process.terminate()

    def wait(self, timeout: float = 10) -> None:
        self._thread.join(timeout)

    def _read(self) -> None:
        try:
            self._process.start()
            self._child.close()
            self._conn.send(self._payload)
            while True:
                try:
                    msg = self._conn.recv()
                except (EOFError, OSError):
                    break
                if not self.cancelled:
                    self._gate.emit(self, "message", msg)
        except RuntimeError:  # the owner (a window or dialog) was closed meanwhile
            self.cancelled = True
            if self._process.is_alive():
                self._process.terminate()
        except (OSError, ValueError) as exc:  # the child could not be started or fed
            try:
                failed = Failed("disk", f"cannot start a worker process: {exc}")
                self._gate.emit(self, "message", failed)
            except RuntimeError:
                pass
        finally:
            self._conn.close()
            if self._process.pid is not None:
                self._process.join(timeout=5)
            try:
                self._gate.emit(self, "ended")
            except RuntimeError:
                pass
