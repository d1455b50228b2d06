"""What an operation says while it runs, and how it is stopped.

:class:`TaskState` is the channel between an operation and the front end that runs it:
a scan's position, a phase's progress, a warning, a partial result, and whether to
stop. The base says nothing and never stops (the Python API's and a test's); the
command line's draws a progress line on a terminal and prints warnings on stderr."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..core.io import Dataset

Scan = Callable[[int, int], None]  # (file number, position reached)


class Step(Protocol):
    """A phase's progress: units done (and the total, when it is told as it goes)."""

    def __call__(self, done: int, total: int | None = None, /) -> None: ...


class TaskState:
    """Progress, warnings and cancellation of one operation (the silent base)."""

    @property
    def cancelled(self) -> bool:
        """Whether the front end asked the operation to stop."""
        return False

    @contextmanager
    def scanning(self, ds: Dataset, verify: bool) -> Iterator[Scan]:
        """A scan of ``ds`` (``verify``: checking the CRCs): the callback takes each
        file's position as the scan reaches it."""
        yield _nothing

    @contextmanager
    def phase(self, label: str, total: int, unit: str = "records") -> Iterator[Step]:
        """A phase of ``total`` units (0: told by the callback's second argument)."""
        yield _nothing

    def warn(self, text: str) -> None:
        """Something the user should know that does not stop the operation."""

    def partial(self, result: object) -> None:
        """A part of the report, for a front end that shows it before the end (a
        filter's matches, block by block)."""


def _nothing(*_: object) -> None:
    return None


QUIET = TaskState()
