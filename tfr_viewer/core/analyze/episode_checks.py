"""Checks of robot-learning episodes (RLDS records: their steps under ``steps/``), each
finding at its episode (record) and, where one step is at fault, its step.

Per episode: the flags (``is_first`` true at the first step alone, ``is_last`` at the
last alone: an episode that never ends, or two run together), one or two steps, an
empty or placeholder instruction, a number that is NaN or infinite, an action that
never moves, a camera black or of one colour in every picture sampled, a camera frozen
(the same picture step after step), steps that do not split evenly. Over the dataset: an
action that jumps far outside the dataset's step-to-step spread, a camera some episodes
lack, the same episode twice (by the content of its steps, in one split or two), an
episode whose actions are unlike those of the other episodes given its instruction.

The camera checks judge whole pictures, decoded: at most
:data:`~..decode.episodes.JUDGED` of each camera's pictures an episode (spread over its
steps, :func:`~..decode.episodes.judged_steps`); a frozen camera is found from the
pictures' bytes, every step."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

import numpy as np

from ..decode.episodes import STEPS, Episode, judged_steps
from .findings import Finding

BLACK = 8  # the brightest pixel of a black picture is at most this
FLAT = 1.0  # the spread (standard deviation) of a picture of one colour is below this
FROZEN_RUN = 10  # steps of the same picture in a row that make a camera frozen
JUMP = 12.0  # a step-to-step change this many times the dataset's usual one is a jump
SHARED = 4  # episodes an instruction is given to before they are compared
UNLIKE = 10.0  # an episode's mean action this many spreads from its instruction's is unlike
PLACEHOLDERS = frozenset({"", "none", "null", "n/a", "na", "todo", "tbd", "-", "?", "task"})

Where = Callable[[int], tuple[str, int]]  # a record -> its file and byte offset


@dataclass
class EpisodeChecks:
    r"""The episode checks of one dataset: :meth:`add` each episode (on one pass, or on
    passes over parts of the dataset, :meth:`merge`\ d in record order), :meth:`finish`
    for the findings (those over the dataset last). ``where`` locates a record (without
    it, the findings name their records only, to be placed by the caller)."""

    where: Where | None = None
    found: list[Finding] = field(default_factory=list)
    _cameras: dict[str, int] = field(default_factory=dict)  # camera -> episodes with it
    _episodes: list[tuple[int, frozenset[str]]] = field(default_factory=list)
    _seen: dict[bytes, list[tuple[int, int]]] = field(default_factory=dict)  # content ->
    # (record, length) of each episode with it
    _moves: dict[str, list[np.ndarray]] = field(default_factory=dict)  # action: |Δ| a step
    _actions: dict[int, np.ndarray] = field(default_factory=dict)  # record -> its |Δ|
    _means: dict[int, tuple[str, np.ndarray]] = field(default_factory=dict)  # instruction, mean

    def note(
        self,
        kind: str,
        message: str,
        episode: Episode,
        *,
        step: int | None = None,
        feature: str | None = None,
    ) -> None:
        """A finding at ``episode`` (at its ``step``, of its ``feature``)."""
        record = episode.record if episode.record is not None else -1
        file, offset = self.where(record) if self.where is not None else (None, None)
        self.found.append(Finding(kind, message, record, file, offset, feature, step=step))

    def add(self, episode: Episode) -> None:
        """Check one episode, and keep what the checks over the dataset need."""
        record = episode.record if episode.record is not None else -1
        for note in episode.notes:
            self.note("episode_shape", note, episode)
        self._flags(episode)
        if 0 < episode.length <= 2:
            self.note(
                "episode_short",
                f"an episode of {episode.length} step{'s' if episode.length > 1 else ''}",
                episode,
            )
        self._instruction(episode)
        self._numbers(episode)
        self._action(episode)
        cameras = frozenset(episode.cameras)
        looks = _looks(episode, sorted(cameras))
        for camera in cameras:
            self._cameras[camera] = self._cameras.get(camera, 0) + 1
            self._camera(episode, camera, looks[camera])
        self._episodes.append((record, cameras))
        if episode.length:
            self._seen.setdefault(_content(episode), []).append((record, episode.length))

    def merge(self, other: EpisodeChecks) -> EpisodeChecks:
        """Take what ``other`` (the checks of later records) found and kept."""
        self.found.extend(other.found)
        for camera, count in other._cameras.items():
            self._cameras[camera] = self._cameras.get(camera, 0) + count
        self._episodes.extend(other._episodes)
        for digest, places in other._seen.items():
            self._seen.setdefault(digest, []).extend(places)
        for name, moves in other._moves.items():
            self._moves.setdefault(name, []).extend(moves)
        self._actions.update(other._actions)
        self._means.update(other._means)
        return self

    def finish(self, where: Where | None = None) -> list[Finding]:
        """The findings of every episode added, with those over the dataset; ``where``
        (else the checks' own) locates records."""
        if where is not None:
            self.where = where
        self._copies()
        self._jumps()
        self._unlike()
        everywhere = {c for c, n in self._cameras.items() if n == len(self._episodes)}
        for record, cameras in self._episodes:
            for camera in sorted(set(self._cameras) - everywhere - cameras):
                file, offset = self._at(record)
                have = self._cameras[camera]
                self.found.append(
                    Finding(
                        "camera_missing",
                        f"no steps/{camera} here; {have:,} of {len(self._episodes):,} "
                        "episodes have it",
                        record,
                        file,
                        offset,
                        f"steps/{camera}",
                    )
                )
        return self.found

    def _at(self, record: int) -> tuple[str | None, int | None]:
        return self.where(record) if self.where is not None else (None, None)

    def _copies(self) -> None:
        """Each episode with the same steps as an earlier one (by record), at the copy."""
        for places in self._seen.values():
            if len(places) < 2:
                continue
            (first, _), *later = sorted(places)
            other = self._at(first)[0] or "?"
            for record, length in later:
                file, offset = self._at(record)
                self.found.append(
                    Finding(
                        "episode_duplicate",
                        f"the same {length} steps as episode {first} ({_name(other)})",
                        record,
                        file,
                        offset,
                    )
                )

    # -- per episode ---------------------------------------------------------------------
    def _flags(self, episode: Episode) -> None:
        n = episode.length
        first, last = episode.flag("is_first"), episode.flag("is_last")
        if n and first is None and last is None:
            self.note("episode_flags", "the steps hold neither is_first nor is_last", episode)
            return
        if first is not None and n:
            if not first[0]:
                self.note(
                    "episode_flags",
                    "is_first is false at the first step",
                    episode,
                    step=0,
                    feature="steps/is_first",
                )
            for step in np.flatnonzero(first[1:]).tolist()[:3]:
                self.note(
                    "episode_flags",
                    f"is_first is true at step {step + 1}: two episodes run together",
                    episode,
                    step=step + 1,
                    feature="steps/is_first",
                )
        if last is not None and n:
            if not last[-1]:
                self.note(
                    "episode_flags",
                    "is_last is never true at the last step: the episode never ends",
                    episode,
                    step=n - 1,
                    feature="steps/is_last",
                )
            for step in np.flatnonzero(last[:-1]).tolist()[:3]:
                self.note(
                    "episode_flags",
                    f"is_last is true at step {step} of {n:,}: the episode ends early, or "
                    "two run together",
                    episode,
                    step=step,
                    feature="steps/is_last",
                )

    def _instruction(self, episode: Episode) -> None:
        for step in range(episode.length):
            text = episode.instruction(step)
            if text is None:
                return  # the steps have no instruction
            if text.strip().lower() in PLACEHOLDERS:
                said = f"{text.strip()!r}" if text.strip() else "empty"
                self.note(
                    "episode_instruction",
                    f"the instruction is {said} at step {step}"
                    + ("" if step else " (and maybe after)"),
                    episode,
                    step=step,
                    feature="steps/language_instruction",
                )
                return

    def _numbers(self, episode: Episode) -> None:
        for name in sorted(episode.steps):
            if episode.kinds[name] != "tensor":
                continue
            values = np.asarray(episode.steps[name])
            if values.dtype.kind != "f" or not values.size:
                continue
            bad = ~np.isfinite(values.reshape(len(values), -1)).all(axis=1)
            if bad.any():
                step = int(np.flatnonzero(bad)[0])
                self.note(
                    "signal_not_finite",
                    f"steps/{name} holds NaN or infinity at {int(bad.sum()):,} step(s), the "
                    f"first at step {step}",
                    episode,
                    step=step,
                    feature=f"steps/{name}",
                )

    def _action(self, episode: Episode) -> None:
        if episode.kinds.get("action") != "tensor" or episode.length < 3:
            return
        action = np.asarray(episode.steps["action"], dtype=np.float64)
        action = action.reshape(len(action), -1)
        if not np.isfinite(action).all():
            return
        moves = np.abs(np.diff(action, axis=0))
        if not moves.any():
            self.note(
                "action_still",
                f"the action is the same at every one of its {episode.length:,} steps",
                episode,
                feature="steps/action",
            )
            return
        record = episode.record if episode.record is not None else -1
        self._actions[record] = moves
        self._moves.setdefault("action", []).append(moves)
        text = episode.instruction(0)
        if text is not None and text.strip().lower() not in PLACEHOLDERS:
            self._means[record] = (text.strip(), action.mean(axis=0))

    def _camera(self, episode: Episode, camera: str, judged: list[str]) -> None:
        """A camera black or of one colour in every picture sampled (``judged``: how
        each looks); else one that shows the same picture step after step (its bytes,
        every step)."""
        pictures = episode.steps[camera]
        key = f"steps/{camera}"
        if judged and all(j in ("black", "flat") for j in judged):
            what = "black" if all(j == "black" for j in judged) else "of one colour"
            self.note(
                "camera_blank",
                f"{key} is {what} in every picture sampled ({len(judged)} of {len(pictures):,})",
                episode,
                feature=key,
            )
            return
        run, longest, at = 1, 1, 0
        for step in range(1, len(pictures)):
            run = run + 1 if pictures[step] == pictures[step - 1] else 1
            if run > longest:
                longest, at = run, step - run + 1
        if longest >= min(FROZEN_RUN, len(pictures)) and len(pictures) > 2:
            whole = longest == len(pictures)
            self.note(
                "camera_frozen",
                f"{key} shows the same picture at {longest:,} steps in a row"
                + (" (the whole episode)" if whole else f", from step {at}"),
                episode,
                step=at,
                feature=key,
            )

    # -- over the dataset ----------------------------------------------------------------
    def _jumps(self) -> None:
        moves = self._moves.get("action")
        if not moves:
            return
        every = np.concatenate(moves)
        if len(every) < 20:
            return  # too few steps to know the usual change
        usual = np.median(every, axis=0) + _spread_of(every)
        limit = JUMP * np.maximum(usual, 1e-6)
        for record, steps in sorted(self._actions.items()):
            over = (steps > limit).any(axis=1)
            if over.any():
                step = int(np.flatnonzero(over)[0]) + 1
                dim = int(np.argmax(steps[step - 1] / limit))
                file, offset = self._at(record)
                self.found.append(
                    Finding(
                        "action_jump",
                        f"the action jumps by {steps[step - 1][dim]:.3g} in dimension {dim} "
                        f"at step {step}, {steps[step - 1][dim] / max(usual[dim], 1e-6):.0f} "
                        "times the dataset's usual change",
                        record,
                        file,
                        offset,
                        "steps/action",
                        step=step,
                    )
                )

    def _unlike(self) -> None:
        """Each episode whose mean action lies far from those of the other episodes
        given its instruction (at least :data:`SHARED` of them): more than
        :data:`UNLIKE` times their spread (the median absolute deviation, per
        dimension, and never below the dataset's) from their median."""
        if len(self._means) < SHARED:
            return
        widths = {len(mean) for _, mean in self._means.values()}
        if len(widths) != 1:
            return  # actions of different sizes: not comparable
        every = np.stack([mean for _, mean in self._means.values()])
        floor = np.maximum(_spread_of(every), 1e-6)
        groups: dict[str, list[int]] = {}
        for record, (text, _) in self._means.items():
            groups.setdefault(text, []).append(record)
        for text, records in sorted(groups.items()):
            if len(records) < SHARED:
                continue
            means = np.stack([self._means[r][1] for r in records])
            centre = np.median(means, axis=0)
            scale = np.maximum(_spread_of(means), floor)
            away = np.abs(means - centre) / scale
            unlike = np.flatnonzero(away.max(axis=1) > UNLIKE)
            if len(unlike) * 2 >= len(records):
                continue  # no clear majority to be unlike
            for row in unlike.tolist():
                record, dim = records[row], int(np.argmax(away[row]))
                file, offset = self._at(record)
                self.found.append(
                    Finding(
                        "instruction_mismatch",
                        f"{len(records):,} episodes are given the instruction {text!r}, and "
                        f"this one's actions are unlike theirs: its mean action is "
                        f"{means[row][dim]:.3g} in dimension {dim}, theirs "
                        f"{centre[dim]:.3g} ({away[row][dim]:.0f} times their spread)",
                        record,
                        file,
                        offset,
                        "steps/action",
                    )
                )


def _spread_of(values: np.ndarray) -> np.ndarray:
    """The spread of ``values`` (rows) per column: the median absolute deviation,
    scaled to a normal distribution's standard deviation."""
    centre = np.median(values, axis=0)
    spread: np.ndarray = 1.4826 * np.median(np.abs(values - centre), axis=0)
    return spread


def as_for_episodes(
    found: Iterable[Finding], episodes: Iterable[Finding] = (), sequence: str = STEPS
) -> list[Finding]:
    """The record checks' findings as they hold for episodes. A step feature's number
    of values follows its episode's length: that it differs from record to record is
    no fault (``value_count_differs`` is left out for keys under ``steps/``; a step
    feature that does not split into steps is ``episode_shape``). The findings of the
    pictures of an episode's steps are folded: one finding an episode, camera and kind,
    saying at how many steps (a picture's finding repeated at every frame says one
    thing; the record checks decode the pictures of the steps
    :func:`~..decode.episodes.judged_steps` names, and hash every one). What the episode
    checks found (``episodes``, their findings) is not said again picture by picture: a
    camera found blank or frozen has no picture-quality notes besides (a black picture
    is also dark, grey and blurry), an episode found a copy of another no copied
    pictures."""
    prefix = sequence + "/"
    episodes = list(episodes)
    judged = {
        (f.record, f.feature) for f in episodes if f.kind in ("camera_blank", "camera_frozen")
    }
    copies = {f.record for f in episodes if f.kind == "episode_duplicate"}
    out: list[Finding] = []
    folded: dict[tuple[int | None, str, str], list[Finding]] = {}
    for f in found:
        stepped = f.feature is not None and f.feature.startswith(prefix)
        if stepped and f.kind == "value_count_differs":
            continue
        if not stepped or not (f.kind.startswith("image_") or f.kind in _PER_PICTURE):
            out.append(f)
        elif (f.record, f.feature) in judged and f.severity == "info":
            continue
        elif f.record in copies and f.kind == "duplicate_image":
            continue
        else:
            folded.setdefault((f.record, f.feature or "", f.kind), []).append(f)
    for same in folded.values():
        first = same[0]
        if len(same) > 1:
            among = "its steps" if first.kind == "duplicate_image" else "the steps judged"
            first = replace(first, message=f"{first.message} (at {len(same):,} of {among})")
        out.append(first)
    return out


_PER_PICTURE = frozenset({"duplicate_image", "exif_rotation"})


def check_episodes(episodes: Iterable[Episode], where: Where) -> list[Finding]:
    """Every finding of the episode checks over ``episodes``."""
    checks = EpisodeChecks(where)
    for episode in episodes:
        checks.add(episode)
    return checks.finish()


def _looks(episode: Episode, cameras: list[str]) -> dict[str, list[str]]:
    """How the pictures of each camera's judged steps look (:func:`_judged`), decoded
    side by side on the process's image threads."""
    from ..decode.image_verdict import image_pool

    wanted = [
        (camera, episode.steps[camera][step])
        for camera in cameras
        for step in judged_steps(len(episode.steps[camera]))
    ]
    looks: dict[str, list[str]] = {camera: [] for camera in cameras}
    for (camera, _), look in zip(
        wanted, image_pool().map(_judged, [data for _, data in wanted]), strict=True
    ):
        looks[camera].append(look)
    return looks


def _judged(data: bytes) -> str:
    """``black``, ``flat`` (one colour) or ``ok`` for a whole picture, decoded; ``ok``
    for bytes that are no picture (the image checks say what is wrong with those)."""
    from ..decode.image_verdict import judge

    verdict, img = judge(bytes(data), keep=True)
    if img is None or verdict.problem:
        if img is not None:
            img.close()
        return "ok"
    with img:
        pixels = np.asarray(img.convert("RGB"))
    if int(pixels.max()) <= BLACK:
        return "black"
    return "flat" if float(pixels.std()) < FLAT else "ok"


def _content(episode: Episode) -> bytes:
    """A digest of every step's values: the numbers byte for byte, each picture and
    text by its length and CRC32C (read at memory speed by the compiled core)."""
    from .. import crc32c

    digest = hashlib.sha256(str(episode.length).encode())
    for name in sorted(episode.steps):
        digest.update(name.encode())
        values = episode.steps[name]
        if isinstance(values, list):
            digest.update(
                b"".join(
                    len(v).to_bytes(8, "little") + crc32c.value(v).to_bytes(4, "little")
                    for v in values
                )
            )
        else:
            array = np.ascontiguousarray(values)
            digest.update(str(array.dtype).encode() + str(array.shape).encode())
            digest.update(array.tobytes())
    return digest.digest()


def _name(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]
