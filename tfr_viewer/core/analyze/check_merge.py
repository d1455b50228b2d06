"""The checks that need every record at once, over the parts of one or many passes.

A pass over consecutive records (:func:`.checks.check_dataset` over a whole dataset, or
:func:`.checks.check_split` over a split on a Beam worker) leaves a :class:`CheckPart`.
:func:`finish_check` merges parts in record order and reports what needs them all: the
checks of each key, images stored twice (:func:`copies_of`, over every place an image's
SHA-256 was seen), image content, one class name with several ids, empty shards, and
the episode checks over the dataset (robot-learning episodes, merged from the parts).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..io import Dataset
from ..io.tfds import info_of
from ..text import plural
from .episode_checks import EpisodeChecks, as_for_episodes
from .findings import Finding, sort_key
from .image_checks import ImageChecks, Seen
from .image_quality import Thresholds
from .key_checks import EXAMPLES, KeyChecks
from .label_checks import class_names, with_class_names
from .other_payloads import OtherPayloads
from .predictions import MATCH_KEYS, ById, unmatched_message
from .survey import Survey
from .tfds_checks import tfds_findings

if TYPE_CHECKING:
    from .label_checks import PredictionCheck

NAMED = 10  # records a dataset-wide finding names one by one
Place = tuple[int, int, str]  # (record, order of the image within its pass, key)


@dataclass
class CheckPart:
    """What a pass over the records from ``base`` found before the dataset-wide checks.
    ``copies`` maps each image's SHA-256 to every place it was seen, in order."""

    base: int
    found: list[Finding]
    keys: KeyChecks
    seen: list[Seen]
    copies: dict[bytes, list[Place]]
    text_ids: dict[str, Counter[int]]
    text_records: dict[tuple[str, int], list[int]]
    others: OtherPayloads = field(default_factory=OtherPayloads)  # records no Example
    matched: set[str] = field(default_factory=set)  # prediction ids records matched
    unpredicted: list[int] = field(default_factory=list)  # records no prediction names
    named: dict[str, list[int]] = field(default_factory=dict)  # prediction id -> records
    episodes: EpisodeChecks | None = None  # the episode checks' part (steps under steps/)


@dataclass
class Copies:
    """The later copies of one image: their findings (each with the record and order
    it was found in), their ``(record, digest)`` places and ``(first, later)`` records."""

    notes: list[tuple[int, int, Finding]] = field(default_factory=list)
    later: set[tuple[int, bytes]] = field(default_factory=set)
    exact: set[tuple[int, int]] = field(default_factory=set)

    def merge(self, other: Copies) -> Copies:
        self.notes.extend(other.notes)
        self.later |= other.later
        self.exact |= other.exact
        return self


def copies_of(digest: bytes, places: Iterable[Place]) -> Copies:
    """Every place of an image's bytes after the first record that holds them."""
    ordered = sorted(places)
    out = Copies()
    first = ordered[0][0] if ordered else 0
    for record, order, key in ordered:
        if record == first:
            continue
        message = f"the image in {key} is byte for byte the one of record {first}"
        out.notes.append((record, order, Finding("duplicate_image", message, record, feature=key)))
        out.later.add((record, digest))
        out.exact.add((first, record))
    return out


def _local_copies(parts: list[CheckPart]) -> Copies:
    places: dict[bytes, list[Place]] = defaultdict(list)
    for part in parts:
        for digest, found in part.copies.items():
            places[digest].extend(found)
    out = Copies()
    for digest, found in places.items():
        if len(found) > 1:
            out.merge(copies_of(digest, found))
    return out


