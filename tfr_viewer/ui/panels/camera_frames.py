"""An episode's camera pictures decoded ahead of the player, on worker threads.

The player asks for the steps it will show (:meth:`FrameCache.want`); each step's
pictures (every camera's) are decoded whole by the core's preview decoding, scaled to
at most ``side`` pixels a side, and handed back on the window's thread (``ready``). A
bounded number of steps is kept, the least recently shown first to go; a new episode
forgets the old one's, and pictures of an old episode that arrive late are dropped."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QImage

from ...core.decode.episodes import Episode
from ...core.decode.images import ImageError, decode_preview
from ..viewers.image_view import to_qimage

KEPT = 48  # steps whose pictures are kept
SIDE = 320  # pixels a side at most, as decoded for the player


@dataclass(frozen=True)
class Frame:
    """One camera's picture at one step: ``image``, or why there is none
    (``problem``)."""

    image: QImage | None
    problem: str = ""


class FrameCache(QObject):
    """``ready(step)`` fires when every camera's picture of ``step`` of the current
    episode is decoded; :meth:`frames` gives them."""

    ready = Signal(int)
    _done = Signal(int, int, object)  # generation, step, frames (from a worker)

    def __init__(self, parent: QObject | None = None, workers: int = 2, side: int = SIDE) -> None:
        super().__init__(parent)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tfr-frames")
        self._side = side
        self._episode: Episode | None = None
        self._generation = 0
        self._kept: OrderedDict[int, list[Frame]] = OrderedDict()
        self._asked: set[int] = set()
        self._done.connect(self._arrived)
        self.destroyed.connect(lambda *_: self._pool.shutdown(wait=False, cancel_futures=True))

    def set_episode(self, episode: Episode | None) -> None:
        """Forget the pictures of the episode before; decode ``episode``'s from now."""
        self._episode = episode
        self._generation += 1
        self._kept.clear()
        self._asked.clear()

    def frames(self, step: int) -> list[Frame] | None:
        """The pictures of ``step``, one a camera; None while they are not decoded."""
        found = self._kept.get(step)
        if found is not None:
            self._kept.move_to_end(step)
        return found

    def want(self, steps: Iterable[int]) -> None:
        """Decode the pictures of ``steps`` (in that order), those not kept or asked
        for already."""
        episode = self._episode
        if episode is None:
            return
        for step in steps:
            if not 0 <= step < episode.length or step in self._kept or step in self._asked:
                continue
            self._asked.add(step)
            pictures = [episode.steps[camera][step] for camera in episode.cameras]
            future = self._pool.submit(_decoded, pictures, self._side)
            future.add_done_callback(partial(self._deliver, generation=self._generation, step=step))

    def _deliver(self, future: Future[list[Frame]], *, generation: int, step: int) -> None:
        if future.cancelled():
            return
        error = future.exception()
        frames = future.result() if error is None else [Frame(None, str(error))]
        try:
            self._done.emit(generation, step, frames)
        except RuntimeError:  # the cache is gone (its window closed)
            pass

    def _arrived(self, generation: int, step: int, frames: list[Frame]) -> None:
        if generation != self._generation:
            return  # an episode shown before
        self._asked.discard(step)
        self._kept[step] = frames
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        self.ready.emit(step)


def _decoded(pictures: list[bytes], side: int) -> list[Frame]:
    """Every camera's picture of one step, decoded (on a worker)."""
    out = []
    for data in pictures:
        try:
            rgba, _, _ = decode_preview(bytes(data), side)
        except ImageError as exc:
            out.append(Frame(None, str(exc)))
            continue
        out.append(Frame(to_qimage(rgba)))
    return out
