"""RLDS datasets as robot-learning projects write them: a TFDS builder of the shape
``rlds_dataset_builder`` gives every Open X-Embodiment dataset (``steps`` as a
``tfds.features.Dataset`` of observation pictures and state, a 7-number action, reward,
discount, the three flags, an instruction and its embedding; ``episode_metadata``), run
by ``tensorflow_datasets`` itself at test time, so that the folder holds the shards,
``dataset_info.json`` and ``features.json`` exactly as TFDS writes them.

The cameras are real JPEGs of a small scene (a square moving over a gradient), the
actions and states smooth random walks."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

NAME = "robot_debug"
VERSION = "1.0.0"


@dataclass(frozen=True)
class Shape:
    """What the builder's features are: the cameras, their size, the action's and the
    state's dimensions."""

    cameras: tuple[str, ...] = ("image", "wrist_image")
    size: int = 64
    action: int = 7
    state: int = 8


@dataclass
class Planned:
    """One episode to write: ``length`` steps, with ``instruction``; ``seed`` makes its
    pictures and signals (two episodes with the same seed and length are the same).
    ``changes`` replaces step features' values: ``{"is_last": {4: True}}``, or a value
    for every step with the key ``None``."""

    length: int
    instruction: str = "pick up the red cup"
    seed: int = 0
    changes: dict[str, dict[int | None, Any]] = field(default_factory=dict)


