"""TensorFlow Datasets folders (``~/tensorflow_datasets/NAME/CONFIG/VERSION/``), read
without TensorFlow: ``dataset_info.json`` (the splits, their shard lengths and bytes,
the file format), ``features.json`` (each feature's kind, dtype and shape, see
:mod:`.tfds_features`; where the ClassLabel features are) and the label files beside
them (``label.labels.txt``, ``objects-label.labels.txt``: one name a line).

A folder is a TFDS folder when it holds ``dataset_info.json``. Its shards are named by
each split's ``filepathTemplate``; :meth:`TfdsInfo.expected` lists them with the
records ``shardLengths`` promises, so that a shard cut short or missing can be named.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, cast

from ..text import whole_number
from .remote import is_url
from .side_files import SideFileError, read_json_side_file, read_side_file
from .tfds_catalog import INFO
from .tfds_features import FeatureSpec, feature_specs

FEATURES = "features.json"
CLASS_LABEL = "tensorflow_datasets.core.features.class_label_feature.ClassLabel"


@dataclass(frozen=True)
class TfdsSplit:
    name: str
    shard_lengths: tuple[int, ...]
    num_bytes: int
    template: str

    @property
    def records(self) -> int:
        return sum(self.shard_lengths)


@dataclass(frozen=True)
class TfdsInfo:
    """What a TFDS folder says of itself."""

    folder: str
    name: str
    version: str
    file_format: str  # tfrecord, array_record, …
    splits: tuple[TfdsSplit, ...]
    class_names: dict[str, list[str]] = field(default_factory=dict)  # record key -> names
    # what features.json says of each feature, by record key (see tfds_features.py)
    features: dict[str, FeatureSpec] = field(default_factory=dict)

    def shard_name(self, split: TfdsSplit, index: int) -> str:
        count = len(split.shard_lengths)
        values = {
            "DATASET": self.name,
            "SPLIT": split.name,
            "FILEFORMAT": self.file_format,
            "SHARD_X_OF_Y": f"{index:05d}-of-{count:05d}",
            "SHARD_INDEX": f"{index:05d}",
            "NUM_SHARDS": f"{count:05d}",
        }
        out = split.template
        for key, value in values.items():
            out = out.replace("{" + key + "}", value)
        return out

    def shard_path(self, split: TfdsSplit, index: int) -> str | None:
        """Where shard ``index`` of ``split`` is: a file of this folder, or None when
        the description's template names anything else (a path, ``..``)."""
        name = self.shard_name(split, index)
        return os.path.join(self.folder, name) if plain_name(name) else None

    def shards(
        self, split: TfdsSplit, present: set[str], named: int = 0
    ) -> Iterator[tuple[str, int]]:
        """The shards of ``split`` the description names, in order, as ``(path,
        length)``: each one in ``present`` (absolute paths of the folder's files), and of
        the others the first ``named``; the others as ``("", n)`` for a run of ``n``
        shards. So a description of 2,000,000 shards costs what the folder holds. A
        template that leads out of the folder names no shard (the index cannot change
        that: it is digits)."""
        lengths = split.shard_lengths
        if not lengths:
            return
        if self.shard_path(split, 0) is None:
            yield "", len(lengths)
            return
        at = 0
        for index in [*self._present(split, present), len(lengths)]:
            take = min(named, index - at)
            for other in range(at, at + take):
                yield cast(str, self.shard_path(split, other)), lengths[other]
            named -= take
            if index - at - take:
                yield "", index - at - take
            if index < len(lengths):
                yield cast(str, self.shard_path(split, index)), lengths[index]
            at = index + 1

    def split_of(self, path: str) -> str | None:
        """The split whose shard ``path`` is (a file of this folder the description
        names), else None."""
        full = os.path.abspath(path)
        return next((s.name for s in self.splits if self._present(s, {full})), None)

    def _present(self, split: TfdsSplit, present: set[str]) -> list[int]:
        """The indices of ``split``'s shards that are in ``present``, ascending: a
        shard's name holds its index in digits, so only those numbers are tried."""
        folder = os.path.abspath(self.folder)
        count = len(split.shard_lengths)
        found = set()
        for path in present:
            if os.path.dirname(path) != folder:
                continue
            name = os.path.basename(path)
            for digits in re.findall(r"[0-9]{1,18}", name):
                index = int(digits)
                if index < count and self.shard_name(split, index) == name:
                    found.add(index)
        return sorted(found)


def plain_name(name: str) -> bool:
    """A file name of the folder itself: no separator, not ``.`` or ``..``."""
    return bool(name) and name not in (".", "..") and not ({"/", "\\", "\0"} & set(name))


def _number(value: Any) -> int:
    """TFDS writes 64-bit numbers as JSON strings; anything else counts as 0."""
    number = whole_number(value)
    return 0 if number is None else number


def _class_labels(node: Any, path: tuple[str, ...] = ()) -> Iterable[tuple[str, ...]]:
    """The paths of the ClassLabel features in ``features.json``."""
    if not isinstance(node, dict):
        return
    if node.get("pythonClassName") == CLASS_LABEL or "classLabel" in node:
        yield path
        return
    features = node.get("featuresDict", {}).get("features")
    if isinstance(features, dict):
        for key, child in features.items():
            yield from _class_labels(child, (*path, str(key)))
    sequence = node.get("sequence")
    if isinstance(sequence, dict):
        yield from _class_labels(sequence.get("feature"), path)


def _json(path: str, what: str) -> Any:
    try:
        return read_json_side_file(path, what, 16 << 20)
    except SideFileError:
        return None


def read_info(folder: str) -> TfdsInfo | None:
    """The TFDS description of ``folder``; None when it is none (no readable
    ``dataset_info.json`` with splits)."""
    described = os.path.join(folder, INFO)
    if not os.path.lexists(described):
        return None  # no TFDS folder: nothing to read
    info = _json(described, "TFDS dataset_info.json")
    if not isinstance(info, dict) or not isinstance(info.get("splits"), list):
        return None
    splits = []
    for split in info["splits"]:
        if not isinstance(split, dict) or not isinstance(split.get("name"), str):
            continue
        lengths = split.get("shardLengths") or []
        template = split.get("filepathTemplate") or "{DATASET}-{SPLIT}.{FILEFORMAT}-{SHARD_X_OF_Y}"
        splits.append(
            TfdsSplit(
                split["name"],
                tuple(_number(n) for n in lengths if isinstance(lengths, list)),
                _number(split.get("numBytes", 0)),
                str(template),
            )
        )
    names: dict[str, list[str]] = {}
    features = _json(os.path.join(folder, FEATURES), "TFDS features.json")
    for path in _class_labels(features):
        name = "-".join(path) + ".labels.txt"
        if not plain_name(name):  # a key that would lead out of the folder
            continue
        label_file = os.path.join(folder, name)
        try:
            text = read_side_file(label_file, "TFDS label file", 16 << 20).decode("utf-8")
        except (SideFileError, UnicodeDecodeError):
            continue
        names["/".join(path)] = text.splitlines()
    return TfdsInfo(
        folder,
        str(info.get("name", "")),
        str(info.get("version", "")),
        str(info.get("fileFormat") or "tfrecord"),
        tuple(splits),
        names,
        feature_specs(features),
    )


def info_of(paths: Iterable[str]) -> TfdsInfo | None:
    """The TFDS description of the folder that holds every one of ``paths`` (local
    files), if it is a TFDS folder."""
    folders = {os.path.dirname(os.path.abspath(p)) for p in paths if not is_url(p)}
    if len(folders) != 1:
        return None
    return read_info(folders.pop())
