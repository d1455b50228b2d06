"""Edits of a record's boxes that keep the record consistent: every parallel list of
its layout changes together.

A record's boxes live in several lists of one length N (Object Detection API: the
four ``…/bbox/{xmin,ymin,xmax,ymax}`` float lists, the class labels and texts, and
``difficult``, ``truncated``, ``is_crowd``, ``area`` or whatever else the record keeps
per object under the same prefix; TFDS: one ``…/bbox`` list of 4·N floats in
``[ymin, xmin, ymax, xmax]`` order and the per-object lists beside it). Moving a box
changes its coordinates; deleting one removes its entry from every list; adding one
appends to every list (a value of the list's kind where the caller gives none: 0, 0.0
or empty bytes); a new class changes the label and the text. Coordinates are given and
stored in the record's own convention (fractions, or pixels) and kind.

The box keys are found as :mod:`..decode.layouts` finds them (a :class:`KeyMap`
overrides the guess). Boxes whose keys have no prefix (``left``, ``top``…) keep in step
the class lists the map names, and the other lists of the boxes' length when there are
two boxes or more (one value could as well be the image's). A record whose lists
disagree in length is refused with :class:`MisalignedBoxes` (which names them) unless
the caller passes ``misaligned=True`` after telling the user.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..decode.layouts import KeyMap, is_prediction_key, key_ending
from .edits import EditError, kind_of, parse_record

_LISTS = {"bytes": "bytes_list", "float": "float_list", "int64": "int64_list"}
_CORNERS = ("xmin", "ymin", "xmax", "ymax")
_TFDS_ORDER = ("ymin", "xmin", "ymax", "xmax")  # a TFDS bbox row


class MisalignedBoxes(EditError):
    """The record's per-box lists differ in length; the message names them."""


@dataclass(frozen=True)
class BoxLists:
    """Where the boxes of one record live: ``corners`` maps xmin/ymin/xmax/ymax to
    their keys (Object Detection API), or ``bbox`` is the key of the TFDS list; the
    other per-box lists (``label``, ``text`` among them when present), the number of
    boxes, and whether the lists agree in length."""

    layout: str  # "odapi" or "tfds"
    corners: Mapping[str, str]
    bbox: str | None
    per_box: tuple[str, ...]
    label: str | None
    text: str | None
    count: int
    lengths: Mapping[str, int]

    @property
    def aligned(self) -> bool:
        return all(n == self.count for n in self.lengths.values())


def _prefix(key: str, levels: int) -> str:
    parts = key.split("/")
    return "/".join(parts[:-levels]) + "/" if len(parts) > levels else ""


def _values_of(fmap: Any, key: str) -> list[Any]:
    kind = kind_of(fmap[key])
    return list(getattr(fmap[key], _LISTS[kind]).value) if kind else []


def box_lists(payload: bytes, keymap: KeyMap | None = None) -> BoxLists:
    """The box lists of ``payload`` (an Example, or a SequenceExample's context);
    EditError when it has none."""
    _msg, features = parse_record(payload)
    fmap = features.feature
    keys = list(fmap)
    km = (keymap or KeyMap()).present_in(keys)
    floats = [
        k for k in keys if kind_of(fmap[k]) in ("float", "int64") and not is_prediction_key(k)
    ]
    corners = {c: getattr(km, c) or key_ending(floats, c) for c in _CORNERS}
    lengths: dict[str, int] = {}
    if all(corners.values()):
        found = {c: k for c, k in corners.items() if k is not None}
        prefix = _prefix(found["xmin"], 2)  # image/object/bbox/xmin -> image/object/
        layout, bbox = "odapi", None
        for key in found.values():
            lengths[key] = len(_values_of(fmap, key))
        count = lengths[found["xmin"]]
        coordinate_keys = set(found.values())
    else:
        bbox = km.bbox or key_ending(floats, "bbox", "bboxes", "boxes")
        if bbox is None:
            raise EditError("this record has no boxes (no xmin/ymin/xmax/ymax or bbox lists)")
        found = {}
        prefix = _prefix(bbox, 1)  # objects/bbox -> objects/
        layout = "tfds"
        flat = len(_values_of(fmap, bbox))
        lengths[bbox] = flat // 4 if flat % 4 == 0 else -1
        count = max(lengths[bbox], 0)
        coordinate_keys = {bbox}
    # every other list under the boxes' prefix is kept in step (an image-level key such
    # as image/height is outside it); boxes at the top level (no prefix) keep in step
    # the class lists named by hand, or else those of the boxes' length
    others = [k for k in keys if k not in coordinate_keys]
    if prefix:
        per_box = [k for k in others if k.startswith(prefix)]
    else:
        per_box = [k for k in others if len(_values_of(fmap, k)) == count and count > 1]
    per_box += [k for k in (km.label, km.text) if k and k not in per_box and k in others]
    for key in per_box:
        lengths[key] = len(_values_of(fmap, key))
    ints = [k for k in per_box if kind_of(fmap[k]) == "int64"]
    texts = [k for k in per_box if kind_of(fmap[k]) == "bytes"]
    label = km.label or key_ending(ints, "class/label", "label", "labels", "class", "category")
    text = km.text or key_ending(
        texts, "class/text", "label_text", "class_name", "text", "name", "names"
    )
    return BoxLists(layout, found, bbox, tuple(per_box), label, text, count, lengths)


