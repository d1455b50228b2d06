"""A model's predicted boxes for a dataset's records, from one of three sources.

- **In the records** (:class:`InRecords`): the lists the Object Detection API's
  inference writes beside the labels: ``image/detection/bbox/{xmin,ymin,xmax,ymax}``
  (fractions of the image), ``image/detection/label`` (or ``…/class/label``) and
  ``image/detection/score`` (or ``…/scores``); each key can be named otherwise.
- **A COCO results file** (:func:`coco_results`): ``[{image_id, category_id, bbox,
  score}]`` with ``bbox`` as ``[x, y, width, height]`` in pixels.
- **A second TFRecord dataset** (:func:`from_dataset`) whose records carry the
  detection lists.

The last two are matched to records by an id: ``image/source_id``, ``image/key/sha256``
or the file name (``image/filename``, also without its folder or extension). Unless
told which, the id is the one under which most of the predictions' ids are found in
the first records read. A source says which ids it has; the pass over the dataset says
which matched.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np

from ..text import value_or_float32_text
from .label_errors import Predicted

MATCH_KEYS = {
    "source_id": "image/source_id",
    "sha256": "image/key/sha256",
    "filename": "image/filename",
}
MAX_RESULTS_BYTES = 1 << 30  # a results file larger than this is refused
MAX_DEPTH = 8


class PredictionError(ValueError):
    """Predictions that cannot be used; the message says what and where."""


@dataclass(frozen=True)
class DetectionKeys:
    """Where records keep predictions; ``label`` and ``score`` guessed when None."""

    xmin: str = "image/detection/bbox/xmin"
    ymin: str = "image/detection/bbox/ymin"
    xmax: str = "image/detection/bbox/xmax"
    ymax: str = "image/detection/bbox/ymax"
    label: str | None = None  # image/detection/label, else image/detection/class/label
    score: str | None = None  # image/detection/score, else image/detection/scores

    @classmethod
    def with_settings(cls, settings: Sequence[str]) -> DetectionKeys:
        """The keys with ``ROLE=KEY`` settings applied (PredictionError for a bad one)."""
        roles = {f.name for f in fields(cls)}
        keys = cls()
        for setting in settings:
            role, sep, key = setting.partition("=")
            if not sep or role not in roles or not key:
                raise PredictionError(
                    f"--detection-key {setting}: give ROLE=KEY with ROLE one of "
                    f"{', '.join(sorted(roles))}"
                )
            keys = replace(keys, **{role: key})
        return keys

    def candidates(self) -> list[str]:
        """Every key a record's predictions may be under."""
        label = (
            [self.label] if self.label else ["image/detection/label", "image/detection/class/label"]
        )
        score = [self.score] if self.score else ["image/detection/score", "image/detection/scores"]
        return [self.xmin, self.ymin, self.xmax, self.ymax, *label, *score]

    def label_in(self, keys: Sequence[str] | Mapping[str, Any]) -> str | None:
        if self.label:
            return self.label if self.label in keys else None
        return next(
            (k for k in ("image/detection/label", "image/detection/class/label") if k in keys), None
        )

    def score_in(self, keys: Sequence[str] | Mapping[str, Any]) -> str | None:
        if self.score:
            return self.score if self.score in keys else None
        return next(
            (k for k in ("image/detection/score", "image/detection/scores") if k in keys), None
        )