def scene(seed: int, step: int, size: int, camera: int) -> np.ndarray:
    """A camera's picture at ``step``: a textured gradient (a table's grain, so that the
    picture is sharp) and a square that moves."""
    y, x = np.mgrid[0:size, 0:size]
    grain = np.random.default_rng(seed * 10 + camera).integers(0, 60, (size, size))
    base = np.stack(
        [
            (x * 180 // size) + grain,
            (y * 180 // size) + grain[::-1],
            np.full_like(x, (seed * 37 + camera * 80) % 196) + grain.T,
        ],
        axis=-1,
    ).astype(np.uint8)
    at = (seed * 7 + step * 3 + camera * 11) % (size - size // 4)
    base[at : at + size // 4, at : at + size // 4] = (255 - 40 * camera, 40, 40)
    return base


def episode_steps(plan: Planned, shape: Shape) -> list[dict[str, Any]]:
    """The steps of ``plan`` as the builder yields them."""
    rng = np.random.default_rng(plan.seed)
    action = np.cumsum(rng.normal(0, 0.05, (plan.length, shape.action)), axis=0)
    state = np.cumsum(rng.normal(0, 0.05, (plan.length, shape.state)), axis=0)
    steps = []
    for t in range(plan.length):
        last = t == plan.length - 1
        steps.append(
            {
                "observation": {
                    **{
                        camera: scene(plan.seed, t, shape.size, i)
                        for i, camera in enumerate(shape.cameras)
                    },
                    "state": state[t].astype(np.float32),
                },
                "action": action[t].astype(np.float32),
                "discount": 1.0,
                "reward": float(last),
                "is_first": t == 0,
                "is_last": last,
                "is_terminal": last,
                "language_instruction": plan.instruction,
                "language_embedding": rng.random(4, dtype=np.float32),
            }
        )
    for name, values in plan.changes.items():
        for t in range(plan.length):
            if t in values or None in values:
                value = values[t] if t in values else values[None]
                _set(steps[t], name.split("/"), value(steps[t]) if callable(value) else value)
    return steps


def _get(step: dict[str, Any], path: list[str]) -> Any:
    for part in path:
        step = step[part]
    return step


def _set(step: dict[str, Any], path: list[str], value: Any) -> None:
    for part in path[:-1]:
        step = step[part]
    step[path[-1]] = value


def write_rlds(data_dir: Path, splits: dict[str, list[Planned]], shape: Shape = Shape()) -> Path:
    """Write an RLDS dataset of ``splits`` under ``data_dir`` with TFDS; its folder
    (``data_dir/robot_debug/1.0.0``)."""
    import tensorflow_datasets as tfds

    class RobotDebug(tfds.core.GeneratorBasedBuilder, skip_registration=True):
        VERSION = tfds.core.Version(VERSION)

        def _info(self) -> Any:
            image = tfds.features.Image(shape=(shape.size, shape.size, 3), encoding_format="jpeg")
            return tfds.core.DatasetInfo(
                builder=self,
                features=tfds.features.FeaturesDict(
                    {
                        "steps": tfds.features.Dataset(
                            {
                                "observation": tfds.features.FeaturesDict(
                                    {
                                        **{camera: image for camera in shape.cameras},
                                        "state": tfds.features.Tensor(
                                            shape=(shape.state,), dtype=np.float32
                                        ),
                                    }
                                ),
                                "action": tfds.features.Tensor(
                                    shape=(shape.action,), dtype=np.float32
                                ),
                                "discount": tfds.features.Scalar(dtype=np.float32),
                                "reward": tfds.features.Scalar(dtype=np.float32),
                                "is_first": tfds.features.Scalar(dtype=np.bool_),
                                "is_last": tfds.features.Scalar(dtype=np.bool_),
                                "is_terminal": tfds.features.Scalar(dtype=np.bool_),
                                "language_instruction": tfds.features.Text(),
                                "language_embedding": tfds.features.Tensor(
                                    shape=(4,), dtype=np.float32
                                ),
                            }
                        ),
                        "episode_metadata": tfds.features.FeaturesDict(
                            {"file_path": tfds.features.Text()}
                        ),
                    }
                ),
            )

        def _split_generators(self, dl_manager: Any) -> Any:
            return {name: self._generate_examples(name) for name in splits}

        def _generate_examples(self, split: str) -> Any:
            for n, plan in enumerate(splits[split]):
                yield (
                    f"{split}-{n}",
                    {
                        "steps": episode_steps(plan, shape),
                        "episode_metadata": {"file_path": f"/robot/{split}/episode_{n}.npy"},
                    },
                )

    builder = RobotDebug(data_dir=str(data_dir))
    builder.download_and_prepare()
    return Path(builder.data_dir)


def tfds_episodes(folder: Path, split: str) -> list[dict[str, Any]]:
    """The episodes of ``split`` as TFDS reads them back (pictures left encoded), in
    the order of the split's shards: ``{"steps": {"observation/image": values of every
    step, ...}, "episode_metadata": {...}}``, each step feature's values stacked."""
    import tensorflow_datasets as tfds

    builder = tfds.builder_from_directory(str(folder))
    skip = {c: tfds.decode.SkipDecoding() for c in _cameras(builder)}
    data = builder.as_dataset(
        split=split, shuffle_files=False, decoders={"steps": {"observation": skip}}
    )
    out = []
    for episode in tfds.as_numpy(data):
        steps = [_flat(step) for step in episode["steps"]]
        names = _flat(builder.info.features["steps"].feature.get_serialized_info())
        stacked = {
            name: np.array([step[name] for step in steps], dtype=_dtype(steps, name))
            for name in names
        }
        out.append({"steps": stacked, "episode_metadata": episode["episode_metadata"]})
    return out


def _dtype(steps: list[dict[str, Any]], name: str) -> Any:
    return object if steps and isinstance(steps[0][name], bytes) else None


def _flat(tree: Any, prefix: str = "") -> dict[str, Any]:
    """A nested dict as ``{"observation/image": value}``."""
    out: dict[str, Any] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}/"))
        else:
            out[prefix + key] = value
    return out


def _cameras(builder: Any) -> list[str]:
    observation = builder.info.features["steps"].feature["observation"]
    return [k for k, f in observation.items() if type(f).__name__ == "Image"]


BLACK = np.zeros((64, 64, 3), np.uint8)


def planted_episodes() -> tuple[dict[str, list[Planned]], dict[str, tuple[int, str, int | None]]]:
    """Episodes with one fault each, and a clean one: ``(splits, planted)`` where
    ``planted`` names each fault by the episode's metadata file (``/robot/SPLIT/
    episode_N.npy``): its kind, and the step it is at (None: the whole episode). Train's
    episodes 20 and 21 are one episode twice: whichever is read second is the copy."""
    frozen = scene(5, 0, 64, 0)
    stuck = scene(99, 0, 64, 1)  # a picture of no other episode
    grey = np.full((64, 64, 3), 128, np.uint8)
    inf = np.float32(np.inf)
    splits = {
        "train": [
            Planned(12, seed=1),  # clean
            Planned(12, seed=2, changes={"is_last": {None: False}}),
            Planned(12, seed=3, changes={"is_first": {6: True}}),
            Planned(2, seed=4),
            Planned(12, "", seed=6),
            Planned(12, seed=7, changes={"observation/state": {3: np.full(8, np.nan, np.float32)}}),
            Planned(12, seed=8, changes={"action": {None: np.zeros(7, np.float32)}}),
            Planned(12, seed=9, changes={"action": {7: lambda step: step["action"] + 5.0}}),
            Planned(12, seed=10, changes={"observation/wrist_image": {None: BLACK}}),
            Planned(12, seed=11, changes={"observation/image": {None: frozen}}),
            Planned(12, seed=12),  # copied into val
            Planned(12, seed=13, changes={"is_last": {5: True}}),  # 11
            Planned(12, seed=14, changes={"is_first": {0: False}}),  # 12
            Planned(1, seed=15),  # 13
            Planned(12, "n/a", seed=16),  # 14
            Planned(12, seed=17, changes={"language_instruction": {n: "" for n in range(3, 12)}}),
            Planned(12, seed=18, changes={"action": {4: lambda step: step["action"] * inf}}),
            Planned(12, seed=19, changes={"reward": {9: float("nan")}}),  # 17
            Planned(
                14, seed=30, changes={"observation/wrist_image": {n: stuck for n in range(2, 13)}}
            ),
            Planned(12, seed=31, changes={"observation/image": {None: grey}}),  # 19
            Planned(12, seed=32),  # 20, copied within train
            Planned(12, seed=32),  # 21
            Planned(12, seed=33, changes={"action": {5: lambda step: step["action"] - 4.0}}),
            Planned(12, seed=34, changes={"action": {None: lambda step: step["action"] + 3.0}}),
            *[Planned(12, seed=40 + n) for n in range(4)],  # clean, for the usual action
        ],
        "val": [Planned(12, seed=12)],
    }
    planted = {
        "/robot/train/episode_1.npy": ("episode_flags", 11),
        "/robot/train/episode_2.npy": ("episode_flags", 6),
        "/robot/train/episode_3.npy": ("episode_short", None),
        "/robot/train/episode_4.npy": ("episode_instruction", 0),
        "/robot/train/episode_5.npy": ("signal_not_finite", 3),
        "/robot/train/episode_6.npy": ("action_still", None),
        "/robot/train/episode_7.npy": ("action_jump", 7),
        "/robot/train/episode_8.npy": ("camera_blank", None),
        "/robot/train/episode_9.npy": ("camera_frozen", 0),
        "/robot/val/episode_0.npy": ("episode_duplicate", None),
        "/robot/train/episode_11.npy": ("episode_flags", 5),
        "/robot/train/episode_12.npy": ("episode_flags", 0),
        "/robot/train/episode_13.npy": ("episode_short", None),
        "/robot/train/episode_14.npy": ("episode_instruction", 0),
        "/robot/train/episode_15.npy": ("episode_instruction", 3),
        "/robot/train/episode_16.npy": ("signal_not_finite", 4),
        "/robot/train/episode_17.npy": ("signal_not_finite", 9),
        "/robot/train/episode_18.npy": ("camera_frozen", 2),
        "/robot/train/episode_19.npy": ("camera_blank", None),
        "/robot/train/episode_22.npy": ("action_jump", 5),
        "/robot/train/episode_23.npy": ("instruction_mismatch", None),
    }
    return splits, planted
