"""Data-quality checks that point at the record: one pass over the columnar extractor.

Per record: damage, empty records, images (undecodable headers, stored size and format
against the bytes, exact duplicates by SHA-256), boxes (:mod:`.box_checks`: list
lengths, inverted, out of [0, 1] past the Object Detection API's 1.01 tolerance, pixel
coordinates, zero area, boxes without a class, images without boxes), classes
(:mod:`.class_checks`: id 0 in an Object Detection API dataset, ids outside a label map)
and, given a model's predictions, the labels against them (:mod:`.label_checks`). Over
the dataset, once the pass is done: the checks of each key (:mod:`.key_checks`), image
content (:mod:`.image_checks`), one class name with several ids, empty shards. The
kinds, severities and hints are listed in
:mod:`.findings`.

A pass over a range of records gives a :class:`~.check_merge.CheckPart`; the parts of
consecutive ranges (a whole dataset here, or splits on Beam workers) are finished
together by :func:`~.check_merge.finish_check`, so both give the same findings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ..decode.detect import ImageInfo, image_info
from ..decode.episodes import is_episode, is_step_key, judged_steps
from ..decode.image_verdict import ends_whole
from ..decode.payloads.example import holds_nothing
from ..decode.same_bytes import SameBytes, key_of
from ..io import CancelToken, Dataset
from ..io.dataset_blocks import iter_blocks
from ..io.payload_block import PayloadBlock
from ..io.splits import Split
from ..io.tfds_features import FeatureSpec
from ..query.extract import FeatureColumn, extract
from .anomalies import SchemaCheck
from .box_checks import BoxChecks, scalar_of
from .check_merge import CheckPart, finish_check
from .check_overlay import Overlay, checked_records
from .class_checks import ClassChecks
from .episode_checks import EpisodeChecks
from .findings import Finding
from .image_checks import ImageChecks
from .image_quality import Thresholds
from .key_checks import KeyChecks
from .label_checks import LabelChecks, PredictionCheck, settle
from .message_checks import check_messages, read_as
from .other_payloads import OtherPayloads
from .parse_checks import parse_findings
from .roles import Roles
from .stats import VIEWS_FROM

if TYPE_CHECKING:
    from ..decode.message_types import MessageType
from .survey import Plan, Survey, survey_block

_FORMAT_ALIASES = {"jpg": "jpeg", "tif": "tiff"}
# the SHA-256 and header of the pictures this process saw lately, for their copies
_FACTS: SameBytes[tuple[bytes, ImageInfo | None]] = SameBytes()


class _Pass:
    """The state of one pass over the records ``base .. base + records``: :meth:`add`
    takes blocks, :meth:`part` what they showed (merged by :mod:`.check_merge`).
    ``plan`` is the survey of the whole dataset's :meth:`~.survey.Survey.plan`: the keys,
    and what each is for."""

    def __init__(
        self,
        records: int,
        base: int,
        plan: Plan,
        label_map: Mapping[int, str] | None,
        limits: Thresholds | None,
        schema: dict[str, Any] | None = None,
        predictions: PredictionCheck | None = None,
        specs: Mapping[str, FeatureSpec] | None = None,
    ) -> None:
        self.base = base
        # robot-learning episodes (steps under steps/): their checks in the same read
        self.episodes = EpisodeChecks() if is_episode(plan[0]) else None
        self.specs = specs  # features.json's, by record key, for the episodes' steps
        self.labels = LabelChecks(predictions, self.note, label_map) if predictions else None
        self.sizes: dict[int, tuple[int, int]] = {}  # row -> its image's width and height
        self.plan = plan
        self.schema_check = SchemaCheck(schema) if schema is not None else None
        self.images = ImageChecks(limits, note=self.note)
        self.classes = ClassChecks(label_map, self.note)
        self.boxes = BoxChecks(self.note)
        self.found: list[Finding] = []
        self.keys = KeyChecks(records, self.note, base)
        self.copies: dict[bytes, list[tuple[int, int, str]]] = {}
        self.others = OtherPayloads()  # records that are no Example
        self.ordinal = 0

    def note(self, kind: str, message: str, record: int | None, **where: object) -> None:
        self.found.append(Finding(kind, message, record, **where))  # type: ignore[arg-type]

    def roles(self) -> Roles:
        return self.plan[1]

    # -- one block -------------------------------------------------------------
    def add(
        self, records: np.ndarray, block: PayloadBlock, kind: MessageType | None = None
    ) -> None:
        """Check a block of one file's records (read as the user's message type
        ``kind`` when it is given: the message checks, :mod:`.message_checks`)."""
        if kind is not None:
            check_messages(records, block.starts >= 0, block, kind, self.note)
            return
        keys = list(self.plan[0])
        if self.schema_check is not None:
            keys = sorted({*keys, *self.schema_check.keys()})
        if self.labels is not None:
            keys = sorted({*keys, *self.labels.check.keys()})
        self.sizes.clear()
        # long values of the image keys are looked at in the block (it is read into the
        # same buffer next): a view kept past it must be copied
        status, columns = extract(block, keys, views_from=VIEWS_FROM)
        for key, column in columns.items():
            if key not in self.plan[1].images:
                _copy_views(column.rag.values)
        ok = (status == 0) & (block.starts >= 0)
        if self.plan[0]:  # a record TensorFlow refuses gets that finding alone
            ok &= parse_findings(records, block, self.note)
            others = np.zeros(len(records), dtype=bool)
        else:  # no record so far is an Example: those that are no Example at all
            others = (status != 0) & (block.starts >= 0)
        anything = np.zeros(len(records), dtype=bool)
        for key, column in columns.items():
            present = column.present & ok
            anything |= present
            self.keys.count(key, records, present, column)
        self.keys.mark_parsed(records[ok & anything])  # an empty record is its own finding
        if self.schema_check is not None:
            self.schema_check.add(records, columns, ok & anything, self.note)
        for r in np.flatnonzero(ok & ~anything).tolist():
            if holds_nothing(block.payload(r)):
                self.note("empty_record", "the record holds no features", int(records[r]))
            else:
                others[r] = True
        self.others.add(records, others, block)
        if self.episodes is not None:
            self._add_episodes(records, block, ok)
        roles = self.roles()
        for key in roles.images:
            if key in columns:
                self._check_images(roles, key, columns, records, ok)
        if roles.boxes and all(k in columns for k in roles.boxes):
            self.boxes.add(roles, columns, records, ok)
        self.classes.add(roles, columns, records, ok)
        if self.labels is not None:
            self.labels.add(roles, columns, records, ok & anything, self.sizes)

    def _add_episodes(self, records: np.ndarray, block: PayloadBlock, ok: np.ndarray) -> None:
        """Give the episode checks each record of the block that is an episode, its
        steps shaped by ``features.json`` (from the bytes read for the other checks)."""
        from ..decode.episode_bytes import episode_in

        assert self.episodes is not None
        for r in np.flatnonzero(ok).tolist():
            episode = episode_in(block.payload(r), self.specs, int(records[r]))
            if episode is not None:
                self.episodes.add(episode)

    def _check_images(
        self,
        roles: Roles,
        key: str,
        columns: dict[str, FeatureColumn],
        records: np.ndarray,
        ok: np.ndarray,
    ) -> None:
        c = columns[key]
        values, splits = c.rag.values, c.rag.splits
        stepped = is_step_key(key)  # a picture a step of an episode: a few are decoded
        for r in np.flatnonzero(ok & c.present).tolist():
            record = int(records[r])
            start, end = int(splits[r]), int(splits[r + 1])
            judged = set(judged_steps(end - start)) if stepped else None
            for i in range(start, end):
                v = values[i]
                if not isinstance(v, (bytes, memoryview)):
                    continue
                if judged is not None and i - start not in judged and ends_whole(v):
                    continue  # a step no check samples, its picture whole: left to the episode
                self._check_image(roles, key, columns, record, r, v)

    def _check_image(
        self,
        roles: Roles,
        key: str,
        columns: dict[str, FeatureColumn],
        record: int,
        r: int,
        value: bytes | memoryview,
    ) -> None:
        """Queue the image for its verdict (every value of an image key is decoded, but
        the pictures of an episode's steps that no check samples and that end whole:
        one that is no image is ``image_undecodable`` too), and check its header against
        the stored size and format."""
        seen = key_of(value)
        facts = _FACTS.get(value, key=seen)
        if facts is None:  # a picture not seen lately
            facts = (hashlib.sha256(value).digest(), image_info(value))
            _FACTS.put(value, facts, key=seen)
        digest, info = facts
        self.images.add(record, key, value, digest)
        if info is None:
            return
        self.sizes.setdefault(r, (info.width, info.height))
        places = self.copies.setdefault(digest, [])
        places.append((record, self.ordinal, key))  # copies are reported once all are known
        self.ordinal += 1
        for side, stored_key, real in (
            ("high", roles.height, info.height),
            ("wide", roles.width, info.width),
        ):
            stored = scalar_of(columns, stored_key, r)
            if isinstance(stored, (int, float, np.number)) and float(stored) != real:
                self.note(
                    "image_size_mismatch",
                    f"{stored_key} is {float(stored):g} but the image is {real} pixels {side}"
                    f" ({info.width}×{info.height})",
                    record,
                    feature=stored_key,
                )
        stored_fmt = scalar_of(columns, roles.format, r)
        if isinstance(stored_fmt, bytes):
            said = stored_fmt.decode("utf-8", "replace").strip().lower()
            if _FORMAT_ALIASES.get(said, said) != info.format:
                self.note(
                    "image_format_mismatch",
                    f"{roles.format} says {said!r} but the bytes are {info.format.upper()}",
                    record,
                    feature=roles.format,
                )

    def part(self) -> CheckPart:
        """What the pass found, once every image is scored."""
        seen = self.images.scored()
        return CheckPart(
            base=self.base,
            found=self.found,
            keys=self.keys,
            seen=seen,
            copies=self.copies,
            text_ids=dict(self.classes.text_ids),
            text_records=dict(self.classes.text_records),
            others=self.others,
            matched=self.labels.matched if self.labels is not None else set(),
            named=self.labels.named if self.labels is not None else {},
            unpredicted=self.labels.unpredicted if self.labels is not None else [],
            episodes=self.episodes,
        )

    def run(
        self,
        ds: Dataset,
        cancel: CancelToken | None = None,
        progress: Callable[[int, int], None] | None = None,
        block: int = 1 << 14,
        overlay: Overlay | None = None,
    ) -> CheckPart:
        """Check every intact record of ``ds`` (an indexed, verified dataset whose
        record ``i`` is record ``base + i`` of the whole), as ``overlay`` edits it."""
        records = checked_records(ds, overlay)
        edited = overlay.edited if overlay is not None else None
        done = 0
        try:
            for positions, payloads in iter_blocks(ds, records, block, edited, reuse=True):
                if cancel is not None and cancel.cancelled:
                    break
                kind = read_as(ds, records[positions])
                self.add(records[positions] + self.base, payloads, kind)
                done += payloads.rows
                if progress is not None:
                    progress(done, len(records))
        finally:
            self.images.flush()
        return self.part()


def _copy_views(values: np.ndarray) -> None:
    """Turn the memoryviews among a column's values into bytes, in place."""
    if values.dtype == object and len(values):
        views = [i for i, v in enumerate(values.tolist()) if type(v) is memoryview]
        for i in views:
            values[i] = bytes(values[i])