def detections(values: Mapping[str, Sequence[Any]], keys: DetectionKeys) -> list[Predicted] | None:
    """The predictions in one record's lists (``values``: key → its values); None when
    the record has none of the box lists; PredictionError when they disagree."""
    sides = [values.get(k) for k in (keys.xmin, keys.ymin, keys.xmax, keys.ymax)]
    if all(s is None for s in sides):
        return None
    label_key, score_key = keys.label_in(values), keys.score_in(values)
    labels = values.get(label_key) if label_key else None
    scores = values.get(score_key) if score_key else None
    if any(s is None for s in sides) or labels is None or scores is None:
        missing = [
            k
            for k, s in zip((keys.xmin, keys.ymin, keys.xmax, keys.ymax), sides, strict=True)
            if s is None
        ]
        missing += [] if labels is not None else [keys.label or "image/detection/label"]
        missing += [] if scores is not None else [keys.score or "image/detection/score"]
        raise PredictionError(f"the record's predictions lack {', '.join(missing)}")
    lengths = {len(s) for s in sides if s is not None} | {len(labels), len(scores)}
    if len(lengths) != 1:
        raise PredictionError("the record's prediction lists differ in length")
    out = []
    columns = [s for s in sides if s is not None]
    for x0, y0, x1, y1, label, score in zip(*columns, labels, scores, strict=True):
        numbers = [finite(v) for v in (x0, y0, x1, y1, score)]
        if any(v is None for v in numbers):
            shown = ", ".join(
                value_or_float32_text(v) if isinstance(v, int | float) else repr(v)
                for v in (x0, y0, x1, y1, score)
            )
            raise PredictionError(
                f"a detection's box or score is not a finite number ({shown}: xmin, ymin, "
                "xmax, ymax, score)"
            )
        class_id = whole_class(label)
        if class_id is None:
            raise PredictionError(
                f"a detection's class is {label!r}, not a class id (a whole number)"
            )
        a, b, c, d, weight = (float(v) for v in numbers if v is not None)
        out.append(Predicted((a, b, c, d), class_id, weight))
    return out


INT64 = (-(1 << 63), (1 << 63) - 1)


def finite(value: Any) -> float | None:
    """``value`` as a finite float; None for NaN, infinity, an integer past a float's
    range (JSON may hold ``1`` followed by 400 zeros), text and bytes."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def whole_class(value: Any) -> int | None:
    """A class id: a whole number within int64 (a float that is one counts: detection
    labels are often stored as floats); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | np.integer):
        number = int(value)
    else:
        as_float = finite(value)
        if as_float is None or not as_float.is_integer():
            return None
        number = int(as_float)
    return number if INT64[0] <= number <= INT64[1] else None


@dataclass(frozen=True)
class InRecords:
    """Predictions in the records themselves."""

    keys: DetectionKeys = field(default_factory=DetectionKeys)

    def describe(self) -> str:
        return "the records' detection lists"


@dataclass(frozen=True)
class ById:
    """Predictions from outside the records, by image id: pixel boxes (``pixels``, a
    COCO results file) or fractions (another dataset). ``match`` is the id's name in
    :data:`MATCH_KEYS`, or None to choose."""

    origin: str
    by_id: Mapping[str, tuple[Predicted, ...]]
    pixels: bool
    match: str | None = None

    def describe(self) -> str:
        return self.origin


Source = InRecords | ById


def id_forms(name: str, value: bytes | str) -> list[str]:
    """The spellings of a record's id under which a prediction may name it: the id,
    and for a file name also without its folder and without its extension."""
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    text = text.strip()
    if name != "filename":
        return [text]
    base = text.replace("\\", "/").rsplit("/", 1)[-1]
    return list(dict.fromkeys([text, base, os.path.splitext(base)[0]]))


def _walk_depth(value: Any, depth: int = 0) -> None:
    if depth > MAX_DEPTH:
        raise PredictionError("nested deeper than a COCO results file is")
    if isinstance(value, list):
        for v in value:
            _walk_depth(v, depth + 1)
    elif isinstance(value, dict):
        for v in value.values():
            _walk_depth(v, depth + 1)


