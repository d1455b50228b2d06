"""Make TFRecords from images: one function that the command line and the window share.

:func:`convert` reads each listed image on a pool of threads (:mod:`.convert_stage`,
in batches that other processes can take; the bytes as they are,
never re-encoded; format and size from the header), skips what cannot be used with the
reason (empty file, not an image, an unreadable header, a JPEG or PNG cut short, the
same bytes as an earlier file), writes one Example per image in the chosen layout
(:mod:`.convert_layouts`), and hands the records to :func:`.export.export` for
compression, shards, shuffling and splits, so the output is atomic and verified like
every export. ``label_map.pbtxt`` and ``labels.txt`` are written beside it when there
are classes, and the new files are run through the data-quality checks.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..analyze.label_map import label_map_text, name_line
from ..decode.layouts import by_name
from ..decode.layouts.registry import DEFAULT_LAYOUT
from ..io import CancelToken, Dataset
from ..io.remote import is_url
from . import bucket_output
from .bucket_output import beside, folder_of, name_of
from .convert_encode import Reencode
from .convert_layouts import keys_of
from .convert_sources import Listing, Skipped
from .convert_stage import ConvertBatch, Staged, StageOptions, stage_batch
from .export import ExportOptions, ExportSummary, export
from .output import (
    TMP_SUFFIX,
    OutputJob,
    check_target,
    create_temporary,
    disk_errors,
    input_ids,
)

if TYPE_CHECKING:
    from ..io.split_pool import Each

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class ConvertOptions:
    """``layout`` names a layout of the registry (tutorial, odapi, tfds); ``renames``
    maps a layout key to the key written instead; ``output`` says where and how (as
    for export)."""

    output: ExportOptions
    layout: str = DEFAULT_LAYOUT
    renames: Mapping[str, str] = field(default_factory=dict)
    reencode: Reencode | None = None  # None: the original bytes
    label_files: bool = True
    check: bool = True
    inputs: tuple[str, ...] = ()  # files the conversion reads (the source, a label map)


@dataclass(frozen=True)
class ConvertSummary:
    files: tuple[str, ...]
    records: int
    skipped: tuple[Skipped, ...]
    classes: Mapping[int, str]
    label_files: tuple[str, ...]
    findings: Mapping[str, int]  # severity -> count, from the checks of the new files
    finding_kinds: Mapping[str, int]
    seconds: float


def _check_renames(layout: str, renames: Mapping[str, str], boxes: bool) -> None:
    known = keys_of(layout, boxes)  # ValueError: a layout not written, or without boxes
    unknown = [k for k in renames if k not in known]
    if unknown:
        raise ValueError(
            f"the {layout} layout has no key {unknown[0]!r} to rename; its keys are "
            f"{', '.join(known)}"
        )
    targets = [renames.get(k, k) for k in known]
    if len(set(targets)) != len(targets):
        raise ValueError("two keys would be renamed to the same name")


def class_shift(layout: str, classes: Mapping[int, str]) -> int:
    """What is added to the listing's class ids so that they start where the layout's
    convention starts them (the Object Detection API's at 1, keeping 0 for the
    background), when they start at 0."""
    first = by_name(layout).FIRST_CLASS
    return first if classes and min(classes) == 0 else 0


LABEL_FILES = ("label_map.pbtxt", "labels.txt")


def label_texts(classes: Mapping[int, str]) -> dict[str, str]:
    """``label_map.pbtxt`` (the Object Detection API's) and ``labels.txt`` (one name a
    line, in id order), by file name."""
    items = sorted(classes.items())
    lines = "".join(name_line(name) for _, name in items)
    return {"label_map.pbtxt": label_map_text(dict(classes)), "labels.txt": lines}


def write_label_files(
    folder: str, classes: Mapping[int, str], job: OutputJob | None = None
) -> tuple[str, ...]:
    """The label files in ``folder``: into a bucket directly, or as targets of ``job``
    (planned, checked and written there; the caller commits)."""
    written = []
    for name, text in label_texts(classes).items():
        if is_url(folder):  # an object appears whole when its upload ends
            target = f"{folder}/{name}"
            bucket_output.write_text(target, text)
        else:
            assert job is not None, "local label files go through an output job"
            target = job.plan(os.path.join(folder, name), role="label file")
            job.write_text(target, text)
        written.append(target)
    return tuple(written)


def _inputs(listing: Listing, options: ConvertOptions) -> list[str]:
    return [*options.inputs, *(item.path for item in listing.items)]


def _check_early(listing: Listing, options: ConvertOptions, classes: Mapping[int, str]) -> None:
    """Refuse outputs that the output layer would refuse, before any image is read:
    the plain output name and the label files (the full check runs when writing)."""
    out = options.output
    inputs = input_ids(_inputs(listing, options))
    if not is_url(out.out) and "{" not in out.out and not out.shards and not out.split:
        check_target(out.out, inputs, out.overwrite)
    folder = folder_of(out.out)
    if classes and options.label_files and not is_url(folder):
        for name in LABEL_FILES:
            check_target(os.path.join(folder, name), inputs, out.overwrite, role="label file")


DETECTION = ("box_csv", "voc", "coco")


def list_source(
    path: str,
    flat: bool = False,
    file_column: str = "filename",
    label_column: str = "label",
    images: str | None = None,
    label_map: Mapping[str, int] | None = None,
    allow_outside: bool = False,
) -> Listing:
    """The listing of ``path`` by what it is: a COCO JSON, a CSV of boxes, a folder of
    Pascal VOC XML, a CSV of labels, a flat folder (``flat``) or class folders. Raises
    :class:`~.convert_sources.SourceError` when it is none of them. Files that a CSV or
    an annotation names must lie in the dataset's root as its format defines it, or in
    ``images`` (the others are skipped, with the reason), unless ``allow_outside``: the
    folder of a CSV or a COCO JSON, a source folder, and for Pascal VOC the folder above
    ``Annotations`` (which holds ``JPEGImages``)."""
    from . import convert_detection as detection, convert_sources as sources

    kind = None if flat else detection.detect_kind(path)
    root = path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
    roots = [detection.voc_root(root) if kind == "voc" else root]
    roots += [images] if images else []

    def confined(listing: Listing) -> Listing:
        listing = replace(listing, roots=tuple(roots))
        return listing if allow_outside else sources.confined(listing, roots)

    if kind == "coco":
        return confined(detection.coco_json(path, images))
    if kind == "box_csv":
        return confined(detection.box_csv(path, label_map))
    if kind == "voc":
        return confined(detection.voc_folder(path, label_map, images))
    if os.path.isfile(path):
        return confined(sources.csv_labels(path, file_column, label_column, label_map))
    if not os.path.isdir(path):
        raise sources.SourceError(f"{path} is neither a folder of images nor a CSV or JSON file")
    if flat:
        return sources.flat_folder(path)
    return sources.class_folders(path, label_map)


def class_order(listing: Listing) -> str | None:
    """A warning when the listing's images come class by class (as class folders do):
    written in that order, every shard and every stretch a model reads in order holds
    one class. None when there are fewer than two classes, the labels are mixed, or no
    two images share a label (ids rather than classes); float labels never warn."""
    labelled = [item for item in listing.items if isinstance(item.label, int)]
    labels = [item.label for item in labelled]
    distinct = len(set(labels))
    runs = 1 + sum(a != b for a, b in zip(labels, labels[1:], strict=False))
    if distinct < 2 or runs != distinct or runs == len(labels):
        return None
    first = labelled[0]
    name = first.text or listing.classes.get(int(first.label or 0), str(first.label))
    return (
        f"the images come class by class (the first {labels.count(first.label):,} are all "
        f"{name!r}): written in this order, a model reading the files in order sees one "
        "class at a time; shuffle them with a seed (--shuffle SEED)"
    )


def prepare(listing: Listing, options: ConvertOptions) -> tuple[StageOptions, dict[int, str]]:
    """Check the options against the listing (:class:`ValueError`), make the output's
    folder, and say how batches are to be staged; also the classes as written."""
    detection = any(item.boxes for item in listing.items) or listing.kind in DETECTION
    _check_renames(options.layout, options.renames, detection)
    shift = class_shift(options.layout, listing.classes)
    classes = {i + shift: name for i, name in listing.classes.items()}
    _check_early(listing, options, classes)
    folder = folder_of(options.output.out)
    if not is_url(folder):
        with disk_errors(options.output.out):
            os.makedirs(folder, exist_ok=True)
    stage = StageOptions(
        options.layout, options.renames, options.reencode, detection, shift, listing.roots
    )
    return stage, classes


def staging_path(options: ConvertOptions, k: int) -> str:
    """Batch ``k``'s staging file, made (empty) by the output layer as a temporary of
    the output, so that a killed run's file is cleaned up too."""
    out = options.output.out
    if is_url(out):
        return beside(out, f".{name_of(out)}.convert.{os.getpid()}.{k}{TMP_SUFFIX}")
    with disk_errors(out):
        path, fd = create_temporary(out)
    os.close(fd)
    return path