def _specs(ds: Dataset, plan: Plan) -> Mapping[str, FeatureSpec] | None:
    """What ``features.json`` beside the files of ``ds`` says of each feature, when the
    records are episodes (their steps are shaped by it) and there is one."""
    if not is_episode(plan[0]):
        return None
    from ..io.tfds import info_of

    info = info_of(f.path for f in ds.files)
    return info.features if info is not None else None


def surveyed_check(
    ds: Dataset,
    base: int = 0,
    *,
    label_map: Mapping[int, str] | None = None,
    limits: Thresholds | None = None,
    schema: dict[str, Any] | None = None,
    cancel: CancelToken | None = None,
    progress: Callable[[int, int], None] | None = None,
    block: int = 1 << 14,
    overlay: Overlay | None = None,
    predictions: PredictionCheck | None = None,
) -> tuple[Survey, CheckPart, Plan]:
    """One read of an indexed ``ds`` (record ``i`` is record ``base + i`` of the whole):
    its survey, and the check of its intact records by the plan of the first block's
    survey, which is returned with it. The check stands when the plan of the whole
    dataset's survey is the same (the common case: every record has the same keys);
    otherwise the records are checked again by that plan (:func:`check_split`). The
    payload CRCs a header-only index left unverified are checked in the bytes read, and
    the statuses settled in the index. Cancelled, the part holds the records checked so
    far."""
    assert overlay is None or base == 0, "an overlay numbers records of the whole dataset"
    found = Survey()
    records = checked_records(ds, overlay)
    edited = overlay.edited if overlay is not None else None
    state: _Pass | None = None
    done = 0
    try:
        for positions, payloads in iter_blocks(ds, records, block, edited, verify=True, reuse=True):
            if cancel is not None and cancel.cancelled:
                break
            survey_block(found, payloads)
            if state is None:
                plan = found.plan()
                state = _Pass(
                    len(ds), base, plan, label_map, limits, schema, predictions, _specs(ds, plan)
                )
            state.add(records[positions] + base, payloads, read_as(ds, records[positions]))
            done += payloads.rows
            if progress is not None:
                progress(done, len(records))
    finally:
        if state is not None:
            state.images.flush()
    if cancel is None or not cancel.cancelled:
        ds.settle_verified()
    if state is None:  # no intact record
        state = _Pass(len(ds), base, found.plan(), label_map, limits, schema, predictions)
    return found, state.part(), state.plan