def misalignment(lists: BoxLists) -> str | None:
    """What is wrong when the box lists differ in length (None when they agree)."""
    if lists.aligned:
        return None
    shown = ", ".join(f"{k} ({n})" for k, n in lists.lengths.items() if n != lists.count)
    return (
        f"the box lists of this record differ in length: {lists.count} boxes, but {shown}; "
        "an edit may move values to the wrong box"
    )


def _checked(lists: BoxLists, misaligned: bool) -> None:
    problem = None if misaligned else misalignment(lists)
    if problem is not None:
        raise MisalignedBoxes(problem)


def _index(lists: BoxLists, box: int) -> None:
    if not 0 <= box < lists.count:
        raise EditError(f"this record has {lists.count} boxes; there is no box {box}")


def _set(values: Any, at: int, value: Any, key: str, box: int) -> None:
    """``values[at] = value``, or an EditError when the list is too short: the record's
    box lists disagree (the user chose to edit anyway) and box ``box`` has no value in
    ``key`` to change."""
    if not 0 <= at < len(values):
        raise EditError(
            f"{key} holds {len(values)} values, none for box {box}; make the box lists "
            "agree first (select the list in the tree, Edit Values…)"
        )
    values[at] = value


def _serialize(msg: Any) -> bytes:
    return msg.SerializeToString(deterministic=True)


def move_box(
    payload: bytes,
    box: int,
    corners: Mapping[str, float],
    keymap: KeyMap | None = None,
    *,
    misaligned: bool = False,
) -> bytes:
    """Set the corners (``xmin``, ``ymin``, ``xmax``, ``ymax``, in the record's own
    convention) of box number ``box``."""
    lists = box_lists(payload, keymap)
    _checked(lists, misaligned)
    _index(lists, box)
    msg, features = parse_record(payload)
    fmap = features.feature
    for corner, value in corners.items():
        if corner not in _CORNERS:
            raise EditError(f"{corner!r} is not a corner of a box")
        if lists.layout == "odapi":
            key = lists.corners[corner]
            values = getattr(fmap[key], _LISTS[kind_of(fmap[key]) or "float"]).value
            _set(values, box, _stored(fmap[key], value), key, box)
        else:
            assert lists.bbox is not None
            values = fmap[lists.bbox].float_list.value
            _set(values, 4 * box + _TFDS_ORDER.index(corner), float(value), lists.bbox, box)
    return _serialize(msg)


def _stored(feature: Any, value: float) -> Any:
    """``value`` as the list's kind stores it (pixel boxes may be int64 lists)."""
    return int(round(value)) if kind_of(feature) == "int64" else float(value)


def delete_box(
    payload: bytes, box: int, keymap: KeyMap | None = None, *, misaligned: bool = False
) -> bytes:
    """Remove box number ``box`` from every list of the layout."""
    lists = box_lists(payload, keymap)
    _checked(lists, misaligned)
    _index(lists, box)
    msg, features = parse_record(payload)
    fmap = features.feature
    for key in (*lists.corners.values(), *lists.per_box):
        values = getattr(fmap[key], _LISTS[kind_of(fmap[key]) or "float"]).value
        if box < len(values):
            del values[box]
    if lists.bbox is not None:
        del fmap[lists.bbox].float_list.value[4 * box : 4 * box + 4]
    return _serialize(msg)


