"""Exports to other formats: images into a folder, JSON Lines, CSV of scalar features.

Each writer plans its targets in an :class:`~.output.OutputJob` and fills their
temporaries; the job's owner (:func:`.writers.write`) commits them, so these exports are
atomic and checked like TFRecord exports. Names made from data (class names, feature
keys) go through the output layer's safe names and cannot leave the folder or collide.
"""

from __future__ import annotations

import base64
import csv
import io
import os
from collections.abc import Callable, Sequence
from typing import Any

from ..decode import (
    FeatureData,
    decode,
    features_of,
    image_format,
    image_info,
    payload_json,
    recognise,
)
from ..decode.file_payloads import decode_record
from ..io import Cancelled, CancelToken, Dataset
from ..json_text import dumps, write_json
from ..text import float_text
from .output import ExportError, NameMap, OutputJob, disk_errors, safe_name

Progress = Callable[[int, int], None] | None
Reader = Callable[[int], bytes] | None  # payload of a record (edits applied), else ds.read


def _features(payload: bytes) -> dict[str, Any]:
    return features_of(decode(payload).payload) or {}


def _tick(cancel: CancelToken | None, progress: Progress, done: int, total: int) -> None:
    if cancel is not None and cancel.cancelled:
        raise Cancelled()
    if progress is not None and done % 256 == 0:
        progress(done, total)


def export_jsonl(
    ds: Dataset,
    records: Sequence[int],
    path: str,
    job: OutputJob,
    *,
    cancel: CancelToken | None = None,
    progress: Progress = None,
    read: Reader = None,
) -> int:
    """One ``show --json`` object per line."""
    job.plan(path)
    with disk_errors(path), io.TextIOWrapper(job.create(path), encoding="utf-8") as f:
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
            row.update(payload_json(decode_record(ds, i, (read or ds.read)(i)), lazy=True))
            write_json(row, f.write)
            f.write("\n")
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


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object, raw: bool = False) -> object:
    """A text cell that a spreadsheet would run as a formula (it starts with ``=``,
    ``+``, ``-``, ``@``, a tab or a carriage return) with a ``'`` put before it, so that
    the spreadsheet shows it as text; numbers and ``raw`` cells as they are."""
    if raw or not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    return "'" + value


def csv_cell(fd: FeatureData | None) -> object:
    """A scalar as itself, a list as a JSON array, a missing feature as empty. Images are
    described (exported by the images format), other non-text bytes as ``base64:...``."""
    if fd is None:
        return ""
    values = [_csv_value(v, fd.kind) for v in fd.values]
    return values[0] if len(values) == 1 else dumps(values, ensure_ascii=False)


def export_csv(
    ds: Dataset,
    records: Sequence[int],
    path: str,
    job: OutputJob,
    *,
    cancel: CancelToken | None = None,
    progress: Progress = None,
    read: Reader = None,
    raw_cells: bool = False,
) -> int:
    """A CSV with index, file, offset and every feature; returns the rows written. Text
    cells that a spreadsheet would run as formulas are neutralised (:func:`safe_cell`)
    unless ``raw_cells``."""
    job.plan(path)
    keys = feature_keys(ds, records, read=read)
    stream = job.create(path)
    with (
        disk_errors(path),
        io.TextIOWrapper(stream, encoding="utf-8", errors="backslashreplace", newline="") as f,
    ):
        out = csv.writer(f)

        def row(cells: list[object]) -> None:
            out.writerow([safe_cell(c, raw_cells) for c in cells])

        row(["index", "file", "offset", *keys])
        for n, i in enumerate(records):
            _tick(cancel, progress, n, len(records))
            ref = ds.ref(i)
            feats = _features((read or ds.read)(i))
            row([i, ref.file, ref.offset, *(csv_cell(feats.get(k)) for k in keys)])
    return len(records)


def export_images(
    ds: Dataset,
    records: Sequence[int],
    folder: str,
    job: OutputJob,
    *,
    cancel: CancelToken | None = None,
    progress: Progress = None,
    read: Reader = None,
    boxes: str | None = None,
) -> int:
    """Every encoded image, as ``record-N.ext``, in per-class subfolders when the
    record has a class label (text preferred). ``folder`` must not exist yet. With
    ``boxes`` (voc, yolo or coco), the images' boxes are written beside them too
    (:mod:`.box_formats`). Class names and keys become safe names; two that would
    share a name are refused."""
    from .box_formats import BoxWriter

    job.plan(folder, folder=True)
    tmp = job.temporary_folder(folder)
    box_writer = BoxWriter(boxes, tmp) if boxes else None
    classes = NameMap("class names")
    keys = NameMap("feature keys")
    written = 0
    for n, i in enumerate(records):
        _tick(cancel, progress, n, len(records))
        for ann in recognise(_features((read or ds.read)(i))):
            if ann.raw_shape is not None:
                continue
            label = ann.label_text or (str(ann.label) if ann.label is not None else "")
            sub = os.path.join(tmp, classes.name(label)) if label else tmp
            with disk_errors(folder):
                os.makedirs(sub, exist_ok=True)
            ext = image_format(ann.data) or "bin"
            suffix = (
                f"-{keys.name(ann.key)}-{ann.index}"
                if ann.index or (ann.key not in ("image/encoded", "image", "image_raw"))
                else ""
            )
            name = safe_name(f"record-{i}{suffix}.{'jpg' if ext == 'jpeg' else ext}")
            target = os.path.join(sub, name)
            try:
                with disk_errors(folder), open(target, "xb") as f:
                    f.write(ann.data)
            except FileExistsError:
                raise ExportError(
                    f"two images of record {i} would both be written as {name}; nothing was written"
                ) from None
            written += 1
            if box_writer is not None:
                info = image_info(ann.data)
                if info is not None:
                    with disk_errors(folder):
                        box_writer.add(target, info.width, info.height, ann.boxes, ann.normalized)
    if box_writer is not None:
        with disk_errors(folder):
            box_writer.finish()
        if box_writer.skipped:
            job.notes.append(
                f"{box_writer.skipped:,} box(es) with a coordinate that is not a finite number "
                f"(NaN or infinite) were left out of the {str(boxes).upper()} files"
            )
    return written
