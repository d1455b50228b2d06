"""TFRecords to WebDataset shards: tar files in GNU format (which other loaders need),
with ``KEY.jpg`` (or the image's own format), ``KEY.cls`` (the class id as text) and
``KEY.json`` (every other feature; one named like WebDataset's own fields, ``__key__``
or ``__url__``, is renamed ``feature:__key__``) for each record that holds an image.

``pattern`` names the shards with a ``%d``-style field (``shards-%05d.tar``); without
one, everything goes into one tar. Every shard is a target of the output layer's job
(:mod:`.output`: two shards that a pattern gives one name are refused before anything is
written), written to its temporary, read back and counted; the job's owner moves them
into place only when all are good, as export does.
"""

from __future__ import annotations

import io
import tarfile
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .. import json_text
from ..decode import decode, features_of, image_format, recognise
from ..io import Cancelled, CancelToken, Dataset
from ..user_error import UserError
from .output import OutputJob, disk_errors, open_temporary

if TYPE_CHECKING:
    import numpy as np

Progress = Callable[[int, int], None] | None
PER_SHARD = 10_000


class WebDatasetError(UserError, OSError):
    """Shards that cannot be written; the message says why."""


def _json_value(kind: str, values: Sequence[Any] | np.ndarray) -> object:
    if kind != "bytes":
        items = [float(v) if kind == "float" else int(v) for v in values]
        return items[0] if len(items) == 1 else items
    texts = []
    for v in values:
        try:
            texts.append(v.decode("utf-8"))
        except UnicodeDecodeError:
            texts.append(f"<{len(v)} bytes>")
    return texts[0] if len(texts) == 1 else texts


def sample_of(payload: bytes, key: str) -> dict[str, bytes] | None:
    """The files of one record (``{"jpg": ..., "cls": ..., "json": ...}``), or None when
    the record holds no encoded image."""
    features = features_of(decode(payload).payload) or {}
    images = [a for a in recognise(features) if a.raw_shape is None]
    if not images:
        return None
    image = images[0]
    fmt = image_format(image.data) or "bin"
    files = {"jpg" if fmt == "jpeg" else fmt: image.data}
    if image.label is not None:
        files["cls"] = str(image.label).encode()
    rest = {k: _json_value(fd.kind, fd.values) for k, fd in features.items() if k != image.key}
    files["json"] = json_text.dumps({"__key__": key, **_unreserved(rest)}, sort_keys=True).encode()
    return files


def _unreserved(values: dict[str, object]) -> dict[str, object]:
    """The features with names WebDataset keeps for itself (``__key__``, ``__url__``,
    any ``__name__``) renamed ``feature:__key__``, so they never replace the sample's
    own fields."""
    out: dict[str, object] = {}
    for name, value in values.items():
        new = name
        while (
            new.startswith("__")
            and new.endswith("__")
            or new in out
            or new != name
            and new in values
        ):
            new = "feature:" + new
        out[new] = value
    return out


def _add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o644
    tar.addfile(info, io.BytesIO(data))


def export_webdataset(
    ds: Dataset,
    records: Sequence[int],
    pattern: str,
    job: OutputJob,
    *,
    per_shard: int = PER_SHARD,
    cancel: CancelToken | None = None,
    progress: Progress = None,
) -> tuple[list[str], int, int]:
    """Write the shards as targets of ``job``; returns ``(files, samples written,
    records without an image)``."""
    if per_shard < 1:
        raise WebDatasetError("a shard must hold at least one record")
    sharded = "%" in pattern
    groups = [records[i : i + per_shard] for i in range(0, len(records), per_shard)] or [[]]
    if not sharded and len(groups) > 1:
        groups = [list(records)]
    try:
        targets = [pattern % n if sharded else pattern for n in range(len(groups))]
    except (TypeError, ValueError, OverflowError) as exc:
        raise WebDatasetError(
            f"bad shard pattern {pattern!r} ({exc}); write e.g. shards-%05d.tar"
        ) from None
    job.plan_all(targets)
    written = without = done = 0
    for target, group in zip(targets, groups, strict=True):
        temp = job.temporary(target)
        count = 0
        with (
            disk_errors(target),
            open_temporary(temp) as raw,
            tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tar,
        ):
            for i in group:
                key = f"{int(i):09d}"
                files = sample_of(ds.read(int(i)), key)
                if files is None:
                    without += 1
                else:
                    for ext, data in files.items():
                        _add(tar, f"{key}.{ext}", data)
                    count += 1
                done += 1
                if done % 256 == 0:
                    if cancel is not None and cancel.cancelled:
                        raise Cancelled()
                    if progress is not None:
                        progress(done, len(records))
        with tarfile.open(temp) as check:
            keys = {m.name.split(".", 1)[0] for m in check.getmembers()}
        if len(keys) != count:
            raise WebDatasetError(f"{target}: read back {len(keys)} samples, wrote {count}")
        written += count
    return targets, written, without
