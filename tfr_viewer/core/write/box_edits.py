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

from ..decode.layouts import CORNERS, Box, BoxKeys, KeyMap, is_prediction_key, key_ending
from ..decode.layouts.registry import box_keys, by_name
from .edits import EditError, kind_of, parse_record

_LISTS = {"bytes": "bytes_list", "float": "float_list", "int64": "int64_list"}


class MisalignedBoxes(EditError):
    """The record's per-box lists differ in length; the message names them."""


@dataclass(frozen=True)
class BoxLists:
    """Where the boxes of one record live (``where``: their coordinate lists, as their
    layout keeps them), the other per-box lists (``label``, ``text`` among them when
    present), the number of boxes, and each list's length in boxes."""

    where: BoxKeys
    per_box: tuple[str, ...]
    label: str | None
    text: str | None
    count: int
    lengths: Mapping[str, int]

    @property
    def layout(self) -> str:
        """The name of the layout the boxes follow."""
        return self.where.layout

    @property
    def coordinates(self) -> tuple[str, ...]:
        """The keys of the boxes' coordinates."""
        return tuple(self.where.coordinates.values())

    @property
    def aligned(self) -> bool:
        return all(n == self.count for n in self.lengths.values())


def _values_of(fmap: Any, key: str) -> list[Any]:
    kind = kind_of(fmap[key])
    return list(getattr(fmap[key], _LISTS[kind]).value) if kind else []


def _list(fmap: Any, key: str) -> Any:
    """The repeated field of feature ``key`` (a float list when it holds nothing)."""
    return getattr(fmap[key], _LISTS[kind_of(fmap[key]) or "float"]).value


def box_lists(payload: bytes, keymap: KeyMap | None = None) -> BoxLists:
    """The box lists of ``payload`` (an Example, or a SequenceExample's context), as
    the first layout of the registry that finds boxes keeps them; EditError when it has
    none."""
    _msg, features = parse_record(payload)
    fmap = features.feature
    keys = list(fmap)
    km = (keymap or KeyMap()).present_in(keys)
    floats = [
        k for k in keys if kind_of(fmap[k]) in ("float", "int64") and not is_prediction_key(k)
    ]
    where = box_keys(floats, km)
    if where is None:
        raise EditError("this record has no boxes (no xmin/ymin/xmax/ymax or bbox lists)")
    lengths = by_name(where.layout).lengths(where, lambda k: len(_values_of(fmap, k)))
    count = max(lengths[next(iter(where.coordinates.values()))], 0)
    prefix = where.prefix
    # every other list under the boxes' prefix is kept in step (an image-level key such
    # as image/height is outside it); boxes at the top level (no prefix) keep in step
    # the class lists named by hand, or else those of the boxes' length
    others = [k for k in keys if k not in set(where.coordinates.values())]
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
    return BoxLists(where, tuple(per_box), label, text, count, lengths)


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
    result: bytes = msg.SerializeToString(deterministic=True)
    return result


Corners = Mapping[str, float] | Box  # by corner name, or a box's four


def _named(corners: Corners) -> Mapping[str, float]:
    """``corners`` by name: a box's four, or the mapping as it is."""
    if isinstance(corners, Box):
        return {c: float(getattr(corners, c)) for c in CORNERS}
    return corners


def move_box(
    payload: bytes,
    box: int,
    corners: Corners,
    keymap: KeyMap | None = None,
    *,
    misaligned: bool = False,
) -> bytes:
    """Set the corners (``xmin``, ``ymin``, ``xmax``, ``ymax``, in the record's own
    convention; some of them, by name, or a :class:`Box`'s four) of box number ``box``."""
    corners = _named(corners)
    lists = box_lists(payload, keymap)
    _checked(lists, misaligned)
    _index(lists, box)
    msg, features = parse_record(payload)
    fmap = features.feature
    layout = by_name(lists.layout)
    for corner, value in corners.items():
        if corner not in CORNERS:
            raise EditError(f"{corner!r} is not a corner of a box")
        key, at = layout.slot(lists.where, corner, box)
        _set(_list(fmap, key), at, _stored(fmap[key], value), key, box)
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
    layout = by_name(lists.layout)
    places = sorted((layout.slot(lists.where, c, box) for c in CORNERS), reverse=True)
    places += [(key, box) for key in lists.per_box]
    for key, at in places:  # a list's later positions first
        values = _list(fmap, key)
        if at < len(values):
            del values[at]
    return _serialize(msg)


def add_box(
    payload: bytes,
    corners: Corners,
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
    corners = _named(corners)
    if set(corners) != set(CORNERS):
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
    for key, corner in by_name(lists.layout).new_row(lists.where, corners):
        _list(fmap, key).append(_stored(fmap[key], corner))
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
    layout = by_name(lists.layout)
    out = {}
    for corner in CORNERS:
        key, at = layout.slot(lists.where, corner, box)
        values = _values_of(fmap, key)
        if at >= len(values):
            raise EditError(f"{key} holds no value for box {box}; make the box lists agree")
        out[corner] = float(values[at])
    return out


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
