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
import os
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path

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
            skipped.append(Skipped(path, f"class {unknown[0]!r} is not in the label map"))
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
    boxes: dict[str, list] = {}
    skipped: list[Skipped] = []
    for line, row in enumerate(rows, start=2):
        image = str(base / row["filename"])
        try:
            box = tuple(float(row[c]) for c in ("xmin", "ymin", "xmax", "ymax"))
        except (TypeError, ValueError):
            skipped.append(Skipped(image, f"line {line}: a box coordinate is not a number"))
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


def voc_folder(
    root: str, label_map: Mapping[str, int] | None = None, images: str | None = None
) -> Listing:
    """Every ``*.xml`` below ``root`` that is a Pascal VOC annotation."""
    folder = Path(root)
    if not folder.is_dir():
        raise SourceError(f"{root} is not a folder")
    boxes: dict[str, list] = {}
    skipped: list[Skipped] = []
    for xml_path in sorted(folder.rglob("*.xml")):
        try:
            tree = ET.parse(xml_path)
        except (ET.ParseError, OSError) as exc:
            skipped.append(Skipped(str(xml_path), f"not readable XML: {exc}"))
            continue
        ann = tree.getroot()
        name = (ann.findtext("filename") or "").strip()
        if ann.tag != "annotation" or not name:
            skipped.append(Skipped(str(xml_path), "not a Pascal VOC annotation (no filename)"))
            continue
        image = _image_beside(xml_path, name, images)
        found = []
        try:
            for obj in ann.iter("object"):
                bb = obj.find("bndbox")
                if bb is None:
                    continue
                coords = [float(bb.findtext(c) or "nan") for c in ("xmin", "ymin", "xmax", "ymax")]
                found.append((*coords, (obj.findtext("name") or "").strip()))
        except ValueError:
            skipped.append(Skipped(str(xml_path), "a box coordinate is not a number"))
            continue
        boxes.setdefault(image, []).extend(found)
    if not boxes and not skipped:
        raise SourceError(f"{root} holds no Pascal VOC .xml files")
    names = {c for found in boxes.values() for *_, c in found}
    return _items(boxes, _ids(names, label_map), "voc", skipped)


def coco_json(path: str, images: str | None = None) -> Listing:
    """COCO's ``images``, ``annotations`` (``bbox`` as x, y, width, height) and
    ``categories``; category ids are kept. Image files are found in ``images``, else
    beside the JSON, else in its ``images`` folder."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        categories = {int(c["id"]): str(c["name"]) for c in doc["categories"]}
        files = {int(im["id"]): str(im["file_name"]) for im in doc["images"]}
        annotations = doc.get("annotations", [])
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        raise SourceError(f"{path} is not a COCO JSON file: {exc}") from None
    base = Path(path).parent
    folders = ([Path(images)] if images else []) + [base, base / "images"]

    def where(name: str) -> str:
        for folder in folders:
            if (folder / name).exists():
                return str(folder / name)
        return str(folders[0] / name)

    boxes: dict[str, list] = {where(name): [] for name in files.values()}
    skipped: list[Skipped] = []
    for a in annotations:
        try:
            image = where(files[int(a["image_id"])])
            x, y, w, h = (float(v) for v in a["bbox"])
            name = categories[int(a["category_id"])]
        except (KeyError, TypeError, ValueError) as exc:
            skipped.append(Skipped(path, f"annotation {a.get('id', '?')} cannot be used: {exc}"))
            continue
        boxes[image].append((x, y, x + w, y + h, name))
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
