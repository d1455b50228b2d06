"""Make TFRecords from images: one function that the command line and the window share.

:func:`convert` reads each listed image on a pool of threads (the bytes as they are,
never re-encoded; format and size from the header), skips what cannot be used with the
reason (empty file, not an image, an unreadable header, a JPEG or PNG cut short, the
same bytes as an earlier file), writes one Example per image in the chosen layout
(:mod:`.convert_layouts`), and hands the records to :func:`.export.export` for
compression, shards, shuffling and splits, so the output is atomic and verified like
every export. ``label_map.pbtxt`` and ``labels.txt`` are written beside it when there
are classes, and the new files are run through the data-quality checks.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import Counter
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from ..decode.detect import image_format, image_info
from ..io import Cancelled, CancelToken, Dataset, RecordWriter
from .convert_encode import Reencode, reencode_image
from .convert_layouts import Boxes, ImageFacts, keys_of, payload_for
from .convert_sources import Listing, Skipped
from .export import TMP_SUFFIX, ExportOptions, export

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class ConvertOptions:
    """``layout`` is tutorial, odapi or tfds; ``renames`` maps a layout key to the key
    written instead; ``output`` says where and how (as for export)."""

    output: ExportOptions
    layout: str = "tutorial"
    renames: Mapping[str, str] = field(default_factory=dict)
    reencode: Reencode | None = None  # None: the original bytes
    label_files: bool = True
    check: bool = True


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


def _ends_whole(data: bytes, fmt: str) -> bool:
    """Whether the bytes reach the format's end marker (JPEG EOI, PNG IEND): a file cut
    short does not. Other formats are taken as they are."""
    if fmt == "jpeg":
        return data.rstrip(b"\x00")[-2:] == b"\xff\xd9"
    if fmt == "png":
        return b"IEND" in data[-32:]
    return True


def inspect_image(path: str, reencode: Reencode | None = None) -> ImageFacts | Skipped:
    """Read one image file and its header (and re-encode it when asked), or say why it
    cannot be used."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        return Skipped(path, f"cannot read the file: {exc.strerror or exc}")
    if not data:
        return Skipped(path, "an empty file")
    fmt = image_format(data[:32])
    if fmt is None:
        head = data[:8].hex(" ")
        return Skipped(path, f"not an image (its first bytes are {head})")
    info = image_info(data)
    if info is None:
        return Skipped(path, f"a damaged {fmt.upper()}: its header cannot be read")
    if not _ends_whole(data, fmt):
        return Skipped(path, f"a damaged {fmt.upper()}: the file is cut short (no end marker)")
    digest = hashlib.sha256(data).hexdigest()
    facts = ImageFacts(path, data, fmt, info.width, info.height, info.mode, digest)
    return facts if reencode is None else reencode_image(facts, reencode)


def _check_renames(layout: str, renames: Mapping[str, str], boxes: bool) -> None:
    if boxes and layout == "tutorial":
        raise ValueError("the tutorial layout has no boxes: use --layout odapi or --layout tfds")
    known = keys_of(layout, boxes)
    unknown = [k for k in renames if k not in known]
    if unknown:
        raise ValueError(
            f"the {layout} layout has no key {unknown[0]!r} to rename; its keys are "
            f"{', '.join(known)}"
        )
    targets = [renames.get(k, k) for k in known]
    if len(set(targets)) != len(targets):
        raise ValueError("two keys would be renamed to the same name")


def _quoted(name: str) -> str:
    """A protobuf text-format string literal."""
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"


def write_label_files(folder: str, classes: Mapping[int, str]) -> tuple[str, ...]:
    """``label_map.pbtxt`` (the Object Detection API's) and ``labels.txt`` (one name a
    line, in id order) in ``folder``, each written atomically."""
    items = sorted(classes.items())
    pbtxt = "".join(f"item {{\n  id: {i}\n  name: {_quoted(name)}\n}}\n" for i, name in items)
    labels = "".join(f"{name}\n" for _, name in items)
    written = []
    for name, text in (("label_map.pbtxt", pbtxt), ("labels.txt", labels)):
        target = os.path.join(folder, name)
        tmp = f"{target}.{os.getpid()}.part"
        with open(tmp, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, target)
        written.append(target)
    return tuple(written)


def _read_all(
    listing: Listing,
    cancel: CancelToken | None,
    progress: Progress | None,
    reencode: Reencode | None = None,
) -> tuple[list[tuple[int, ImageFacts, None]], list[Skipped]]:
    """Inspect every item on all cores; ``(item number, facts, None)`` in listing order
    (the third place is for the item's normalised boxes)."""
    items = listing.items
    good: list[tuple[int, ImageFacts, None]] = []
    bad: list[Skipped] = list(listing.skipped)
    first: dict[str, str] = {}
    with ThreadPoolExecutor(os.cpu_count() or 1, "tfr-convert") as pool:
        paths = (i.path for i in items)
        for n, result in enumerate(pool.map(lambda p: inspect_image(p, reencode), paths)):
            if cancel is not None and cancel.cancelled:
                raise Cancelled()
            if isinstance(result, Skipped):
                bad.append(result)
            elif result.sha256 in first:
                bad.append(Skipped(result.path, f"the same bytes as {first[result.sha256]}"))
            else:
                first[result.sha256] = result.path
                good.append((n, result, None))
            if progress is not None and n % 64 == 0:
                progress(n, len(items))
    return good, bad