def finish_check(
    ds: Dataset,
    parts: Iterable[CheckPart],
    known: Survey,
    *,
    copies: Copies | None = None,
    limits: Thresholds | None = None,
    predictions: PredictionCheck | None = None,
) -> list[Finding]:
    """The findings of ``ds`` (indexed and verified, surveyed as ``known``) from the
    parts of passes over all its intact records, most severe first, then by record.
    ``copies`` is the result of :func:`copies_of` over every image seen in more than one
    record, when it was worked out elsewhere (a shuffle on the digest); otherwise it is
    found from the parts."""
    parts = sorted(parts, key=lambda p: p.base)
    if copies is None:
        copies = _local_copies(parts)
    found: list[Finding] = []

    def note(kind: str, message: str, record: int | None, **where: object) -> None:
        found.append(Finding(kind, message, record, **where))  # type: ignore[arg-type]

    for p in ds.problems():
        record = None if p.region else p.record
        note("damaged_record", f"{p.kind}: {p.message}", record, file=p.file, offset=p.offset)
    keys = KeyChecks(len(ds), note)
    images = ImageChecks(limits)
    text_ids: dict[str, Counter[int]] = defaultdict(Counter)
    text_records: dict[tuple[str, int], list[int]] = defaultdict(list)
    others = OtherPayloads()
    episodes: EpisodeChecks | None = None
    for part in parts:
        if part.episodes is not None:
            episodes = part.episodes if episodes is None else episodes.merge(part.episodes)
        others.merge(part.others)
        found.extend(part.found)
        keys.merge(part.keys)
        images.take(part.seen)
        for name, ids in part.text_ids.items():
            text_ids[name].update(ids)
        for pair, records in part.text_records.items():
            listed = text_records[pair]
            listed.extend(records[: EXAMPLES - len(listed)])
    if predictions is not None:  # ids named as the labels (or a TFDS folder) name them
        names = class_names(text_ids)
        tfds = info_of(f.path for f in ds.files)
        box_key = known.roles().object_label
        if tfds is not None and box_key in tfds.class_names:
            described = dict(enumerate(tfds.class_names[box_key]))
            names = {**described, **names}
        found = with_class_names(found, names)
    found.extend(f for _, _, f in sorted(copies.notes, key=lambda n: n[:2]))
    images.drop(copies.later)

    roles = known.roles()
    lists = {*(roles.boxes or ()), roles.bbox, roles.object_label, roles.object_text}
    keys.finish(lambda key: key in lists or "object" in key)
    for name, ids in sorted(text_ids.items()):
        if len(ids) < 2:
            continue
        main, _ = ids.most_common(1)[0]
        named = ", ".join(f"{i} in {n}" for i, n in sorted(ids.items()))
        for i in sorted(ids):
            if i == main:
                continue
            for record in text_records[(name, i)]:
                note(
                    "class_text_ids",
                    f"class {name!r} has id {i} here but {main} in most records ({named})",
                    record,
                )
    images.finish(note, copies.exact)
    if (said := others.message(ds.whole_records())) is not None:
        note("checks_not_applicable", said, None)
    for f in ds.files:
        if len(f.index) == 0:
            note("empty_shard", "the file holds no records", None, file=f.path)
    found.extend(tfds_findings(ds))  # a TFDS folder's shards against dataset_info.json
    source = predictions.source if predictions is not None else None
    if isinstance(source, ById) and source.match is not None:
        matched = set().union(*(part.matched for part in parts))
        said = unmatched_message(source, source.match, matched)
        if said is not None:
            note("predictions_unmatched", said, None)
        by_id: dict[str, list[int]] = {}
        for part in parts:
            for key, records in part.named.items():
                by_id.setdefault(key, []).extend(records)
        shared = sorted((sorted(r), k) for k, r in by_id.items() if len(r) > 1)
        if shared:
            first, key = shared[0]
            shown = ", ".join(str(r) for r in first[:NAMED])
            note(
                "predictions_shared_id",
                f"{plural(len(shared), 'prediction id')} of {source.origin} "
                f"{'names' if len(shared) == 1 else 'each name'} more than one record by "
                f"{MATCH_KEYS[source.match]}, so the same detections are weighed against "
                f"each: {key!r} names records {shown}",
                None,
            )
        lacking = sorted(r for part in parts for r in part.unpredicted)
        if lacking:
            shown = ", ".join(str(r) for r in lacking[:NAMED])
            more = " …" if len(lacking) > NAMED else ""
            note(
                "records_without_predictions",
                f"{plural(len(lacking), 'record')} {'has' if len(lacking) == 1 else 'have'} "
                f"no prediction in {source.origin} by "
                f"{MATCH_KEYS[source.match]}, so their labels are not weighed: {shown}{more}",
                None,
            )
    if episodes is not None:  # the step pictures' findings folded, the episodes' added

        def where(record: int) -> tuple[str, int]:
            ref = ds.ref(record)
            return ref.file, ref.offset

        stepped = episodes.finish(where)
        found = as_for_episodes(found, stepped) + stepped
    return _placed(ds, found)


def _placed(ds: Dataset, found: list[Finding]) -> list[Finding]:
    """The findings with the file and byte offset of their records, sorted."""
    out = []
    for f in found:
        if f.record is not None and f.offset is None:
            ref = ds.ref(f.record)
            f = replace(f, file=ref.file, offset=ref.offset)
        out.append(f)
    return sorted(out, key=sort_key)
