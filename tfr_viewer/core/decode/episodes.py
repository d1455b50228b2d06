"""A robot-learning episode in one record, as RLDS keeps it: a ``tf.Example`` whose
``steps/...`` keys hold every step flattened (``steps/action``: the 7 numbers of each
step one after the other; ``steps/observation/image``: one encoded picture a step;
``steps/language_instruction``: one text a step; ``steps/is_first``, ``is_last``,
``is_terminal`` as 0 and 1), and whose other keys (``episode_metadata/...``) describe the
episode.

:func:`read_episode` gives the steps back their shape: from what ``features.json`` says of
each one (a :class:`~..io.tfds_features.FeatureSpec`: its dtype and one step's shape) when
the folder has it, else from the number of steps ``steps/is_first`` (or ``is_last``) counts,
each feature's values split evenly between them. What cannot be split so is left as it is
and said in ``notes``; the episode is read whatever its flags say (the checks judge them)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..io.tfds_features import FeatureSpec
from .payload_types import FeatureData

STEPS = "steps"  # the sequence RLDS keeps an episode's steps in
FLAGS = ("is_first", "is_last", "is_terminal")  # RLDS's per-step booleans
INSTRUCTION = "language_instruction"  # RLDS's text of the task, a step
REWARD = "reward"
_COUNTERS = ("is_first", "is_last", "is_terminal", "reward", "discount")  # one value a step


@dataclass(frozen=True)
class Episode:
    """One episode: ``length`` steps; ``steps`` maps each step feature's name (its key
    under ``steps/``: ``action``, ``observation/image``) to its values of every step, a
    numpy array of shape ``(length, *one step's shape)`` for numbers and booleans, a list
    of ``length`` bytes values for pictures and text; ``kinds`` says which (``tensor``,
    ``image``, ``text``, or ``values`` for a feature left as it is); ``metadata`` holds
    every other feature's values; ``notes`` says what could not be read as steps;
    ``record`` is the record it is (read from a dataset: :mod:`tfr_viewer.app.episodes`)."""

    length: int
    steps: dict[str, Any]
    kinds: dict[str, str]
    metadata: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    record: int | None = None  # its global number, when read from a dataset

    def flag(self, name: str) -> np.ndarray | None:
        """Flag ``name`` (``is_first``, ``is_last``, ``is_terminal``) of every step, as
        booleans; None when the episode has none."""
        values = self.steps.get(name)
        if values is None or self.kinds.get(name) != "tensor":
            return None
        array = np.asarray(values)
        return (array[:, 0] if array.ndim > 1 else array).astype(bool)

    def instruction(self, step: int) -> str | None:
        """The language instruction of ``step``; None when the steps have none."""
        texts = self.steps.get(INSTRUCTION)
        if self.kinds.get(INSTRUCTION) != "text" or not texts or not 0 <= step < len(texts):
            return None
        return bytes(texts[step]).decode("utf-8", "replace")

    def reward(self, step: int) -> float | None:
        """The reward of ``step``; None when the steps have none."""
        values = self.steps.get(REWARD)
        if self.kinds.get(REWARD) != "tensor" or values is None or not 0 <= step < len(values):
            return None
        array = np.asarray(values)
        return float(array[step, 0] if array.ndim > 1 else array[step])

    @property
    def signals(self) -> list[str]:
        """The step features that are the robot's signals, in key order: the action,
        the states (a name ending in ``state``) and the reward, as numbers of one or two
        dimensions (steps, values)."""
        out = []
        for name in sorted(self.steps):
            if name != "action" and not name.endswith("state") and name != REWARD:
                continue
            values = np.asarray(self.steps[name])
            if (
                self.kinds[name] == "tensor"
                and values.ndim in (1, 2)
                and values.dtype.kind in "fiu"
            ):
                out.append(name)
        return out

    @property
    def cameras(self) -> list[str]:
        """The step features that are pictures, in key order."""
        return sorted(name for name, kind in self.kinds.items() if kind == "image")


JUDGED = 6  # pictures of a camera an episode that the checks decode, spread over its steps


def judged_steps(count: int, most: int = JUDGED) -> list[int]:
    """The steps, of ``count``, whose pictures the checks decode and judge whole: at
    most ``most``, spread from the first step to the last (the camera checks and the
    record checks judge the same ones; every step's bytes are still hashed)."""
    if count <= most:
        return list(range(count))
    return sorted({round(i * (count - 1) / (most - 1)) for i in range(most)})


def is_step_key(key: str, sequence: str = STEPS) -> bool:
    """Whether feature ``key`` holds a value a step (it is under ``sequence/``)."""
    return key.startswith(sequence + "/")


def is_episode(keys: Iterable[str], sequence: str = STEPS) -> bool:
    """Whether a record with features ``keys`` keeps steps under ``sequence``."""
    return any(is_step_key(key, sequence) for key in keys)


def read_episode(
    features: Mapping[str, FeatureData],
    specs: Mapping[str, FeatureSpec] | None = None,
    sequence: str = STEPS,
) -> Episode | None:
    """The episode an Example's ``features`` hold under ``sequence``, shaped by
    ``specs`` (``features.json``'s, by record key) where they describe a feature; None
    when the record keeps no steps."""
    if not is_episode(features, sequence):
        return None
    specs = specs or {}
    prefix = sequence + "/"
    stepped = {key[len(prefix) :]: data for key, data in features.items() if key.startswith(prefix)}
    length, notes = _length(stepped, specs, prefix)
    steps: dict[str, Any] = {}
    kinds: dict[str, str] = {}
    for name in sorted(stepped):
        data, spec = stepped[name], specs.get(prefix + name)
        values, kind, note = _shaped(name, data, spec, length)
        steps[name], kinds[name] = values, kind
        if note:
            notes.append(note)
    metadata = {
        key: _metadata(data, specs.get(key))
        for key, data in sorted(features.items())
        if not key.startswith(prefix)
    }
    return Episode(length, steps, kinds, metadata, tuple(notes))


def _per_step(data: FeatureData, spec: FeatureSpec | None) -> int | None:
    """How many values one step of ``data`` holds, when ``spec`` says so."""
    if data.kind == "bytes":
        return 1  # one picture, one text, one serialized tensor a step
    if spec is None or spec.kind != "tensor":
        return None
    return spec.size


def _length(
    stepped: Mapping[str, FeatureData], specs: Mapping[str, FeatureSpec], prefix: str
) -> tuple[int, list[str]]:
    """The number of steps, and a note for each feature that holds another number.

    Without ``features.json``, the length of the first per-step signal RLDS always
    writes (``is_first``, ``is_last``, ``is_terminal``, ``reward``, ``discount``); with
    it, the count most of the features it describes agree on (pictures and texts count
    one a step)."""
    counts: dict[str, int] = {}
    for name, data in stepped.items():
        per = _per_step(data, specs.get(prefix + name))
        if per and len(data.values) % per == 0:
            counts[name] = len(data.values) // per
    flags = [n for n in _COUNTERS if n in stepped and stepped[n].kind != "bytes"]
    if flags and not any(prefix + name in specs for name in stepped):
        length = len(stepped[flags[0]].values)
    elif counts:
        length = Counter(counts.values()).most_common(1)[0][0]
    elif flags:
        length = len(stepped[flags[0]].values)
    else:
        return 0, ["no feature says how many steps there are"]
    notes = [
        f"{prefix}{name} holds {n:,} steps, not {length:,}"
        for name, n in sorted(counts.items())
        if n != length and stepped[name].kind != "bytes"
    ]
    return length, notes


def _shaped(
    name: str, data: FeatureData, spec: FeatureSpec | None, length: int
) -> tuple[Any, str, str | None]:
    """``data`` as ``length`` steps: ``(values, kind, note)``."""
    if data.kind == "bytes":
        texts = list(data.values)
        kind = spec.kind if spec is not None and spec.kind in ("image", "text") else "bytes"
        if spec is None and kind == "bytes":
            kind = "image" if _looks_like_pictures(texts) else "text"
        if len(texts) != length:
            return texts, "values", f"steps/{name}: {len(texts):,} values for {length:,} steps"
        return texts, kind, None
    array = np.asarray(data.values)
    shape: tuple[int, ...] | None = None
    if spec is not None and spec.kind == "tensor":
        shape = _fitted(spec.shape, len(array), length)
    elif length and len(array) % length == 0:
        per = len(array) // length
        shape = (length,) if per == 1 else (length, per)
    if shape is None:
        note = f"steps/{name}: {len(array):,} values do not split into {length:,} steps"
        return array, "values", note
    array = array.reshape(shape)
    dtype = spec.dtype if spec is not None else ("bool" if name in FLAGS else "")
    return _cast(array, dtype), "tensor", None


def _fitted(shape: tuple[int | None, ...], count: int, length: int) -> tuple[int, ...] | None:
    """``(length, *shape)`` holding ``count`` values, an open dimension (at most one)
    worked out; None when they cannot."""
    known = 1
    for dim in shape:
        known *= dim if dim is not None else 1
    open_dims = [i for i, dim in enumerate(shape) if dim is None]
    if len(open_dims) > 1:
        return None
    if open_dims:
        if not length or not known or count % (length * known):
            return None
        filled = list(shape)
        filled[open_dims[0]] = count // (length * known)
        return (length, *(int(d) for d in filled if d is not None))
    if length * known != count:
        return None
    return (length, *(int(d) for d in shape if d is not None))


def _cast(array: np.ndarray, dtype: str) -> np.ndarray:
    """The values as ``dtype`` says TFDS gives them (a boolean kept as 0 and 1, an
    image's or a small integer's int64)."""
    if dtype == "bool":
        return np.asarray(array != 0, dtype=bool)
    if dtype in ("float16", "float32", "float64", "uint8", "int8", "int16", "int32", "uint16"):
        return array.astype(dtype)
    return array


def _metadata(data: FeatureData, spec: FeatureSpec | None) -> Any:
    values = data.values
    if data.kind == "bytes":
        return list(values)
    array = np.asarray(values)
    if spec is not None and spec.kind == "tensor":
        array = _cast(array, spec.dtype)
        if spec.shape == () and len(array) == 1:
            return array[0]
    return array


def _looks_like_pictures(values: list[bytes]) -> bool:
    """Whether bytes values are encoded pictures (their first bytes say so)."""
    from .detect import image_format

    return bool(values) and image_format(bytes(values[0][:16])) is not None