def remove_stagings(paths: list[str]) -> None:
    """Remove the staging files that exist (local files or objects)."""
    for path in paths:
        with contextlib.suppress(OSError):  # RemoteError is one too
            if is_url(path):
                bucket_output.remove(path)
            elif os.path.exists(path):
                os.remove(path)


def chosen_records(listing: Listing, staged: list[Staged]) -> tuple[list[int], list[Skipped]]:
    """Which staged records go out (global numbers over the batches' files in order),
    and every skipped file: unreadable ones and later copies of the same bytes in
    listing order, then images refused for a box."""
    skipped = list(listing.skipped)
    refused: list[Skipped] = []
    first: dict[str | None, str] = {}
    chosen: list[int] = []
    record = 0
    for s in sorted(staged, key=lambda s: s.n):
        if s.skipped is not None:
            skipped.append(s.skipped)
        elif s.sha256 in first:
            skipped.append(Skipped(s.path, f"the same bytes as {first[s.sha256]}", "duplicate"))
        else:
            first[s.sha256] = s.path
            if s.box_problem is not None:
                refused.append(s.box_problem)
            else:
                chosen.append(record)
        record += s.staged
    return chosen, skipped + refused


def finish(
    listing: Listing,
    staged: list[Staged],
    stagings: list[str],
    options: ConvertOptions,
    classes: Mapping[int, str],
    t0: float,
    *,
    cancel: CancelToken | None = None,
    write: Callable[[Dataset, list[int]], ExportSummary] | None = None,
    check: Callable[[Dataset], list[Any]] | None = None,
) -> ConvertSummary:
    """Export the chosen records of the staging files (in batch order), write the label
    files and check the new files. ``write`` and ``check`` take their datasets
    header-indexed (a job verifies them on its workers); without them, the export and
    the checks run here."""
    chosen, skipped = chosen_records(listing, staged)
    if not chosen:
        raise ValueError(
            f"no image could be converted ({len(skipped)} skipped"
            + (f"; the first: {skipped[0].path}: {skipped[0].reason})" if skipped else ")")
        )
    folder = folder_of(options.output.out)
    labelled = bool(classes) and options.label_files
    inputs = _inputs(listing, options)
    with OutputJob.over(inputs, options.output.overwrite) as job, Dataset(stagings) as ds:
        ds.index(verify=write is None)
        if write is None:  # the records and the label files are committed together
            label_files = write_label_files(folder, classes, job) if labelled else ()
            summary = export(ds, chosen, options.output, cancel=cancel, inputs=inputs, job=job)
        else:
            summary = write(ds, chosen)
            label_files = write_label_files(folder, classes, job) if labelled else ()
        job.commit()
    severities: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    if options.check:
        here = check is None  # the local checks take a verified index, a job its headers
        if check is None:
            from ..analyze.checks import check_dataset

            check = check_dataset
        with Dataset(list(summary.files)) as written:
            written.index(verify=here)
            for f in check(written):
                severities[f.severity] += 1
                kinds[f.kind] += 1
    return ConvertSummary(
        summary.files,
        summary.records,
        tuple(skipped),
        classes,
        label_files,
        dict(severities),
        dict(kinds),
        time.perf_counter() - t0,
    )


