"""Where the images to convert come from: a folder of class subfolders, a CSV of file
names and labels, or a flat folder of images.

Each source gives :class:`SourceItem` rows (an image file with its label) and
:class:`Skipped` rows (a file that cannot be used, with why). Listing never reads image
bytes; that happens in :mod:`.convert`. Links are followed, but a link loop or a link
out of reach is skipped with its reason, never followed forever.
"""

from __future__ import annotations

import csv
import errno
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..text import plural
from ..user_error import UserError

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".gif", ".bmp", ".webp", ".tif", ".tiff")


class SourceError(UserError, ValueError):
    """A source that cannot be read at all; the message says what to do."""


Box = tuple[float, float, float, float, int, str]  # xmin, ymin, xmax, ymax (pixels), id, name


@dataclass(frozen=True)
class SourceItem:
    """One image to convert; ``label`` is a class id, an int or a float (regression),
    or None for no label; ``text`` is the class name when there is one; ``boxes`` are
    objects in pixel coordinates with their class."""

    path: str
    label: int | float | None = None
    text: str | None = None
    boxes: tuple[Box, ...] = ()


# Why a source file is skipped, in a word (``kind``): the summary counts them so.
SKIP_KINDS = (
    "unreadable",  # cannot be listed, resolved or read
    "not_a_regular_file",  # a FIFO, a device, a folder where a file is named
    "too_large",  # over the file size cap or the pixel budget
    "empty",
    "undecodable",  # the image does not decode
    "unsupported_format",  # TensorFlow cannot decode its format, and it is not re-encoded
    "not_reencoded",  # --jpeg-quality could not re-encode it
    "duplicate",  # the same bytes as an earlier file
    "outside_source",  # lies outside the source folder (and --image-dir)
    "link",  # a broken link, a loop, a link to a folder that holds it
    "bad_annotation",  # an annotation or CSV line that cannot be used
    "bad_box",  # a box that does not fit its image
    "unknown_class",  # a class not in the label map
)


@dataclass(frozen=True)
class Skipped:
    """A source file left out: ``reason`` in words, ``kind`` one of :data:`SKIP_KINDS`."""

    path: str
    reason: str
    kind: str


def unreadable(exc: OSError) -> str:
    """The kind of a file that could not be read: ``link`` for a link loop."""
    return "link" if exc.errno == errno.ELOOP else "unreadable"


def skip_counts(skipped: Iterable[Skipped]) -> dict[str, int]:
    """How many files were skipped for each kind, in the order of :data:`SKIP_KINDS`."""
    counts = Counter(s.kind for s in skipped)
    return {kind: counts[kind] for kind in SKIP_KINDS if counts[kind]}


def skip_summary(skipped: Sequence[Skipped], verb: str = "skipped") -> str:
    """``"5 files skipped (3 duplicate, 2 bad annotation)"``, or ``"0 files skipped"``."""
    counts = skip_counts(skipped)
    kinds = ", ".join(f"{n:,} {kind.replace('_', ' ')}" for kind, n in counts.items())
    return f"{plural(len(skipped), 'file')} {verb}" + (f" ({kinds})" if kinds else "")


@dataclass(frozen=True)
class Listing:
    """What a source holds: items, skipped files, and the classes (id → name)."""

    items: tuple[SourceItem, ...]
    skipped: tuple[Skipped, ...]
    classes: Mapping[int, str]
    kind: str  # class_folders, csv, flat, box_csv, voc or coco
    roots: tuple[str, ...] = ()  # the folders the source names its images in


def confined(listing: Listing, roots: list[str]) -> Listing:
    """``listing`` with the files that lie outside every folder of ``roots`` (after
    links are resolved: ``../``, absolute paths, links that lead out) moved to the
    skipped ones."""
    reals = [os.path.realpath(r).rstrip(os.sep) + os.sep for r in roots]
    items, skipped = [], list(listing.skipped)
    for item in listing.items:
        real = os.path.realpath(item.path)
        if any(real.startswith(r) for r in reals):
            items.append(item)
        else:
            skipped.append(
                Skipped(
                    item.path,
                    f"lies outside {roots[0]}"
                    + (f" and {roots[1]}" if len(roots) > 1 else "")
                    + "; --allow-outside reads it",
                    "outside_source",
                )
            )
    return replace(listing, items=tuple(items), skipped=tuple(skipped))


def _leads_up(link: Path, folder: Path, root: Path) -> bool:
    """Whether a folder link leads to the folder that holds it or to one of its
    ancestors (``loop -> ..``): its images would be listed again, under another class."""
    try:
        target = os.path.realpath(link)
        here = [os.path.realpath(folder), os.path.realpath(root)]
    except OSError:
        return True
    return any(h == target or h.startswith(target.rstrip(os.sep) + os.sep) for h in here)