def check_dataset(
    ds: Dataset,
    *,
    label_map: Mapping[int, str] | None = None,
    limits: Thresholds | None = None,
    schema: dict[str, Any] | None = None,
    cancel: CancelToken | None = None,
    progress: Callable[[int, int], None] | None = None,
    block: int = 1 << 14,
    overlay: Overlay | None = None,
    predictions: PredictionCheck | None = None,
) -> list[Finding]:
    """Every finding of an indexed dataset, most severe first, then by record; with
    ``overlay``, of the records as its edits have them (the window's pending edits: an
    edited record is checked as edited, a deleted one not at all).
    ``limits`` sets the image-quality thresholds; with ``schema`` (see :mod:`.anomalies`)
    the records that break it are reported too. Cancelling stops early with the
    findings of the records checked so far. What each key is for is decided by the
    survey of the whole dataset (:func:`surveyed_check`), so that it does not depend on
    the order of the records. With ``predictions``, each record's boxes are weighed
    against a model's (:mod:`.label_checks`)."""
    if predictions is not None:
        predictions = settle(ds, predictions)
    known, part, plan = surveyed_check(
        ds,
        cancel=cancel,
        progress=progress,
        block=block,
        label_map=label_map,
        limits=limits,
        schema=schema,
        overlay=overlay,
        predictions=predictions,
    )
    if plan != known.plan() and not (cancel is not None and cancel.cancelled):
        plan = known.plan()
        state = _Pass(len(ds), 0, plan, label_map, limits, schema, predictions, _specs(ds, plan))
        part = state.run(ds, cancel, progress, block, overlay)
    return finish_check(ds, [part], known, limits=limits, predictions=predictions)


def check_split(
    split: Split,
    base: int,
    known: Survey,
    *,
    label_map: Mapping[int, str] | None = None,
    limits: Thresholds | None = None,
    schema: dict[str, Any] | None = None,
    predictions: PredictionCheck | None = None,
) -> CheckPart:
    """Check the records of a verified ``split`` (its statuses from a verifying read),
    whose first record is record ``base`` of a dataset surveyed as ``known``
    (``predictions`` settled on the whole dataset: see :func:`.label_checks.settle`)."""
    with split.dataset(verified=True) as ds:
        plan = known.plan()
        specs = _specs(ds, plan)
        state = _Pass(len(ds), base, plan, label_map, limits, schema, predictions, specs)
        return state.run(ds)