DETECTION = ("box_csv", "voc", "coco")


def list_source(
    path: str,
    flat: bool = False,
    file_column: str = "filename",
    label_column: str = "label",
    images: str | None = None,
    label_map: Mapping[str, int] | None = None,
) -> Listing:
    """The listing of ``path`` by what it is: a COCO JSON, a CSV of boxes, a folder of
    Pascal VOC XML, a CSV of labels, a flat folder (``flat``) or class folders. Raises
    :class:`~.convert_sources.SourceError` when it is none of them."""
    from . import convert_detection as detection
    from . import convert_sources as sources

    kind = None if flat else detection.detect_kind(path)
    if kind == "coco":
        return detection.coco_json(path, images)
    if kind == "box_csv":
        return detection.box_csv(path, label_map)
    if kind == "voc":
        return detection.voc_folder(path, label_map, images)
    if os.path.isfile(path):
        return sources.csv_labels(path, file_column, label_column, label_map)
    if not os.path.isdir(path):
        raise sources.SourceError(f"{path} is neither a folder of images nor a CSV or JSON file")
    if flat:
        return sources.flat_folder(path)
    return sources.class_folders(path, label_map)


TOLERANCE = 0.5  # pixels a box may stray past the image (rounding in annotation tools)


def _normalised(listing: Listing, good: list, skipped: list[Skipped]) -> tuple[list, list[Skipped]]:
    """Boxes as fractions of each image's real size; an image with a box outside it,
    or with min above max, is skipped with the box named."""
    out = []
    for n, image, _ in good:
        w, h = image.original_size
        fractions = []
        problem = None
        for b, (x0, y0, x1, y1, class_id, name) in enumerate(listing.items[n].boxes):
            if x0 > x1 or y0 > y1:
                problem = (
                    f"box {b} ({name}) has its min above its max: {x0:g}, {y0:g}, {x1:g}, {y1:g}"
                )
            elif min(x0, y0) < -TOLERANCE or x1 > w + TOLERANCE or y1 > h + TOLERANCE:
                problem = (
                    f"box {b} ({name}) at {x0:g}, {y0:g}, {x1:g}, {y1:g} lies outside the "
                    f"{w}×{h} image"
                )
            if problem:
                break
            fractions.append(
                (max(x0, 0) / w, max(y0, 0) / h, min(x1, w) / w, min(y1, h) / h, class_id, name)
            )
        if problem:
            skipped.append(Skipped(image.path, problem))
            continue
        columns = list(zip(*fractions, strict=True)) if fractions else [()] * 6
        out.append((n, image, Boxes(*columns)))
    return out, skipped


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
    detection = any(item.boxes for item in listing.items) or listing.kind in DETECTION
    _check_renames(options.layout, options.renames, detection)
    good, skipped = _read_all(listing, cancel, progress, options.reencode)
    if detection:
        good, skipped = _normalised(listing, good, skipped)
    if not good:
        raise ValueError(
            f"no image could be converted ({len(skipped)} skipped"
            + (f"; the first: {skipped[0].path}: {skipped[0].reason})" if skipped else ")")
        )
    shift = 1 if options.layout == "odapi" and min(listing.classes, default=1) == 0 else 0
    classes = {i + shift: name for i, name in listing.classes.items()}
    out = os.path.abspath(options.output.out)
    folder = os.path.dirname(out)
    os.makedirs(folder, exist_ok=True)
    # named as export's temporaries are, so that a killed run's file is cleaned up too
    staging = os.path.join(folder, f".{os.path.basename(out)}.convert.{os.getpid()}.0{TMP_SUFFIX}")
    try:
        with RecordWriter(staging) as writer:
            for n, image, boxes in good:
                item = listing.items[n]
                label = item.label + shift if isinstance(item.label, int) else item.label
                source_id = os.path.relpath(item.path, folder)
                writer.write(
                    payload_for(
                        options.layout, image, label, item.text, source_id, options.renames, boxes
                    )
                )
        with Dataset([staging]) as ds:
            ds.index(verify=True)
            summary = export(ds, range(len(ds)), options.output, cancel=cancel)
    finally:
        if os.path.exists(staging):
            os.remove(staging)
    label_files = write_label_files(folder, classes) if classes and options.label_files else ()
    severities: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    if options.check:
        from ..analyze.checks import check_dataset

        with Dataset(list(summary.files)) as written:
            written.index(verify=True)
            for f in check_dataset(written):
                severities[f.severity] += 1
                kinds[f.kind] += 1
    if progress is not None:
        progress(len(listing.items), len(listing.items))
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
