"""Exports to other formats: images into a folder, JSON Lines, CSV of scalar features.

Like TFRecord exports these are atomic: a file is written under a temporary name and
moved into place; an image folder is filled under a temporary name and renamed.
"""

from __future__ import annotations

import base64
import csv
import json
import os
import re
import shutil
from collections.abc import Callable, Sequence

from ..decode import (
    FeatureData,
    decode,
    features_of,
    image_format,
    image_info,
    payload_json,
    recognise,
    write_json,
)
from ..io import Cancelled, CancelToken, Dataset
from ..text import float_text
from .export import disk_errors, refuse_url

Progress = Callable[[int, int], None] | None
Reader = Callable[[int], bytes] | None  # payload of a record (edits applied), else ds.read
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _features(payload: bytes) -> dict:
    return features_of(decode(payload).payload) or {}


def _tick(cancel: CancelToken | None, progress: Progress, done: int, total: int) -> None:
    if cancel is not None and cancel.cancelled:
        raise Cancelled()
    if progress is not None and done % 256 == 0:
        progress(done, total)


def _atomic_file(path: str, write: Callable[[str], None]) -> None:
    tmp = os.path.join(
        os.path.dirname(os.path.abspath(path)), f".{os.path.basename(path)}.{os.getpid()}.tmp"
    )
    try:
        with disk_errors(path):
            write(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def export_jsonl(
    ds: Dataset,
    records: Sequence[int],
    path: str,
    *,
    cancel: CancelToken | None = None,
    progress: Progress = None,
    read: Reader = None,
) -> int:
    """One ``show --json`` object per line."""
    refuse_url(path)

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as f:
            for n, i in enumerate(records):
                _tick(cancel, progress, n, len(records))
                ref = ds.ref(i)
                row = {
                    "index": i,
                    "file": ref.file,
                    "offset": ref.offset,
                    "length": ref.length,
                    "status": ref.status.kind,
                }
                row.update(payload_json(decode((read or ds.read)(i)), lazy=True))
                write_json(row, f.write)
                f.write("\n")

    _atomic_file(path, write)
    return len(records)


def feature_keys(
    ds: Dataset, records: Sequence[int], sample: int = 1000, read: Reader = None
) -> list[str]:
    """Every key seen in up to ``sample`` records spread over ``records``, in the order
    first seen."""
    records = list(records)
    step = max(1, len(records) // sample)
    keys: dict[str, None] = {}
    for i in records[::step]:
        keys.update(dict.fromkeys(_features((read or ds.read)(i))))
    return list(keys)


def _csv_value(value: object, kind: str) -> object:
    if kind == "int64":
        return int(value)  # type: ignore[call-overload]
    if kind == "float":
        return float(float_text(value))  # type: ignore[arg-type]
    data = bytes(value)  # type: ignore[call-overload]
    fmt = image_format(data)
    if fmt is not None:
        return f"<{fmt} image, {len(data)} bytes>"
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return "base64:" + base64.b64encode(data).decode("ascii")


def csv_cell(fd: FeatureData | None) -> object:
    """A scalar as itself, a list as a JSON array, a missing feature as empty. Images are
    described (exported by the images format), other non-text bytes as ``base64:...``."""
    if fd is None:
        return ""
    values = [_csv_value(v, fd.kind) for v in fd.values]
    return values[0] if len(values) == 1 else json.dumps(values, ensure_ascii=False)


def export_csv(
    ds: Dataset,
    records: Sequence[int],
    path: str,
    *,
    cancel: CancelToken | None = None,
    progress: Progress = None,
    read: Reader = None,
) -> list[str]:
    """A CSV with index, file, offset and every feature; returns the columns."""
    refuse_url(path)
    keys = feature_keys(ds, records, read=read)

    def write(tmp: str) -> None:
        with open(tmp, "w", newline="", encoding="utf-8") as f:
            out = csv.writer(f)
            out.writerow(["index", "file", "offset", *keys])
            for n, i in enumerate(records):
                _tick(cancel, progress, n, len(records))
                ref = ds.ref(i)
                feats = _features((read or ds.read)(i))
                out.writerow([i, ref.file, ref.offset, *(csv_cell(feats.get(k)) for k in keys)])

    _atomic_file(path, write)
    return ["index", "file", "offset", *keys]


def export_images(
    ds: Dataset,
    records: Sequence[int],
    folder: str,
    *,
    cancel: CancelToken | None = None,
    progress: Progress = None,
    read: Reader = None,
    boxes: str | None = None,
) -> int:
    """Every encoded image, as ``record-N.ext``, in per-class subfolders when the
    record has a class label (text preferred). ``folder`` must not exist yet. With
    ``boxes`` (voc, yolo or coco), the images' boxes are written beside them too
    (:mod:`.box_formats`)."""
    refuse_url(folder)
    from .box_formats import BoxWriter

    if os.path.exists(folder):
        raise FileExistsError(f"{folder} already exists; choose a new folder name")
    tmp = folder.rstrip("/") + f".{os.getpid()}.tmp"
    box_writer = BoxWriter(boxes, tmp) if boxes else None
    os.makedirs(tmp)
    written = 0
    try:
        for n, i in enumerate(records):
            _tick(cancel, progress, n, len(records))
            for ann in recognise(_features((read or ds.read)(i))):
                if ann.raw_shape is not None:
                    continue
                label = ann.label_text or (str(ann.label) if ann.label is not None else "")
                sub = os.path.join(tmp, _SAFE.sub("_", label)) if label else tmp
                os.makedirs(sub, exist_ok=True)
                ext = image_format(ann.data) or "bin"
                suffix = (
                    f"-{ann.key.replace('/', '_')}-{ann.index}"
                    if ann.index or (ann.key not in ("image/encoded", "image", "image_raw"))
                    else ""
                )
                name = f"record-{i}{suffix}.{'jpg' if ext == 'jpeg' else ext}"
                target = os.path.join(sub, name)
                with disk_errors(folder), open(target, "wb") as f:
                    f.write(ann.data)
                written += 1
                if box_writer is not None:
                    info = image_info(ann.data)
                    if info is not None:
                        with disk_errors(folder):
                            box_writer.add(
                                target, info.width, info.height, ann.boxes, ann.normalized
                            )
        if box_writer is not None:
            with disk_errors(folder):
                box_writer.finish()
        os.rename(tmp, folder)
    finally:
        if os.path.exists(tmp):
            shutil.rmtree(tmp, ignore_errors=True)
    return written
