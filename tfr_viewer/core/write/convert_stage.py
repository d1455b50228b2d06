"""The per-image half of a conversion, in batches that any process can do: read each
image of a run of the listing (on a pool of threads), check its boxes, and write its
record to the batch's staging TFRecord. What needs every image at once (the same bytes
in two files, which records go out) is decided afterwards, from what each batch says of
its images (:class:`Staged`), by :func:`~.convert.convert`'s finish."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from ..decode.image_verdict import TENSORFLOW_FORMATS, judge
from ..io import Cancelled, CancelToken, RecordWriter
from .convert_encode import Reencode, reencode_image
from .convert_layouts import Boxes, ImageFacts, payload_for
from .convert_sources import Skipped, SourceItem, unreadable
from .output import open_temporary

TOLERANCE = 0.5  # pixels a box may stray past the image (rounding in annotation tools)


@dataclass(frozen=True)
class StageOptions:
    """What a batch needs to know of the conversion."""

    layout: str
    renames: Mapping[str, str] = field(default_factory=dict)
    reencode: Reencode | None = None
    detection: bool = False  # normalise boxes
    shift: int = 0  # added to class ids
    roots: tuple[str, ...] = ()  # source ids are paths relative to the first that holds one


@dataclass(frozen=True)
class ConvertBatch:
    """Items ``first .. first + len(items)`` of a listing, staged into ``staging``."""

    first: int
    items: tuple[SourceItem, ...]
    staging: str
    options: StageOptions

    def __len__(self) -> int:
        return len(self.items)


@dataclass(frozen=True)
class Staged:
    """What became of item ``n``: unreadable (``skipped``), or read with its SHA-256,
    and then either staged (a record in its batch's file) or refused for a box."""

    n: int
    path: str
    sha256: str | None = None
    skipped: Skipped | None = None
    box_problem: Skipped | None = None

    @property
    def staged(self) -> bool:
        return self.sha256 is not None and self.box_problem is None


def max_image_bytes() -> int:
    """The largest image file read (``TFR_VIEWER_MAX_IMAGE_MB``, default 256 MB)."""
    from ..io.cache_entry import int_env

    return max(1, int_env("TFR_VIEWER_MAX_IMAGE_MB", 256)) << 20


def read_image_file(path: str) -> bytes | Skipped:
    """The bytes of an image file named by a source; or why they are not read: not a
    regular file (a FIFO or a device, whose reads block or never end), larger than
    :func:`max_image_bytes`, unreadable or empty. Nothing of the file is quoted."""
    from ..io.paths import not_a_regular_file

    odd = not_a_regular_file(path)
    if odd is not None:
        return Skipped(path, odd.split(";")[0], "not_a_regular_file")
    limit = max_image_bytes()
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # replaced since the check
                return Skipped(path, "is not a regular file", "not_a_regular_file")
            data = f.read(limit + 1)
    except OSError as exc:
        return Skipped(path, f"cannot read the file: {exc.strerror or exc}", unreadable(exc))
    if len(data) > limit:
        return Skipped(
            path,
            f"larger than {limit >> 20:,} MB, the most read for one image "
            "(TFR_VIEWER_MAX_IMAGE_MB sets it)",
            "too_large",
        )
    if not data:
        return Skipped(path, "an empty file", "empty")
    return data


def inspect_image(path: str, reencode: Reencode | None = None) -> ImageFacts | Skipped:
    """Read one image file and decode it (:func:`..decode.image_verdict.judge`), and
    re-encode it when asked; or say why it cannot be used: it does not decode, it is
    above the pixel budget, or TensorFlow cannot decode its format and it is not
    re-encoded."""
    data = read_image_file(path)
    if isinstance(data, Skipped):
        return data
    side = reencode.max_side if reencode is not None else None
    verdict, img = judge(data, side=side, keep=reencode is not None, quote=False)
    if verdict.error is not None or verdict.too_large:
        return Skipped(
            path, f"{verdict.problem}", "too_large" if verdict.too_large else "undecodable"
        )
    if img is None and verdict.format not in TENSORFLOW_FORMATS:
        return Skipped(
            path, f"{verdict.warning}; --jpeg-quality re-encodes it as JPEG", "unsupported_format"
        )
    fmt = verdict.format or "image"
    digest = hashlib.sha256(data).hexdigest()
    facts = ImageFacts(path, data, fmt, verdict.width, verdict.height, verdict.mode, digest)
    if img is None:
        return facts
    with img:
        return reencode_image(facts, reencode, img)  # type: ignore[arg-type]


def normalised(item: SourceItem, image: ImageFacts) -> Boxes | Skipped:
    """The item's boxes as fractions of the image's real size, or why it is refused (a
    box outside the image, or with min above max)."""
    w, h = image.original_size
    fractions = []
    for b, (x0, y0, x1, y1, class_id, name) in enumerate(item.boxes):
        if x0 > x1 or y0 > y1:
            return Skipped(
                image.path,
                f"box {b} ({name}) has its min above its max: {x0:g}, {y0:g}, {x1:g}, {y1:g}",
                "bad_box",
            )
        if min(x0, y0) < -TOLERANCE or x1 > w + TOLERANCE or y1 > h + TOLERANCE:
            return Skipped(
                image.path,
                f"box {b} ({name}) at {x0:g}, {y0:g}, {x1:g}, {y1:g} lies outside the "
                f"{w}×{h} image",
                "bad_box",
            )
        fractions.append(
            (max(x0, 0) / w, max(y0, 0) / h, min(x1, w) / w, min(y1, h) / h, class_id, name)
        )
    columns = list(zip(*fractions, strict=True)) if fractions else [()] * 6
    return Boxes(*columns)


def source_id_of(path: str, roots: tuple[str, ...]) -> str:
    """The image's id in its record: its path inside the first of ``roots`` that holds
    it (``tulip/tulip_004.jpg``, with ``/`` on every system), or its file name when none
    does. The same whatever the spelling of the source's path or the working folder."""
    for spell in (os.path.abspath, os.path.realpath):  # as named, then links resolved
        for root in roots:
            inside = os.path.relpath(spell(path), spell(root))
            if inside != os.pardir and not inside.startswith(os.pardir + os.sep):
                return inside.replace(os.sep, "/")
    return os.path.basename(path)


def stage_batch(
    batch: ConvertBatch,
    *,
    cancel: CancelToken | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Staged]:
    """Read, check and stage every item of ``batch``, in order."""
    from .bucket_output import local_copy

    opt = batch.options
    out: list[Staged] = []
    with (
        local_copy(batch.staging) as staging,  # uploaded when it is a URL
        ThreadPoolExecutor(os.cpu_count() or 1, "tfr-convert") as pool,
        RecordWriter(open_temporary(staging)) as writer,
    ):
        paths = (i.path for i in batch.items)
        for k, image in enumerate(pool.map(lambda p: inspect_image(p, opt.reencode), paths)):
            if cancel is not None and cancel.cancelled:
                raise Cancelled()
            item, n = batch.items[k], batch.first + k
            if isinstance(image, Skipped):
                out.append(Staged(n, item.path, skipped=image))
                continue
            boxes = normalised(item, image) if opt.detection else None
            if isinstance(boxes, Skipped):
                out.append(Staged(n, item.path, image.sha256, box_problem=boxes))
                continue
            label = item.label + opt.shift if isinstance(item.label, int) else item.label
            source_id = source_id_of(item.path, opt.roots)
            writer.write(
                payload_for(opt.layout, image, label, item.text, source_id, opt.renames, boxes)
            )
            out.append(Staged(n, item.path, image.sha256))
            if progress is not None and k % 64 == 0:
                progress(k, len(batch.items))
    return out
