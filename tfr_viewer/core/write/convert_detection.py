"""Object-detection sources: a CSV with one row per box (the tutorials'
``filename,width,height,class,xmin,ymin,xmax,ymax``), a folder of Pascal VOC XML files,
or a COCO JSON file.

Boxes are read in pixels and kept so, with the class name; :mod:`.convert` normalises
them by the image's real size (from its header) and skips an image whose box lies
outside it. Class ids come from the label map, COCO's own category ids, or the sorted
class names starting at 1 (the Object Detection API keeps 0 for the background).
"""

from __future__ import annotations

import csv
import json
import math
import os
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..json_text import load_document
from .convert_sources import Listing, Skipped, SourceError, SourceItem

BOX_COLUMNS = ("filename", "class", "xmin", "ymin", "xmax", "ymax")


def _ids(names: set[str], label_map: Mapping[str, int] | None) -> dict[str, int]:
    if label_map is not None:
        return dict(label_map)
    return {name: i for i, name in enumerate(sorted(names), start=1)}


def _items(
    boxes: Mapping[str, list[tuple[float, float, float, float, str]]],
    ids: Mapping[str, int],
    kind: str,
    skipped: list[Skipped],
) -> Listing:
    """Items from ``{image path: [(xmin, ymin, xmax, ymax, class), ...]}``; an image with
    a class the ids lack is skipped."""
    items = []
    for path, found in boxes.items():
        unknown = sorted({c for *_, c in found if c not in ids})
        if unknown:
            skipped.append(
                Skipped(path, f"class {unknown[0]!r} is not in the label map", "unknown_class")
            )
            continue
        items.append(
            SourceItem(
                path, boxes=tuple((x0, y0, x1, y1, ids[c], c) for x0, y0, x1, y1, c in found)
            )
        )
    classes = {i: name for name, i in ids.items()}
    return Listing(tuple(items), tuple(skipped), classes, kind)


def box_csv(path: str, label_map: Mapping[str, int] | None = None) -> Listing:
    """One row per box; the file names are relative to the CSV."""
    base = Path(path).parent
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise SourceError(f"cannot read {path}: {exc}") from None
    if rows:
        missing = [c for c in BOX_COLUMNS if c not in rows[0]]
        if missing:
            raise SourceError(
                f"{path} has no column {missing[0]!r}: a box CSV has the columns "
                f"{','.join(BOX_COLUMNS)} (width and height may follow filename)"
            )
    boxes: dict[str, list[Any]] = {}
    skipped: list[Skipped] = []
    for line, row in enumerate(rows, start=2):
        image = str(base / row["filename"])
        try:
            box = _corners({c: row.get(c) for c in CORNERS})
        except ValueError as exc:
            skipped.append(Skipped(image, f"line {line}: {exc}", "bad_annotation"))
            continue
        boxes.setdefault(image, []).append((*box, row["class"].strip()))
    names = {c for found in boxes.values() for *_, c in found}
    return _items(boxes, _ids(names, label_map), "box_csv", skipped)


def _image_beside(xml_path: Path, name: str, images: str | None) -> str:
    """Where a VOC file's image is: the images folder given, beside the XML, or in the
    VOC layout's ``JPEGImages`` folder next to ``Annotations``."""
    for folder in ([Path(images)] if images else []) + [
        xml_path.parent,
        xml_path.parent.parent / "JPEGImages",
    ]:
        candidate = folder / name
        if candidate.exists():
            return str(candidate)
    return str(xml_path.parent / name)


def voc_root(folder: str) -> str:
    """The root of a Pascal VOC dataset whose annotations are ``folder``: the folder
    above it when it is VOC's ``Annotations`` (beside ``JPEGImages``), else itself."""
    path = Path(folder)
    return str(path.parent) if path.name == "Annotations" else folder


def voc_folder(
    root: str, label_map: Mapping[str, int] | None = None, images: str | None = None
) -> Listing:
    """Every ``*.xml`` below ``root`` that is a Pascal VOC annotation."""
    folder = Path(root)
    if not folder.is_dir():
        raise SourceError(f"{root} is not a folder")
    boxes: dict[str, list[Any]] = {}
    skipped: list[Skipped] = []
    for xml_path in sorted(folder.rglob("*.xml")):
        try:
            tree = ET.parse(xml_path)
        except (ET.ParseError, OSError) as exc:
            skipped.append(Skipped(str(xml_path), f"not readable XML: {exc}", "bad_annotation"))
            continue
        ann = tree.getroot()
        name = (ann.findtext("filename") or "").strip()
        if ann.tag != "annotation" or not name:
            skipped.append(
                Skipped(
                    str(xml_path), "not a Pascal VOC annotation (no filename)", "bad_annotation"
                )
            )
            continue
        image = _image_beside(xml_path, name, images)
        found = []
        try:
            for obj in ann.iter("object"):
                bb = obj.find("bndbox")
                if bb is None:
                    continue
                coords = _corners({c: bb.findtext(c) for c in CORNERS})
                found.append((*coords, (obj.findtext("name") or "").strip()))
        except ValueError as exc:
            skipped.append(Skipped(str(xml_path), str(exc), "bad_annotation"))
            continue
        boxes.setdefault(image, []).extend(found)
    if not boxes and not skipped:
        raise SourceError(f"{root} holds no Pascal VOC .xml files")
    names = {c for found in boxes.values() for *_, c in found}
    return _items(boxes, _ids(names, label_map), "voc", skipped)


CORNERS = ("xmin", "ymin", "xmax", "ymax")


