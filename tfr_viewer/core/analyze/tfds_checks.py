"""Checks of a TensorFlow Datasets folder against its own description: a shard whose
record count is not the one ``shardLengths`` in ``dataset_info.json`` gives, and a
shard the description names that is not in the folder."""

from __future__ import annotations

import os
from collections.abc import Iterator

from ..io import Dataset
from ..io.tfds import TfdsInfo, info_of
from .findings import Finding


def tfds_findings(ds: Dataset, info: TfdsInfo | None = None) -> Iterator[Finding]:
    """The shards of ``ds`` (an indexed dataset) that disagree with their TFDS folder's
    description, and the described shards that are missing from it."""
    info = info or info_of(f.path for f in ds.files)
    if info is None:
        return
    expected = info.expected()
    opened = {os.path.abspath(f.path): f for f in ds.files}
    for path, (split, length) in expected.items():
        f = opened.get(os.path.abspath(path))
        if f is not None:
            if f.index.complete and len(f.index) != length:
                yield Finding(
                    "tfds_shard_length",
                    f"dataset_info.json says this {split} shard holds {length:,} records "
                    f"(shardLengths); it holds {len(f.index):,}",
                    None,
                    file=f.path,
                )
        elif not os.path.exists(path):
            yield Finding(
                "tfds_shard_missing",
                f"dataset_info.json names this {split} shard ({length:,} records), but the "
                "folder does not hold it",
                None,
                file=path,
            )
