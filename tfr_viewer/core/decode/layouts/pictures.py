"""Recognise a record's pictures and turn its features into annotations for image views.

Recognition is by shape first and name second: an image is any bytes value whose magic
number says so; boxes are where a layout of the registry (:mod:`.registry`) finds whole
boxes among the record's numeric lists, the first that does; a raw pixel buffer is a
bytes value of exactly height·width·depth bytes. A :class:`KeyMap` overrides any guess.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..detect import image_format
from ..payload_types import FeatureData, Features
from . import registry
from .annotations import Box, ImageAnnotation, KeyMap, Layout, is_prediction_key, key_ending


def _floats(features: Features, key: str | None) -> np.ndarray | None:
    fd = features.get(key) if key else None
    if fd is None or fd.kind not in ("float", "int64"):
        return None
    return np.asarray(fd.values, dtype=np.float64)


def _scalar_int(features: Features, key: str | None) -> int | None:
    fd = features.get(key) if key else None
    if fd is not None and fd.kind == "int64" and len(fd.values) == 1:
        return int(fd.values[0])
    return None


def _texts(fd: FeatureData | None) -> list[str]:
    if fd is None or fd.kind != "bytes":
        return []
    return [v.decode("utf-8", "replace") for v in fd.values]


def _boxes(features: Features, km: KeyMap, keys: list[str]) -> tuple[list[Box], Layout | None]:
    """The boxes of the first layout whose lists hold whole boxes, and that layout."""
    numeric = [k for k in keys if features[k].kind in ("float", "int64")]
    for layout in registry.LAYOUTS:
        where = layout.box_keys(numeric, km)
        rows = None if where is None else layout.corners(where, lambda k: _floats(features, k))
        if rows is not None:
            boxes = [Box(float(x0), float(y0), float(x1), float(y1)) for x0, y0, x1, y1 in rows]
            return boxes, layout
    return [], None


def _labelled(boxes: list[Box], features: Features, km: KeyMap, keys: list[str]) -> list[Box]:
    n = len(boxes)
    if not n:
        return boxes
    ints = [k for k in keys if features[k].kind == "int64" and len(features[k]) == n]
    texts_ = [k for k in keys if features[k].kind == "bytes" and len(features[k]) == n]
    label_key = km.label or key_ending(ints, "class/label", "label", "labels", "class", "category")
    text_key = km.text or key_ending(
        texts_, "class/text", "label_text", "class_name", "text", "name", "names"
    )
    labels = features[label_key].values if label_key in features else []
    texts = _texts(features.get(text_key)) if text_key else []
    return [
        replace(
            b,
            label=int(labels[i]) if len(labels) == n else None,
            text=texts[i] if len(texts) == n else None,
        )
        for i, b in enumerate(boxes)
    ]


def _raw_shape(
    features: Features, km: KeyMap, keys: list[str], size: int
) -> tuple[int, int, int] | None:
    found = _given_shape(features, km, keys, size)
    return None if found is None else found[0]


def _given_shape(
    features: Features, km: KeyMap, keys: list[str], size: int
) -> tuple[tuple[int, int, int], tuple[str, ...]] | None:
    """The (height, width, depth) of ``size`` pixel values that the record states (its
    height, width and depth keys, or a shape key of 2 or 3 numbers), with the keys that
    said so; None when it states none that fits."""
    hk = km.height or key_ending(keys, "height", "rows", "h")
    wk = km.width or key_ending(keys, "width", "cols", "w")
    dk = km.depth or key_ending(keys, "depth", "channels", "c")
    h, w, d = (_scalar_int(features, k) for k in (hk, wk, dk))
    if h and w:
        for depth in ([d] if d else []) + [1, 3, 4]:
            if h * w * depth == size:
                used = (hk, wk, dk) if d == depth else (hk, wk)
                return (h, w, depth), tuple(k for k in used if k)
    sk = key_ending(keys, "shape")
    if sk is not None and features[sk].kind == "int64" and len(features[sk]) in (2, 3):
        dims = [int(v) for v in features[sk].items()]
        depth = dims[2] if len(dims) == 3 else 1
        if dims[0] > 0 and dims[1] > 0 and depth in (1, 3, 4):
            if dims[0] * dims[1] * depth == size:
                return (dims[0], dims[1], depth), (sk,)
    return None


_PIXEL_WORDS = ("image", "pixel", "img")
MIN_PIXELS = 64  # numeric lists shorter than this are never taken for pictures


def _numeric_pictures(
    features: Features, km: KeyMap, keys: list[str]
) -> list[tuple[str, int, bytes, tuple[int, int, int], str]]:
    """Pictures stored as numbers (MNIST's 784 floats, pixel lists beside a shape):
    a numeric list whose length the record's shape keys explain, or, for a key that
    names an image, a square of one or three channels. Values in [0, 1] are scaled to
    0..255, others clipped (or stretched, past 255). Each comes with a note of the keys
    used."""
    import math

    import numpy as np

    out = []
    candidates = [km.image] if km.image else keys
    for key in candidates:
        fd = features.get(key)
        if fd is None or fd.kind not in ("float", "int64") or len(fd) < MIN_PIXELS:
            continue
        n = len(fd)
        given = _given_shape(features, km, keys, n)
        if given is not None:
            shape, used = given
            how = "the shape from " + " and ".join(repr(k) for k in used)
        elif any(word in key.lower() for word in _PIXEL_WORDS):
            side1, side3 = math.isqrt(n), math.isqrt(n // 3)
            if side1 * side1 == n:
                shape = (side1, side1, 1)
            elif n % 3 == 0 and side3 * side3 * 3 == n:
                shape = (side3, side3, 3)
            else:
                continue
            how = "a square (no key gives the shape)"
        else:
            continue
        values = np.asarray(fd.values, dtype=np.float64)
        low, high = float(values.min()), float(values.max())
        if low >= 0 and high <= 1 and fd.kind == "float":
            values = values * 255
        elif low < 0 or high > 255:
            values = (values - low) * (255 / (high - low or 1))
        pixels = np.clip(np.rint(values), 0, 255).astype(np.uint8).tobytes()
        h, w, d = shape
        note = f"pixels of {key!r} ({n:,} {fd.kind} values) shown as {h}×{w}×{d}: {how}"
        out.append((key, 0, pixels, shape, note))
    return out


def _classification(
    features: Features, km: KeyMap, keys: list[str]
) -> tuple[int | None, str | None]:
    """An image-level class (object-level labels describe boxes, not the image)."""
    keys = [k for k in keys if "object" not in k]
    key = km.label or key_ending(keys, "label", "class/label")
    label = _scalar_int(features, key)
    text_key = km.text or key_ending(keys, "class/text", "label_text", "class_name")
    texts = _texts(features.get(text_key)) if text_key else []
    return label, texts[0] if len(texts) == 1 else None


def recognise(features: Features, keymap: KeyMap | None = None) -> list[ImageAnnotation]:
    """Every image in the record, with the boxes, masks, keypoints and labels its
    layout provides. Returns an empty list when the record holds no image."""
    keys = [k for k in features if not is_prediction_key(k)]
    km = (keymap or KeyMap()).present_in(keys)
    images: list[tuple[str, int, bytes, tuple[int, int, int] | None]] = []
    candidates = [km.image] if km.image else [k for k in keys if features[k].kind == "bytes"]
    for key in candidates:
        fd = features.get(key)
        if fd is None or fd.kind != "bytes" or "mask" in key and not km.image:
            continue
        for i, value in enumerate(fd.values):
            if image_format(value):
                images.append((key, i, value, None))
            elif len(fd.values) == 1:
                shape = _raw_shape(features, km, keys, len(value))
                if shape is not None:
                    images.append((key, i, value, shape))
    notes: dict[str, str] = {}
    if not images:
        for key, i, pixels, shape, note in _numeric_pictures(features, km, keys):
            images.append((key, i, pixels, shape))
            notes[key] = note
    if not images:
        return []
    boxes, box_layout = _boxes(features, km, keys)
    boxes = _labelled(boxes, features, km, keys)
    # fractions, even when a faulty box strays a little past [0, 1] (drawn where it is,
    # not as pixels); pixel coordinates reach beyond 2 in any image worth annotating
    normalized = all(-1.0 <= v <= 2.0 for b in boxes for v in (b.xmin, b.ymin, b.xmax, b.ymax))
    mask_key = km.mask or key_ending(keys, "object/mask", "mask", "masks")
    masks: list[bytes | np.ndarray] = []
    if mask_key and mask_key in features:
        mfd = features[mask_key]
        if mfd.kind == "bytes":
            masks = [m for m in mfd.values if image_format(m) == "png"]
        elif mfd.kind == "float" and boxes and len(mfd.values) % len(boxes) == 0:
            masks = list(np.asarray(mfd.values).reshape(len(boxes), -1))
    kx = _floats(features, km.keypoint_x or key_ending(keys, "keypoint/x", "keypoints/x"))
    ky = _floats(features, km.keypoint_y or key_ending(keys, "keypoint/y", "keypoints/y"))
    points: tuple[tuple[float, float], ...] = ()
    if kx is not None and ky is not None and len(kx) == len(ky):
        points = tuple(zip(kx.tolist(), ky.tolist(), strict=True))
    label, label_text = _classification(features, km, keys)
    out = []
    for key, i, data, shape in images:
        if shape is not None:
            layout = "raw"
        elif box_layout is not None:  # its box lists may be empty: a picture without objects
            layout = box_layout.NAME
        else:
            layout = next((x.NAME for x in registry.LAYOUTS if x.names_picture(key)), "generic")
        out.append(
            ImageAnnotation(
                key,
                i,
                layout,
                data,
                shape,
                tuple(boxes),
                normalized,
                tuple(masks),
                points,
                label,
                label_text,
                (notes[key],) if key in notes else (),
            )
        )
    return out


def whole_images(values: list[tuple[str, bytes]]) -> list[ImageAnnotation]:
    """The values (``(key, bytes)``, in order) that are encoded pictures, as annotations
    without boxes (layout ``generic``); ``index`` counts the pictures of each key."""
    out: list[ImageAnnotation] = []
    seen: dict[str, int] = {}
    for key, data in values:
        if image_format(data):
            out.append(ImageAnnotation(key, seen.get(key, 0), "generic", data))
            seen[key] = seen.get(key, 0) + 1
    return out


def frame_images(lists: dict[str, list[FeatureData]]) -> list[ImageAnnotation]:
    """The frames of a SequenceExample: each feature list whose steps hold pictures, a
    step's first picture an annotation of layout ``frames`` with the step as its
    ``index``."""
    out: list[ImageAnnotation] = []
    for key, steps in lists.items():
        for step, fd in enumerate(steps):
            if fd.kind != "bytes":
                continue
            picture = next((v for v in fd.values if image_format(v)), None)
            if picture is not None:
                out.append(ImageAnnotation(key, step, "frames", picture))
    return out