def _walk_images(root: Path) -> tuple[list[Path], list[Skipped]]:
    """Image files below ``root`` (by suffix), sorted; links resolved once each, a
    loop (a folder seen again) skipped, and a folder link that leads up (to a folder
    holding it) not followed."""
    found: list[Path] = []
    skipped: list[Skipped] = []
    seen: set[str] = set()

    def visit(folder: Path) -> None:
        try:
            real = os.path.realpath(folder)
        except OSError as exc:
            skipped.append(Skipped(str(folder), f"cannot resolve the folder: {exc}", "unreadable"))
            return
        if real in seen:
            skipped.append(
                Skipped(str(folder), "a link back to a folder already listed (loop)", "link")
            )
            return
        seen.add(real)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            skipped.append(Skipped(str(folder), f"cannot list the folder: {exc}", "unreadable"))
            return
        for entry in entries:
            path = Path(entry.path)
            try:
                is_dir = entry.is_dir()
                is_file = entry.is_file()
            except OSError as exc:
                skipped.append(Skipped(str(path), f"cannot read: {exc}", unreadable(exc)))
                continue
            if is_dir and entry.is_symlink() and _leads_up(path, folder, root):
                skipped.append(
                    Skipped(str(path), "a link to a folder that holds it: not followed", "link")
                )
            elif is_dir:
                visit(path)
            elif is_file and path.suffix.lower() in IMAGE_SUFFIXES:
                found.append(path)
            elif entry.is_symlink() and not os.path.exists(path):
                if path.suffix.lower() in IMAGE_SUFFIXES:
                    skipped.append(Skipped(str(path), "a broken link (or a link loop)", "link"))

    visit(root)
    return found, skipped


def class_folders(root: str, label_map: Mapping[str, int] | None = None) -> Listing:
    """Each subfolder of ``root`` is a class: ids from the sorted names starting at 0,
    or from ``label_map`` (name → id; a folder it lacks is skipped)."""
    base = Path(root)
    if not base.is_dir():
        raise SourceError(f"{root} is not a folder")
    subfolders = sorted(p for p in base.iterdir() if p.is_dir())
    if not subfolders:
        raise SourceError(
            f"{root} has no subfolders: for a folder of images with no labels, "
            "convert it as a flat folder"
        )
    ids = (
        dict(label_map) if label_map is not None else {p.name: i for i, p in enumerate(subfolders)}
    )
    items: list[SourceItem] = []
    skipped: list[Skipped] = []
    for folder in subfolders:
        files, bad = _walk_images(folder)
        skipped += bad
        if folder.name not in ids:
            skipped += [
                Skipped(str(f), f"class {folder.name!r} is not in the label map", "unknown_class")
                for f in files
            ]
            continue
        items += [SourceItem(str(f), ids[folder.name], folder.name) for f in files]
    classes = {i: name for name, i in ids.items() if (base / name).is_dir()}
    return Listing(tuple(items), tuple(skipped), classes, "class_folders", (root,))


def flat_folder(root: str) -> Listing:
    """Every image below ``root``, with no label."""
    base = Path(root)
    if not base.is_dir():
        raise SourceError(f"{root} is not a folder")
    files, skipped = _walk_images(base)
    items = tuple(SourceItem(str(f)) for f in files)
    return Listing(items, tuple(skipped), {}, "flat", (root,))


def _label_value(text: str) -> int | float | str:
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def csv_labels(
    path: str,
    file_column: str = "filename",
    label_column: str = "label",
    label_map: Mapping[str, int] | None = None,
) -> Listing:
    """A CSV or TSV (by its first line) with a file-name column and a label column.
    Labels that are class names get ids from their sorted names (or ``label_map``);
    integers are ids; other numbers are regression targets. Paths are relative to the
    CSV's folder."""
    base = Path(path).parent
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            head = f.readline()
            f.seek(0)
            delimiter = "\t" if head.count("\t") > head.count(",") else ","
            rows = list(csv.DictReader(f, delimiter=delimiter))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise SourceError(f"cannot read {path}: {exc}") from None
    columns = rows[0].keys() if rows else []
    for needed in (file_column, label_column):
        if rows and needed not in columns:
            raise SourceError(
                f"{path} has no column {needed!r}; its columns are {', '.join(columns)} "
                "(name them with --file-column and --label-column)"
            )
    values = [(r.get(file_column) or "", _label_value(r.get(label_column) or "")) for r in rows]
    names = sorted({v for _, v in values if isinstance(v, str) and v})
    ids = dict(label_map) if label_map is not None else {n: i for i, n in enumerate(names)}
    items: list[SourceItem] = []
    skipped: list[Skipped] = []
    for line, (name, label) in enumerate(values, start=2):
        where = str(base / name) if name else f"{path}:{line}"
        if not name:
            skipped.append(Skipped(where, f"line {line} has no file name", "bad_annotation"))
        elif label == "":
            skipped.append(Skipped(where, f"line {line} has no label", "bad_annotation"))
        elif isinstance(label, str):
            if label not in ids:
                skipped.append(
                    Skipped(where, f"class {label!r} is not in the label map", "unknown_class")
                )
            else:
                items.append(SourceItem(where, ids[label], label))
        else:
            items.append(SourceItem(where, label))
    classes = {i: n for n, i in ids.items()} if names else {}
    folder = os.path.dirname(os.path.abspath(path))
    return Listing(tuple(items), tuple(skipped), classes, "csv", (folder,))