def _corners(texts: Mapping[str, str | None]) -> tuple[float, float, float, float]:
    """A box's corners from their texts: each present, a finite number, min <= max;
    ValueError says which is wrong."""
    values = []
    for corner in CORNERS:
        text = texts.get(corner)
        if text is None or not str(text).strip():
            raise ValueError(f"a box has no {corner}")
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"a box's {corner} is {str(text)[:20]!r}, not a number") from None
        if not math.isfinite(value):
            raise ValueError(f"a box's {corner} is {value}, not a finite number")
        values.append(value)
    x0, y0, x1, y1 = values
    if x0 > x1 or y0 > y1:
        raise ValueError(f"a box's min passes its max ({x0:g}, {y0:g}, {x1:g}, {y1:g})")
    return x0, y0, x1, y1


def _finite(value: object, what: str) -> float:
    """A JSON number that is finite (not a text, not true or false, not NaN)."""
    if type(value) not in (int, float) or not math.isfinite(value):  # type: ignore[arg-type]
        raise ValueError(f"{what} is {json.dumps(value)[:40]}, not a finite number")
    return float(value)  # type: ignore[arg-type]


def _ident(value: object, what: str) -> int:
    """A JSON id: a whole number."""
    number = _finite(value, what)
    if not number.is_integer():
        raise ValueError(f"{what} is {value}, not a whole number")
    return int(number)


def _coco_box(a: object, files: dict[int, str], categories: dict[int, str]) -> tuple[Any, ...]:
    """``(image file name, x0, y0, x1, y1, class name)`` of one COCO annotation;
    ValueError says what is wrong with it."""
    if not isinstance(a, dict):
        raise ValueError("it is not an object")
    image = _ident(a.get("image_id"), "image_id")
    if image not in files:
        raise ValueError(f"image_id {image} is not in images")
    category = _ident(a.get("category_id"), "category_id")
    if category not in categories:
        raise ValueError(f"category_id {category} is not in categories")
    bbox = a.get("bbox")
    if not isinstance(bbox, list) or len(bbox) != 4:
        raise ValueError("bbox is not a list of four numbers [x, y, width, height]")
    x, y, w, h = (_finite(v, "a bbox value") for v in bbox)
    if w < 0 or h < 0:
        raise ValueError(f"bbox has a negative width or height ({w:g}, {h:g})")
    return files[image], x, y, x + w, y + h, categories[category]


def coco_json(path: str, images: str | None = None) -> Listing:
    """COCO's ``images``, ``annotations`` (``bbox`` as x, y, width, height) and
    ``categories``; category ids are kept. Image files are found in ``images``, else
    beside the JSON, else in its ``images`` folder. Every part is checked against the
    format: a file that is not COCO is refused, a bad annotation is skipped with why."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = load_document(f.read())
        if not isinstance(doc, dict):
            raise ValueError("the document is not an object")
        sections: list[Any] = [doc.get(k) for k in ("categories", "images")]
        annotations = doc.get("annotations", [])
        if not all(isinstance(v, list) for v in (*sections, annotations)):
            raise ValueError("categories, images and annotations must be lists")
        if not all(isinstance(v, dict) for part in sections for v in part):
            raise ValueError("every category and image must be an object")
        categories = {
            _ident(c.get("id"), "a category id"): str(c.get("name", "")) for c in sections[0]
        }
        files = {}
        for im in sections[1]:
            name = im.get("file_name")
            if not isinstance(name, str) or not name:
                raise ValueError(f"image {im.get('id')!r} has no file_name")
            files[_ident(im.get("id"), "an image id")] = name
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise SourceError(f"{path} is not a COCO JSON file: {exc}") from None
    base = Path(path).parent
    folders = ([Path(images)] if images else []) + [base, base / "images"]

    def where(name: str) -> str:
        for folder in folders:
            if (folder / name).exists():
                return str(folder / name)
        return str(folders[0] / name)

    boxes: dict[str, list[Any]] = {where(name): [] for name in files.values()}
    skipped: list[Skipped] = []
    bad: dict[str, str] = {}  # image -> why one of its annotations cannot be used
    for n, a in enumerate(annotations):
        which = str(a.get("id", n) if isinstance(a, dict) else n)[:40]
        try:
            name, x0, y0, x1, y1, label = _coco_box(a, files, categories)
        except ValueError as exc:
            image_id = a.get("image_id") if isinstance(a, dict) else None
            name = files.get(image_id) if type(image_id) is int else None
            if name is None:  # no image to skip: the annotation alone is left out
                skipped.append(
                    Skipped(path, f"annotation {which} cannot be used: {exc}", "bad_annotation")
                )
            else:  # an image with a bad box would train without it: the image is skipped
                bad.setdefault(where(name), f"annotation {which} cannot be used: {exc}")
            continue
        boxes[where(name)].append((x0, y0, x1, y1, label))
    for image, why in bad.items():
        del boxes[image]
        skipped.append(Skipped(image, why, "bad_annotation"))
    ids = {name: i for i, name in categories.items()}
    return _items(boxes, ids, "coco", skipped)


def is_box_csv(path: str) -> bool:
    """Whether a CSV's header names the box columns."""
    try:
        with open(path, encoding="utf-8-sig") as f:
            head = f.readline()
    except (OSError, UnicodeDecodeError):
        return False
    columns = {c.strip() for c in head.split(",")}
    return all(c in columns for c in BOX_COLUMNS)


def detect_kind(path: str) -> str | None:
    """``coco``, ``voc`` or ``box_csv`` when ``path`` looks like one, else None."""
    if os.path.isfile(path) and path.lower().endswith(".json"):
        return "coco"
    if os.path.isfile(path) and is_box_csv(path):
        return "box_csv"
    if os.path.isdir(path) and any(Path(path).rglob("*.xml")):
        return "voc"
    return None
