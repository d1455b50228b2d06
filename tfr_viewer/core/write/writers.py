"""The registry of output formats: one entry per format, read by the command line's
``--format`` choices, ``convert``'s output modes, the window's Export Rows menu and its
background task. Adding a format is one module and one entry here.

Every format but ``tfrecord`` (written by :func:`.export.export`, which shards, splits and
verifies) is run by :func:`write`: it makes the output layer's job over the dataset's
files (:mod:`.output`), lets the format fill its targets, and commits them all or none.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from ..io import CancelToken, Dataset


@dataclass(frozen=True)
class Writer:
    """One output format. ``counts`` names what :func:`write` returns a count of;
    ``edits``: the format writes edited payloads (it takes ``read``); ``extra``: the
    optional part of tfr-viewer it needs, if any."""

    name: str
    title: str  # the window's menu text
    extension: str  # a file name's suffix; empty for a folder
    folder: bool
    counts: str
    function: str  # "module:function" under this package; empty for tfrecord
    edits: bool = True
    extra: str | None = None
    describe: str = ""  # what it writes, for --format's help


WRITERS: tuple[Writer, ...] = (
    Writer("tfrecord", "&TFRecord…", ".tfrecord", False, "records", "", describe="the default"),
    Writer("jsonl", "&JSON Lines…", ".jsonl", False, "records", "formats:export_jsonl"),
    Writer("csv", "&CSV…", ".csv", False, "records", "formats:export_csv"),
    Writer(
        "images",
        "&Images into a Folder…",
        "",
        True,
        "images",
        "formats:export_images",
        describe="into the folder OUT",
    ),
    Writer(
        "parquet",
        "&Parquet…",
        ".parquet",
        False,
        "rows",
        "parquet:export_parquet",
        edits=False,
        extra="parquet",
    ),
    Writer(
        "arrow",
        "&Arrow…",
        ".arrow",
        False,
        "rows",
        "arrow_ipc:export_arrow",
        edits=False,
        extra="parquet",
        describe="one Arrow IPC file, also called Feather",
    ),
    Writer(
        "tfds",
        "TF&DS Folder…",
        "",
        True,
        "records",
        "tfds_folder:export_tfds",
        describe="a TensorFlow Datasets folder OUT from one, its splits kept or cut anew "
        "(--split), that tfds.builder_from_directory loads",
    ),
    Writer(
        "webdataset",
        "&WebDataset Shards…",
        ".tar",
        False,
        "samples",
        "webdataset:export_webdataset",
        edits=False,
        describe="tar shards, OUT with %05d",
    ),
)
BY_NAME = {w.name: w for w in WRITERS}
NAMES = tuple(BY_NAME)


def formats_help() -> str:
    """Every format with what it writes, for the command line's help."""
    parts = []
    for w in WRITERS:
        notes = [n for n in (w.describe, f"tfr-viewer[{w.extra}]" if w.extra else "") if n]
        parts.append(f"{w.name} ({', '.join(notes)})" if notes else w.name)
    return ", ".join(parts)


def writer(name: str) -> Writer:
    """The format called ``name``; ValueError names the known ones."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown format {name!r}: one of {', '.join(NAMES)}") from None


def _function(w: Writer) -> Callable[..., Any]:
    module, _, name = w.function.partition(":")
    result: Callable[..., Any] = getattr(importlib.import_module(f".{module}", __package__), name)
    return result


def write(
    name: str,
    ds: Dataset,
    records: Sequence[int] | np.ndarray,
    out: str,
    *,
    overwrite: bool = False,
    read: Callable[[int], bytes] | None = None,
    cancel: CancelToken | None = None,
    progress: Callable[[int, int], None] | None = None,
    notes: list[str] | None = None,
    **options: Any,
) -> Any:
    """Write ``records`` of an indexed dataset as format ``name`` to ``out``, through
    one output job (checked, atomic, all or none); returns what the format returns.
    ``read`` gives edited payloads (formats with ``edits`` only); ``options`` are the
    format's own (``boxes`` for images, ``per_shard`` for WebDataset); ``notes`` gets
    what the format wants said (boxes it left out)."""
    w = writer(name)
    if not w.function:
        raise ValueError("TFRecord files are written by export.export")
    kwargs: dict[str, Any] = {"cancel": cancel, "progress": progress, **options}
    if w.edits:
        kwargs["read"] = read
    from .output import OutputJob

    with OutputJob.over([f.path for f in ds.files], overwrite) as job:
        result = _function(w)(ds, records, out, job, **kwargs)
        job.commit()
    if notes is not None:
        notes.extend(job.notes)
    return result
