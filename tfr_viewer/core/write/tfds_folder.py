"""Chosen records of a TensorFlow Datasets folder as a new TFDS folder that
``tfds.builder_from_directory`` loads: the shards of each split
(``NAME-SPLIT.tfrecord-00000-of-00001``), the source's ``features.json`` and class-name
files as they are, and its ``dataset_info.json`` with the splits rewritten (their
``shardLengths``, ``numBytes`` and file names), every other field kept.

Each record keeps the split of the file it is read from; with ``split`` (``train=0.8,
val=0.2``) the chosen records are cut into new splits instead, a record (an episode of
a robot-learning dataset) whole in one. The folder is one target of the output layer
(:mod:`.output`): written as a temporary folder, every shard read back and counted, then
moved into place; a folder that exists is never replaced."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..io import Cancelled, CancelToken, Compression, Dataset, RecordWriter, encode_frame
from ..io.side_files import SideFileError, read_json_side_file, read_side_file
from ..io.tfds import FEATURES, TfdsInfo, TfdsSplit, info_of, plain_name
from ..io.tfds_catalog import INFO
from ..user_error import UserError
from .export import split_groups, verify_written
from .output import OutputJob, disk_errors

TEMPLATE = "{DATASET}-{SPLIT}.{FILEFORMAT}-{SHARD_X_OF_Y}"
SHARD_BYTES = 1 << 30  # a split's shards hold at most about this many bytes each


class TfdsExportError(UserError, ValueError):
    """A TFDS folder that cannot be written from these records; the message says why."""


def export_tfds(
    ds: Dataset,
    records: Sequence[int] | np.ndarray,
    out: str,
    job: OutputJob,
    *,
    read: Callable[[int], bytes] | None = None,
    cancel: CancelToken | None = None,
    progress: Callable[[int, int], None] | None = None,
    split: tuple[tuple[str, float], ...] = (),
    shuffle: int | None = None,
    shards: int | None = None,
) -> int:
    """Write ``records`` (global numbers of the indexed ``ds``, in this order; intact)
    as the TFDS folder ``out`` (a folder that does not exist), through ``job``; the
    records written. ``read`` gives edited payloads; ``split`` and ``shuffle`` cut the
    records into new splits; ``shards``: the shards of each split (else one a GiB)."""
    info = _source(ds)
    described = _description(info)
    groups = _groups(ds, info, np.asarray(records, dtype=np.int64), split, shuffle)
    if not split:
        left = [s.name for s in info.splits if s.name not in {name for name, _ in groups}]
        if left:
            job.notes.append(
                f"no chosen record is of the {left[0]} split, so the folder has no {left[0]} split"
                if len(left) == 1
                else f"no chosen record is of the splits {', '.join(left)}, so the folder has "
                "none of them"
            )
    job.plan(out, folder=True)
    folder = job.temporary_folder(out)
    payload = read or ds.read
    written, total = 0, sum(len(g) for _, g in groups)
    splits = []
    for name, group in groups:
        parts = _shards(ds, group, shards)
        lengths, size = [], 0
        for index, part in enumerate(parts):
            shard = info.shard_name(TfdsSplit(name, (0,) * len(parts), 0, TEMPLATE), index)
            if not plain_name(shard):
                raise TfdsExportError(
                    f"the dataset name {info.name!r} and split {name!r} make the shard name "
                    f"{shard!r}, which is no file of the folder; give splits of plain names "
                    "(--split train=0.8,val=0.2)"
                )
            path = os.path.join(folder, shard)
            with disk_errors(out), RecordWriter(open(path, "xb"), Compression.NONE) as writer:
                for record in part.tolist():
                    if cancel is not None and cancel.cancelled:
                        raise Cancelled()
                    data = payload(record)
                    writer.write_frame(encode_frame(data))
                    size += len(data)
                    written += 1
                    if progress is not None and written % 64 == 0:
                        progress(written, total)
                writer.close(sync=True)
            verify_written(path, len(part))
            lengths.append(len(part))
        splits.append(
            {
                "filepathTemplate": TEMPLATE,
                "name": name,
                "numBytes": str(size),
                "shardLengths": [str(n) for n in lengths],
            }
        )
    described["splits"] = splits
    with disk_errors(out):
        _copy_beside(info, folder)
        with open(os.path.join(folder, INFO), "x", encoding="utf-8") as f:
            json.dump(described, f, indent=2, ensure_ascii=False)
    if progress is not None:
        progress(written, total)
    return written


def _source(ds: Dataset) -> TfdsInfo:
    info = info_of(f.path for f in ds.files)
    if info is None:
        raise TfdsExportError(
            "--format tfds writes a TensorFlow Datasets folder from one, and these files "
            "have no dataset_info.json beside them; open the folder TFDS wrote, or export "
            "TFRecord files (the default format)"
        )
    if info.file_format != "tfrecord":
        raise TfdsExportError(
            f"{info.folder}: its shards are {info.file_format}, and --format tfds writes "
            "TFRecord shards from TFRecord shards"
        )
    return info


def _description(info: TfdsInfo) -> dict[str, Any]:
    try:
        described = read_json_side_file(os.path.join(info.folder, INFO), "TFDS dataset_info.json")
    except SideFileError as exc:
        raise TfdsExportError(str(exc)) from None
    if not isinstance(described, dict):
        raise TfdsExportError(f"{info.folder}: dataset_info.json holds no description")
    return described


def _groups(
    ds: Dataset,
    info: TfdsInfo,
    records: np.ndarray,
    split: tuple[tuple[str, float], ...],
    shuffle: int | None,
) -> list[tuple[str, np.ndarray]]:
    """The splits to write and their records: new ones cut from ``records``, else
    each record in the split of its file (in the description's order)."""
    if split:
        return [(str(name), part) for name, part in split_groups(records, split, shuffle)]
    if shuffle is not None:
        records = np.random.default_rng(shuffle).permutation(records)
    of_file = [info.split_of(f.path) for f in ds.files]
    stray = [f.path for f, name in zip(ds.files, of_file, strict=True) if name is None]
    if stray:
        raise TfdsExportError(
            f"{stray[0]}: dataset_info.json names this file in no split; give the splits "
            "to write (--split train=0.8,val=0.2), or open only the folder's shards"
        )
    numbers = ds.frame_facts(records)[0] if len(records) else np.zeros(0, np.int64)
    names = np.array([of_file[int(n)] for n in numbers.tolist()], dtype=object)
    return [(s.name, records[names == s.name]) for s in info.splits if (names == s.name).any()]


def _shards(ds: Dataset, records: np.ndarray, shards: int | None) -> list[np.ndarray]:
    if shards is None:
        size = int(ds.frame_facts(records)[2].sum()) if len(records) else 0
        shards = max(1, math.ceil(size / SHARD_BYTES))
    return list(np.array_split(records, max(1, min(shards, len(records)))))


def _copy_beside(info: TfdsInfo, folder: str) -> None:
    """``features.json`` and the class-name files of the source folder, as they are."""
    names = [FEATURES] + sorted(
        n for n in os.listdir(info.folder) if n.endswith(".labels.txt") and "/" not in n
    )
    for name in names:
        try:
            data = read_side_file(os.path.join(info.folder, name), f"TFDS {name}")
        except SideFileError as exc:
            if name == FEATURES and not os.path.lexists(os.path.join(info.folder, name)):
                continue  # a folder without features.json: TFDS needs none to read shards
            raise TfdsExportError(str(exc)) from None
        with open(os.path.join(folder, name), "xb") as f:
            f.write(data)