def convert(
    listing: Listing,
    options: ConvertOptions,
    *,
    cancel: CancelToken | None = None,
    progress: Progress | None = None,
) -> ConvertSummary:
    """Convert the listed images (see the module). Raises :class:`ValueError` for bad
    options, :class:`~.export.ExportError` when the output cannot be written, and
    :class:`Cancelled` when cancelled; nothing is left behind then."""
    t0 = time.perf_counter()
    stage, classes = prepare(listing, options)
    batch = ConvertBatch(0, listing.items, staging_path(options, 0), stage)
    try:
        staged = stage_batch(batch, cancel=cancel, progress=progress)
        summary = finish(listing, staged, [batch.staging], options, classes, t0, cancel=cancel)
    finally:
        remove_stagings([batch.staging])
    if progress is not None:
        progress(len(listing.items), len(listing.items))
    return summary


BATCHES = 64  # at most this many batches of images (at least 64 images each)


def convert_each(
    listing: Listing,
    options: ConvertOptions,
    each: Each,
    check: Callable[[Dataset], list[Any]],
) -> ConvertSummary:
    """:func:`convert` with the work given to ``each`` (processes here, or a Beam
    pipeline): runs of the listing are read, checked and staged where the work runs; the
    chosen records are exported the same way (:func:`.split_export.export_each`) and
    the new files checked by ``check`` (which takes them header-indexed)."""
    from .split_export import export_each

    t0 = time.perf_counter()
    stage, classes = prepare(listing, options)
    items = listing.items
    size = max(64, -(-len(items) // BATCHES))
    starts = range(0, len(items), size) if items else [0]
    batches = [
        ConvertBatch(lo, items[lo : lo + size], staging_path(options, k), stage)
        for k, lo in enumerate(starts)
    ]
    try:
        staged = [s for found in each(stage_batch, batches) for s in found]
        return finish(
            listing,
            staged,
            [b.staging for b in batches],
            options,
            classes,
            t0,
            write=lambda ds, chosen: export_each(ds, None, options.output, each, records=chosen),
            check=check,
        )
    finally:
        remove_stagings([b.staging for b in batches])
