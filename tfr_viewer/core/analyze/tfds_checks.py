"""Checks of a TensorFlow Datasets folder against its own description: a shard whose
record count is not the one ``shardLengths`` in ``dataset_info.json`` gives, and a
shard the description names that is not in the folder."""

from __future__ import annotations

import os
from collections.abc import Iterator

from ..io import Dataset
from ..io.tfds import TfdsInfo, info_of
from .findings import Finding

NAMED = 20  # missing shards named one by one, a split; the rest are counted


def tfds_findings(ds: Dataset, info: TfdsInfo | None = None) -> Iterator[Finding]:
    """The shards of ``ds`` (an indexed dataset) that disagree with their TFDS folder's
    description, and the described shards that are missing from it."""
    info = info or info_of(f.path for f in ds.files)
    if info is None:
        return
    opened = {os.path.abspath(f.path): f for f in ds.files}
    try:
        listed = set(os.listdir(info.folder))
    except OSError:
        listed = set()
    # the files in the folder (opened or not): the shards named are those and the first
    # few missing, so the cost follows the folder, not the description
    present = set(opened) | {os.path.abspath(os.path.join(info.folder, n)) for n in listed}
    for split in info.splits:
        missing = shown = 0
        for path, length in info.shards(split, present, named=NAMED):
            if not path:  # the rest of the split: none of them in the folder
                missing += length
                continue
            f = opened.get(os.path.abspath(path))
            if f is not None:
                if f.index.complete and len(f.index) != length:
                    yield Finding(
                        "tfds_shard_length",
                        f"dataset_info.json says this {split.name} shard holds {length:,} "
                        f"records (shardLengths); it holds {len(f.index):,}",
                        None,
                        file=f.path,
                    )
            elif os.path.basename(path) not in listed:
                missing += 1
                if shown < NAMED:
                    shown += 1
                    yield Finding(
                        "tfds_shard_missing",
                        f"dataset_info.json names this {split.name} shard ({length:,} "
                        "records), but the folder does not hold it",
                        None,
                        file=path,
                    )
        if missing > shown:
            more = f"… and {missing - shown:,} more" if shown else f"{missing:,}"
            yield Finding(
                "tfds_shard_missing",
                f"{more} {split.name} shards that dataset_info.json names are not in the folder",
                None,
                file=info.folder,
            )
