"""The image-content checks of :mod:`.checks`: every image is decoded once, which gives
its verdict (:mod:`..decode.image_verdict`) and its scores (in parallel, on the pool of
threads of :func:`..decode.image_verdict.image_pool`), and the findings that need the
whole dataset (near-duplicates, odd sizes, grey among colour) come after the pass."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..decode.episodes import is_step_key
from ..decode.image_verdict import ImageVerdict, image_pool
from .image_quality import ImageScores, Thresholds, flagged, judge_and_score, near_pairs

Note = Callable[..., None]  # (kind, message, record, **where)
AHEAD = 2  # batches left decoding on the pool while the caller reads the next records
_SWAPPING = {5, 6, 7, 8}  # EXIF orientations that turn the image by 90 degrees


Scored = tuple[ImageVerdict, ImageScores | None]
# the verdicts and scores of the images this process judged lately, by SHA-256: a
# picture in many splits (or checked again) is decoded once per process
_SCORED: dict[bytes, Scored] = {}
_SCORED_MOST = 1 << 15
_SCORED_LOCK = threading.Lock()


def _judge_and_keep(data: bytes, digest: bytes) -> Scored:
    result = judge_and_score(data)
    with _SCORED_LOCK:
        _SCORED[digest] = result
        while len(_SCORED) > _SCORED_MOST:
            del _SCORED[next(iter(_SCORED))]
    return result


def _scored(digest: bytes) -> Future[Any] | None:
    """The remembered result of ``digest`` as a finished future, or None."""
    with _SCORED_LOCK:
        result = _SCORED.get(digest)
    if result is None:
        return None
    done: Future[Any] = Future()
    done.set_result(result)
    return done


@dataclass(frozen=True)
class Seen:
    """A scored image: where it is, and its SHA-256 (which says whether it is the first
    copy of its bytes)."""

    record: int
    key: str
    scores: ImageScores
    digest: bytes = b""


class ImageChecks:
    """Collects images with :meth:`add`, judges and scores them in batches (reporting
    what does not decode through ``note`` as it goes), reports the rest with
    :meth:`finish`. The scores of other passes join with :meth:`take` (in record order),
    and :meth:`drop` forgets images found to be later copies of others."""

    def __init__(
        self, limits: Thresholds | None = None, batch: int = 256, note: Note | None = None
    ) -> None:
        self.limits = limits or Thresholds()
        self.batch = batch
        self.note = note
        self._pending: list[tuple[int, str, bytes, bytes]] = []
        self._seen: list[Seen] = []
        self._judged: dict[bytes, tuple[str, str] | None] = {}  # digest -> finding
        # batches being decoded on the pool while the caller reads on: (images, futures)
        self._running: list[
            tuple[list[tuple[int, str, bytes, bytes]], dict[bytes, Future[Any]]]
        ] = []
        self._queued: set[bytes] = set()  # digests of the running batches' images
        self._asked: set[bytes] = set()  # digests first seen among the pending images

    def add(self, record: int, key: str, data: bytes | memoryview, digest: bytes) -> None:
        """Queue an image (``data`` is not used after the call returns); a byte-identical
        copy of one already queued is judged by the first copy's verdict, and scored
        only once."""
        new = not (
            digest in self._judged
            or digest in self._queued
            or digest in self._asked
            or digest in _SCORED
        )
        if new:  # kept for its decode: a copy, as ``data`` may be a view of a reused buffer
            self._asked.add(digest)
        self._pending.append((record, key, bytes(data) if new else b"", digest))
        if len(self._pending) >= self.batch:
            self.flush()

    def flush(self, wait: bool = False) -> None:
        """Send the pending images to the pool; take the results of earlier batches in
        order, keeping :data:`AHEAD` batches decoding (all of them with ``wait``)."""
        if self._pending:
            pending, self._pending = self._pending, []
            self._asked = set()
            pool = image_pool()
            fresh: dict[bytes, Future[Any]] = {}
            for _, _, data, digest in pending:
                if (
                    digest not in self._judged
                    and digest not in self._queued
                    and digest not in fresh
                ):
                    fresh[digest] = _scored(digest) or pool.submit(_judge_and_keep, data, digest)
            self._queued |= fresh.keys()
            self._running.append((pending, fresh))
        while self._running and (wait or len(self._running) > AHEAD):
            self._take(*self._running.pop(0))

    def _take(
        self, pending: list[tuple[int, str, bytes, bytes]], fresh: dict[bytes, Future[Any]]
    ) -> None:
        """The verdicts and scores of one batch, noted in record order."""
        for record, key, _, digest in pending:
            future = fresh.pop(digest, None)
            if future is not None:
                verdict, scores = future.result()
                self._queued.discard(digest)
                self._judged[digest] = verdict.finding
                if scores is not None:
                    self._seen.append(Seen(record, key, scores, digest))
            finding = self._judged[digest]
            if finding is not None and self.note is not None:
                self.note(finding[0], finding[1], record, feature=key)

    def scored(self) -> list[Seen]:
        """Every image scored so far (all of them, once pending ones are scored)."""
        self.flush(wait=True)
        return self._seen

    def take(self, seen: list[Seen]) -> None:
        """Add the scores of a pass over later records."""
        self._seen.extend(seen)

    def drop(self, copies: set[tuple[int, bytes]]) -> None:
        """Forget the images of ``(record, digest)`` pairs: copies of an earlier record's
        image, which the first copy's scores stand for."""
        if copies:
            self._seen = [s for s in self._seen if (s.record, s.digest) not in copies]

    def close(self) -> None:
        """Score what is pending (kept for callers that end a pass)."""
        self.flush(wait=True)

    def finish(self, note: Note, exact: set[tuple[int, int]]) -> None:
        """Report every finding through ``note``; ``exact`` holds (first, later) record
        pairs already reported as byte-identical, which are not near-duplicates too."""
        self.flush(wait=True)
        seen = self._seen
        for s in seen:
            for issue, value, limit in flagged(s.scores, self.limits):
                note(
                    f"image_{issue}",
                    f"{issue.replace('_', ' ')} score {value:.3f} is below {limit:g}",
                    s.record,
                    feature=s.key,
                )
            if s.scores.orientation in _SWAPPING:
                note(
                    "exif_rotation",
                    f"EXIF orientation {s.scores.orientation} turns the {s.scores.width}×"
                    f"{s.scores.height} image to {s.scores.height}×{s.scores.width}",
                    s.record,
                    feature=s.key,
                )
        if not seen:
            return
        self._grey_among_colour(seen, note)
        self._odd_sizes(seen, note)
        # the frames of an episode's camera look alike, within an episode and from one to
        # the next: near copies are looked for among other pictures (a camera that stops
        # updating is camera_frozen, an episode recorded twice episode_duplicate)
        seen = [s for s in seen if not is_step_key(s.key)]
        hashes = np.array([s.scores.dhash for s in seen], dtype=np.uint64)
        reported: set[int] = set()  # each image is named once, with its first look-alike
        for i, j, distance in near_pairs(hashes, self.limits.near_bits):
            a, b = seen[i], seen[j]
            if a.record == b.record or (a.record, b.record) in exact or j in reported:
                continue
            reported.add(j)
            note(
                "near_duplicate_image",
                f"the image in {b.key} is nearly the one of record {a.record} (difference "
                f"hashes {distance} of 64 bits apart; limit {self.limits.near_bits})",
                b.record,
                feature=b.key,
            )

    def _grey_among_colour(self, seen: list[Seen], note: Note) -> None:
        grey = [s for s in seen if s.scores.grayscale]
        if len(grey) * 2 >= len(seen):
            return  # a grey dataset, or half and half: nothing stands out
        for s in grey:
            note(
                "image_grayscale",
                f"a grey image among {len(seen) - len(grey):,} colour ones",
                s.record,
                feature=s.key,
            )

    def _odd_sizes(self, seen: list[Seen], note: Note) -> None:
        sides = np.sqrt([float(s.scores.width) * s.scores.height for s in seen])
        q1, q3 = np.percentile(sides, [25, 75])
        k = self.limits.odd_size_iqr
        lo, hi = q1 - k * (q3 - q1), q3 + k * (q3 - q1)
        for s, side in zip(seen, sides.tolist(), strict=True):
            if not lo <= side <= hi:
                note(
                    "image_odd_size",
                    f"{s.scores.width}×{s.scores.height} (√area {side:.0f}) is outside "
                    f"{max(lo, 0):.0f} … {hi:.0f}, Q1 − {k:g}·IQR … Q3 + {k:g}·IQR",
                    s.record,
                    feature=s.key,
                )