def add_box(
    payload: bytes,
    corners: Mapping[str, float],
    label: int | None = None,
    text: str | None = None,
    extra: Mapping[str, Any] | None = None,
    keymap: KeyMap | None = None,
    *,
    misaligned: bool = False,
) -> bytes:
    """Append a box with ``corners`` (all four), its class ``label`` and ``text``, and
    ``extra`` values of other per-box lists; every list the caller says nothing of gets
    a value of its kind (0, 0.0, or empty bytes)."""
    if set(corners) != set(_CORNERS):
        raise EditError("a new box needs xmin, ymin, xmax and ymax")
    lists = box_lists(payload, keymap)
    _checked(lists, misaligned)
    msg, features = parse_record(payload)
    fmap = features.feature
    given: dict[str, Any] = dict(extra or {})
    if lists.label is not None and label is not None:
        given[lists.label] = label
    if lists.text is not None and text is not None:
        given[lists.text] = text.encode() if isinstance(text, str) else text
    if lists.layout == "odapi":
        for corner, key in lists.corners.items():
            values = getattr(fmap[key], _LISTS[kind_of(fmap[key]) or "float"]).value
            values.append(_stored(fmap[key], corners[corner]))
    else:
        assert lists.bbox is not None
        fmap[lists.bbox].float_list.value.extend(float(corners[c]) for c in _TFDS_ORDER)
    for key in lists.per_box:
        kind = kind_of(fmap[key]) or "float"
        values = getattr(fmap[key], _LISTS[kind]).value
        default: Any = {"int64": 0, "float": 0.0, "bytes": b""}[kind]
        value = given.pop(key, default)
        if kind == "bytes" and isinstance(value, str):
            value = value.encode()
        values.append(value)
    if given:
        raise EditError(f"not a per-box list of this record: {', '.join(sorted(given))}")
    return _serialize(msg)


def set_box_class(
    payload: bytes,
    box: int,
    label: int | None = None,
    text: str | None = None,
    keymap: KeyMap | None = None,
    *,
    misaligned: bool = False,
) -> bytes:
    """Give box number ``box`` the class ``label`` and/or ``text`` (in the lists the
    record has)."""
    lists = box_lists(payload, keymap)
    _checked(lists, misaligned)
    _index(lists, box)
    msg, features = parse_record(payload)
    fmap = features.feature
    if label is not None:
        if lists.label is None:
            raise EditError("this record keeps no class label per box")
        _set(fmap[lists.label].int64_list.value, box, int(label), lists.label, box)
    if text is not None:
        if lists.text is None:
            raise EditError("this record keeps no class text per box")
        _set(fmap[lists.text].bytes_list.value, box, text.encode(), lists.text, box)
    return _serialize(msg)


def corners_of(payload: bytes, box: int, keymap: KeyMap | None = None) -> dict[str, float]:
    """The corners of box number ``box`` as stored."""
    lists = box_lists(payload, keymap)
    _index(lists, box)
    _msg, features = parse_record(payload)
    fmap = features.feature
    if lists.layout == "odapi":
        values = {c: _values_of(fmap, k) for c, k in lists.corners.items()}
        short = next((lists.corners[c] for c, v in values.items() if box >= len(v)), None)
        if short is not None:
            raise EditError(f"{short} holds no value for box {box}; make the box lists agree")
        return {c: float(v[box]) for c, v in values.items()}
    assert lists.bbox is not None
    row = _values_of(fmap, lists.bbox)[4 * box : 4 * box + 4]
    if len(row) != 4:
        raise EditError(f"{lists.bbox} holds no four values for box {box}")
    return dict(zip(_TFDS_ORDER, map(float, row), strict=True))


__all__: Sequence[str] = (
    "BoxLists",
    "MisalignedBoxes",
    "add_box",
    "box_lists",
    "corners_of",
    "delete_box",
    "misalignment",
    "move_box",
    "set_box_class",
)