def coco_results(path: str) -> ById:
    """The predictions of a COCO results file; PredictionError names the first entry
    that is not a result (and its position)."""
    from ..io.side_files import SideFileError, read_json_side_file

    try:
        data = read_json_side_file(path, "results file", MAX_RESULTS_BYTES)
    except SideFileError as exc:
        raise PredictionError(str(exc)) from None
    if isinstance(data, dict) and isinstance(data.get("annotations"), list):
        data = data["annotations"]  # a COCO file of annotations with scores
    if not isinstance(data, list):
        raise PredictionError(f"{path} is not a COCO results file: a list of results is expected")
    _walk_depth(data)
    by_id: dict[str, list[Predicted]] = {}
    for n, entry in enumerate(data):
        where = f"{path}, result {n}"
        if not isinstance(entry, dict):
            raise PredictionError(f"{where} is not an object")
        image, category, box, score = (
            entry.get(k) for k in ("image_id", "category_id", "bbox", "score")
        )
        if not isinstance(image, (int, str)) or isinstance(image, bool):
            raise PredictionError(f"{where}: image_id is missing or not a number or text")
        if not isinstance(category, int) or whole_class(category) is None:
            raise PredictionError(f"{where}: category_id is missing or not a whole number")
        corners = [finite(v) for v in box] if isinstance(box, list) and len(box) == 4 else []
        if len(corners) != 4 or any(v is None for v in corners):
            raise PredictionError(f"{where}: bbox is not four finite numbers [x, y, width, height]")
        weight = finite(score)
        if weight is None:
            raise PredictionError(f"{where}: score is missing or not a finite number")
        x, y, w, h = (float(v) for v in corners if v is not None)
        by_id.setdefault(str(image).strip(), []).append(
            Predicted((x, y, x + w, y + h), category, weight)
        )
    return ById(path, {k: tuple(v) for k, v in by_id.items()}, pixels=True)


def choose_match(source: ById, ids: Mapping[str, Sequence[bytes | str]]) -> str:
    """The id (a name of :data:`MATCH_KEYS`) under which most of ``ids`` (name → the
    values records hold) are among the source's ids; the source's own choice when it
    has one."""
    if source.match is not None:
        return source.match
    found = {
        name: sum(any(form in source.by_id for form in id_forms(name, v)) for v in values)
        for name, values in ids.items()
    }
    return max(MATCH_KEYS, key=lambda name: (found.get(name, 0), -list(MATCH_KEYS).index(name)))


def lookup(source: ById, name: str, value: bytes | str) -> tuple[str, tuple[Predicted, ...]] | None:
    """The source's id and predictions for a record whose id ``name`` is ``value``."""
    for form in id_forms(name, value):
        found = source.by_id.get(form)
        if found is not None:
            return form, found
    return None


def in_fractions(predicted: Sequence[Predicted], width: float, height: float) -> list[Predicted]:
    """Pixel boxes as fractions of a ``width`` × ``height`` image."""
    return [
        replace(
            p,
            corners=(
                p.corners[0] / width,
                p.corners[1] / height,
                p.corners[2] / width,
                p.corners[3] / height,
            ),
        )
        for p in predicted
    ]


def unmatched_message(source: ById, name: str, matched: set[str]) -> str | None:
    """What to say of the source's ids that no record matched (None: all did)."""
    missing = [i for i in source.by_id if i not in matched]
    if not missing:
        return None
    shown = ", ".join(missing[:5]) + (" …" if len(missing) > 5 else "")
    return (
        f"{len(missing):,} of the {len(source.by_id):,} image ids in {source.origin} match no "
        f"record by {MATCH_KEYS[name]} ({len(matched):,} do): {shown}"
    )


def row_values(columns: Mapping[str, Any], keys: Sequence[str], r: int) -> dict[str, list[Any]]:
    """Row ``r`` of the extracted ``columns`` (see :func:`..query.extract.extract`) for
    the ``keys`` a record holds: key → its values."""
    out: dict[str, list[Any]] = {}
    for key in keys:
        column = columns.get(key)
        if column is None or not column.present[r]:
            continue
        a, b = int(column.rag.splits[r]), int(column.rag.splits[r + 1])
        out[key] = column.rag.values[a:b].tolist()
    return out


def from_dataset(paths: Sequence[str], keys: DetectionKeys, match: str | None = None) -> ById:
    """The predictions in another dataset's detection lists, by the id ``match`` (or
    the first of :data:`MATCH_KEYS` its records hold). PredictionError when it has no
    predictions, or no id to match them by."""
    from ..io import Dataset, PathError, SourceError
    from ..io.dataset_blocks import iter_blocks
    from ..io.inputs_read import note_path
    from ..query.extract import extract

    origin = " ".join(paths)
    names = [match] if match else list(MATCH_KEYS)
    wanted = keys.candidates() + [MATCH_KEYS[n] for n in names]
    found: dict[str, dict[str, tuple[Predicted, ...]]] = {n: {} for n in names}
    records = 0
    try:
        with Dataset(list(paths)) as ds:
            for f in ds.files:  # inputs of this process: no report may replace them
                note_path(f.path)
            ds.index(verify=True)
            everything = np.arange(len(ds), dtype=np.int64)
            for positions, block in iter_blocks(ds, everything, verify=True):
                status, columns = extract(block, wanted)
                for r in range(len(positions)):
                    if status[r] != 0:
                        continue
                    values = row_values(columns, wanted, r)
                    try:
                        predicted = detections(values, keys)
                    except PredictionError as exc:
                        record = int(everything[positions[r]])
                        raise PredictionError(f"{origin}, record {record}: {exc}") from None
                    if predicted is None:
                        continue
                    records += 1
                    for name in names:
                        ids = values.get(MATCH_KEYS[name])
                        if ids is not None and len(ids):
                            found[name][id_forms(name, ids[0])[0]] = tuple(predicted)
            damage = ds.problems()
    except (PathError, SourceError, OSError) as exc:
        raise PredictionError(f"cannot read the predictions: {exc}") from None
    if damage:  # weighed without them, some images would have lost their detections
        first = damage[0]
        raise PredictionError(
            f"the predictions {origin} are damaged ({len(damage):,} "
            f"problem{'s' if len(damage) != 1 else ''}; first: {first.file}, record "
            f"{first.record}, byte {first.offset:,}: {first.kind}); recover them first "
            "(tfr-viewer recover)"
        )
    if not records:
        raise PredictionError(f"{origin} holds no predictions ({keys.xmin} and the other lists)")
    chosen = next((n for n in names if len(found[n]) == records), None)
    if chosen is None:
        said = MATCH_KEYS[names[0]] if match else ", ".join(MATCH_KEYS.values())
        raise PredictionError(
            f"the records of {origin} do not each hold one id ({said}) to match by"
        )
    return ById(origin, found[chosen], pixels=False, match=chosen)


def open_source(spec: str, keys: DetectionKeys, match: str | None = None) -> Source:
    """``--predictions SPEC``: the word ``features`` (the records' own lists), a COCO
    results file (``.json``), or a TFRecord dataset (paths as ``open`` takes them)."""
    if match is not None and match not in MATCH_KEYS:
        raise PredictionError(f"--match {match}: one of {', '.join(MATCH_KEYS)}")
    if spec == "features":
        return InRecords(keys)
    if spec.lower().endswith(".json"):
        return replace(coco_results(spec), match=match)
    return from_dataset([spec], keys, match)


def matched(
    source: ById, values: Mapping[str, Sequence[Any]]
) -> tuple[str, tuple[Predicted, ...]] | None:
    """The source's id and predictions for a record (``values``: key → its values),
    by the source's id (or the first that matches, before one is chosen)."""
    names = [source.match] if source.match else list(MATCH_KEYS)
    for name in names:
        ids = values.get(MATCH_KEYS[name])
        found = lookup(source, name, ids[0]) if ids is not None and len(ids) else None
        if found is not None:
            return found
    return None


def as_fractions(
    source: ById, predicted: Sequence[Predicted], size: tuple[int, int] | None
) -> list[Predicted] | None:
    """A matched record's predictions as fractions of its ``size`` image (None: pixel
    boxes of an image whose size is unknown)."""
    if not source.pixels:
        return list(predicted)
    return in_fractions(predicted, *size) if size is not None else None


def of_record(
    source: Source, values: Mapping[str, Sequence[Any]], size: tuple[int, int] | None
) -> list[Predicted] | None:
    """One record's predictions as fractions, from its lists (``values``: key → its
    values, as :func:`row_values` or a decoded record gives them) and its image's width
    and height; None when it has none (no lists, no id that matches, or pixel boxes of
    an image whose size is unknown). PredictionError for lists that disagree."""
    if isinstance(source, InRecords):
        return detections(values, source.keys)
    found = matched(source, values)
    return None if found is None else as_fractions(source, found[1], size)
