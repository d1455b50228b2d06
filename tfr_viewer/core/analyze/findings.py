"""Data-quality findings: what is wrong, where (record, file, byte offset, feature) and
what to do. Each kind has one severity and one hint, listed here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SEVERITIES = ("error", "warning", "info")  # most severe first

# kind -> (severity, hint)
KINDS: dict[str, tuple[str, str]] = {
    "damaged_record": (
        "error",
        "the record's bytes are damaged; `tfr-viewer recover` writes the intact records "
        "to a new file",
    ),
    "example_unparseable": (
        "error",
        "tf.io.parse_single_example fails on this record and stops the input pipeline; "
        "write the record again, or drop it",
    ),
    "example_read_differently": (
        "warning",
        "TensorFlow's parser and protobuf read this record differently (the values shown "
        "are TensorFlow's); write the record again with one list per feature",
    ),
    "key_not_utf8": (
        "warning",
        "TensorFlow's parser reads the record, but protobuf (tf.train.Example.FromString, "
        "TFDS) refuses it and a feature spec must name the key as bytes; write the key "
        "as UTF-8 text",
    ),
    "empty_shard": ("warning", "remove the file from the shard set, or write it again"),
    # records read as a project's own message type, see message_checks.py
    "message_unparseable": (
        "error",
        "the record is no message of the type given: check --message (or the .proto's "
        "version), or drop the record",
    ),
    "message_unknown_fields": (
        "info",
        "a newer version of the type, or another type, wrote these fields: give the "
        ".proto that defines them to read them by name",
    ),
    "message_enum_unnamed": (
        "warning",
        "the value is no name of its enum: a newer enum, or a wrong value written",
    ),
    "message_not_finite": ("warning", "check the script that wrote the value"),
    "message_empty": ("warning", "drop the record, or check the script that wrote it"),
    # robot-learning episodes (RLDS: steps under steps/), see episode_checks.py
    "episode_shape": (
        "warning",
        "a step feature does not split into the episode's steps; check the script that "
        "flattened the steps (features.json beside the shards says each step's shape)",
    ),
    "episode_flags": (
        "error",
        "is_first must be true at the first step alone and is_last at the last alone; "
        "write the episode again, split where two run together",
    ),
    "episode_short": (
        "warning",
        "an episode of one or two steps is often a failed recording; drop it, or check it",
    ),
    "episode_instruction": (
        "warning",
        "a language-conditioned policy learns nothing from this step's instruction; "
        "write the task's instruction, or drop the episode",
    ),
    "instruction_mismatch": (
        "warning",
        "the episodes given one instruction should do one task; check this episode's "
        "instruction against its recording, and correct or drop it",
    ),
    "signal_not_finite": (
        "error",
        "NaN or infinity poisons training; drop the episode, or fix the recording",
    ),
    "action_still": (
        "warning",
        "the robot was never commanded to move; drop the episode, or check the recording",
    ),
    "action_jump": (
        "warning",
        "a jerky action (a dropped message or a wrong unit) teaches the policy to jerk; "
        "check the step, and drop or smooth the episode",
    ),
    "camera_blank": (
        "error",
        "the camera recorded nothing the policy can see; drop the camera or the episode",
    ),
    "camera_frozen": (
        "warning",
        "the camera stopped updating; drop the steps, or the episode",
    ),
    "camera_missing": (
        "warning",
        "a camera some episodes lack leaves a hole in the model's input; drop the "
        "camera, or the episodes without it",
    ),
    "episode_duplicate": (
        "warning",
        "the same episode twice weighs it double, and across splits leaks the test into "
        "training; keep one copy",
    ),
    "empty_record": ("warning", "drop the record, or check the script that wrote it"),
    "checks_not_applicable": (
        "info",
        "nothing to do: `show` and `head` decode these records, and `verify` checks them",
    ),
    "kind_conflict": (
        "error",
        "tf.io parsing needs one kind per key; write this feature with the kind the other "
        "records use",
    ),
    "feature_missing": (
        "warning",
        "a FixedLenFeature without a default fails on this record; add the feature or give "
        "the spec a default_value",
    ),
    "key_spelling": (
        "warning",
        "TensorFlow parses two spellings as two features, so a spec that names one misses "
        "the records that hold the other; write every record with one spelling",
    ),
    "value_count_differs": (
        "warning",
        "a FixedLenFeature of the common length fails on this record; fix the record or "
        "parse the key as a VarLenFeature",
    ),
    "image_undecodable": (
        "error",
        "tf.io.decode_image fails on these bytes and stops the input pipeline; replace the "
        "image, or drop the record",
    ),
    "image_format_unsupported": (
        "warning",
        "tf.io.decode_image reads JPEG, PNG, GIF, BMP and WebP only; re-encode the image "
        "(`tfr-viewer convert --reencode`), or decode it with another library",
    ),
    "image_frames_dropped": (
        "warning",
        "TensorFlow decodes only the frames before the damage; replace the image if the "
        "other frames matter",
    ),
    "image_too_large": (
        "warning",
        "not decoded: above the pixel budget; check that the size in the header is real, "
        "and that your pipeline has the memory to decode it",
    ),
    "image_size_mismatch": (
        "error",
        "the stored size is used to scale boxes and to reshape pixels; store the image's "
        "real height and width",
    ),
    "image_format_mismatch": ("warning", "store the format the bytes really have"),
    "duplicate_image": (
        "warning",
        "the same image in several records weighs it twice, and leaks across splits; keep one copy",
    ),
    "near_duplicate_image": (
        "warning",
        "nearly the same image in several records (a resized or re-encoded copy) weighs "
        "it twice, and leaks across splits; keep one",
    ),
    "exif_rotation": (
        "warning",
        "viewers and annotation tools turn the image by its EXIF orientation, TensorFlow's "
        "decode_jpeg does not: boxes drawn on the turned image land in the wrong place; "
        "store the pixels upright and drop the tag",
    ),
    "image_dark": ("info", "check the exposure, or drop the image if it shows nothing"),
    "image_light": ("info", "check the exposure, or drop the image if it shows nothing"),
    "image_odd_aspect_ratio": ("info", "check whether the image is cropped or a strip"),
    "image_low_information": ("info", "the image is nearly uniform; check that it shows something"),
    "image_blurry": ("info", "check the focus, or drop the image"),
    "image_grayscale": (
        "info",
        "a grey image among colour ones: a model may learn colour as a cue; convert it to RGB "
        "or check that it belongs",
    ),
    "image_odd_size": ("info", "far smaller or larger than the others; check how it was made"),
    "image_without_boxes": (
        "info",
        "an image with no boxes trains as a negative; intended for background images, "
        "otherwise its annotations are missing",
    ),
    "bbox_length_mismatch": (
        "error",
        "xmin, ymin, xmax and ymax must hold one value per box; the record cannot be "
        "parsed into boxes",
    ),
    "box_inverted": ("error", "swap the coordinates: min must not be greater than max"),
    "box_out_of_range": (
        "error",
        "normalised coordinates lie in [0, 1] (the Object Detection API refuses values "
        "past 1.01); clip the box or fix its conversion",
    ),
    "box_pixel_coordinates": (
        "error",
        "divide x by the image width and y by its height: the boxes are in pixels where "
        "normalised coordinates are expected",
    ),
    "box_zero_area": ("warning", "a box with no width or height teaches nothing; remove it"),
    "box_without_class": (
        "error",
        "every box needs a class id (and text); give the class lists one value per box",
    ),
    "class_id_zero": (
        "error",
        "the Object Detection API reserves id 0 for the background; number classes from 1",
    ),
    "class_text_ids": (
        "warning",
        "one class name should have one id everywhere; renumber the records that differ",
    ),
    "schema_missing": ("error", "add the feature to the record, or make it optional in the schema"),
    "schema_unexpected": (
        "warning",
        "a key the schema does not know: add it to the schema if it is meant to be there",
    ),
    "schema_kind": ("error", "write the feature with the schema's kind, or change the schema"),
    "schema_value_count": (
        "error",
        "fix the record, or widen the schema's value_count if the length is allowed",
    ),
    "schema_domain": (
        "warning",
        "a value outside the schema's domain: a typo, or a new class; fix the record or add "
        "the value to the schema's domain",
    ),
    "label_not_in_map": ("error", "add the class to the label map, or fix the record's label"),
    "label_missed": (
        "warning",
        "a confident prediction where no box is labelled: possibly an object nobody "
        "labelled; add a box (B in the picture) if it is there",
    ),
    "label_class": (
        "warning",
        "the model finds this box confidently as another class; check the box's class "
        "(C in the picture changes it)",
    ),
    "label_location": (
        "warning",
        "the model puts an object of this class near the box but not on it; check that the "
        "box fits the object (drag it or its corners in the picture)",
    ),
    "label_spurious": (
        "warning",
        "no prediction comes near this box while the model finds other objects in the "
        "image; check that something is there, or delete the box (Del in the picture)",
    ),
    "tfds_shard_length": (
        "error",
        "a reader that trusts dataset_info.json (TFDS) counts, splits and shuffles by the "
        "lengths it gives; regenerate the split, or correct shardLengths",
    ),
    "tfds_shard_missing": (
        "error",
        "TFDS fails to read the split without it; restore the shard, or regenerate the dataset",
    ),
    "predictions_malformed": (
        "warning",
        "the record's predictions cannot be read as boxes, so its labels are not weighed; "
        "write the detection lists with one value per box in each",
    ),
    "predictions_unmatched": (
        "warning",
        "these predictions weigh no record: check that they are of this dataset, and the id "
        "they are matched by (--match source_id, sha256 or filename)",
    ),
    "predictions_shared_id": (
        "warning",
        "records that share an id get the same detections: match by an id that differs "
        "from record to record (--match sha256 or filename)",
    ),
    "records_without_predictions": (
        "info",
        "these records' labels are not weighed: give predictions for them, or check the id "
        "they are matched by (--match)",
    ),
}

# kinds that weigh a model's predictions against the labels, ranked by their evidence
LABEL_ERROR_KINDS = ("label_missed", "label_class", "label_location", "label_spurious")
# the kinds of the episode checks (records that are robot-learning episodes)
EPISODE_KINDS = (
    "episode_shape",
    "episode_flags",
    "episode_short",
    "episode_instruction",
    "instruction_mismatch",
    "signal_not_finite",
    "action_still",
    "action_jump",
    "camera_blank",
    "camera_frozen",
    "camera_missing",
    "episode_duplicate",
)


@dataclass(frozen=True)
class Finding:
    """One fault. ``record`` and ``offset`` are None for a fault of a whole file or of
    the dataset; ``feature`` is None when no key is at fault; ``box`` is the index of a
    box in the record's box lists, when one box is at fault; ``step`` the step of an
    episode (a record of steps) where the fault is, when one step is."""

    kind: str
    message: str
    record: int | None = None
    file: str | None = None
    offset: int | None = None
    feature: str | None = None
    box: int | None = None
    # what a prediction showed (score, iou, classes, the predicted box) and ``rank``, the
    # strength of that evidence in [0, 1]; only label-error findings have it
    evidence: Mapping[str, Any] | None = None
    step: int | None = None  # the step of an episode at fault (robot-learning records)

    @property
    def severity(self) -> str:
        return KINDS[self.kind][0]

    @property
    def hint(self) -> str:
        return KINDS[self.kind][1]

    @property
    def rank(self) -> float:
        """The strength of the evidence against the labels, in [0, 1]; 0 without it."""
        return float(self.evidence.get("rank", 0.0)) if self.evidence is not None else 0.0

    @property
    def prediction(self) -> int | None:
        """The place, among the record's predictions, of the one this finding is about."""
        place = self.evidence.get("prediction") if self.evidence is not None else None
        return place if isinstance(place, int) and not isinstance(place, bool) else None

    @property
    def predicted_name(self) -> tuple[int, str] | None:
        """The predicted class and its name, where the evidence names it."""
        ev = self.evidence or {}
        cls, text = ev.get("predicted_class"), ev.get("predicted_text")
        return (cls, text) if isinstance(cls, int) and isinstance(text, str) else None

    @classmethod
    def from_json(cls, obj: object) -> Finding:
        """A finding as ``check --json`` wrote it (a saved report, a Beam job's);
        ValueError says what of it does not fit."""
        if not isinstance(obj, Mapping):
            raise ValueError(f"a finding is a JSON object, not {type(obj).__name__}")
        kind = obj.get("kind")
        if not isinstance(kind, str) or kind not in KINDS:
            raise ValueError(f"{kind!r} is no kind of finding this version knows")
        message = obj.get("message")
        if not isinstance(message, str):
            raise ValueError(f"a {kind} finding has no message")

        def optional(name: str, kind_of: type) -> Any:
            value = obj.get(name)
            if value is not None and (not isinstance(value, kind_of) or isinstance(value, bool)):
                raise ValueError(f"the {name} of a {kind} finding is {value!r}")
            return value

        evidence = obj.get("evidence")
        if evidence is not None and not (
            isinstance(evidence, Mapping)
            and isinstance(evidence.get("rank", 0.0), int | float)
            and not isinstance(evidence.get("rank", 0.0), bool)
        ):
            raise ValueError(f"the evidence of a {kind} finding is not a ranked object")
        return cls(
            kind,
            message,
            optional("record", int),
            optional("file", str),
            optional("offset", int),
            optional("feature", str),
            optional("box", int),
            evidence,
            optional("step", int),
        )

    def to_json(self) -> dict[str, Any]:
        return (
            {
                "severity": self.severity,
                "kind": self.kind,
                "record": self.record,
                "file": self.file,
                "offset": self.offset,
                "feature": self.feature,
                "box": self.box,
                "message": self.message,
                "hint": self.hint,
            }
            | ({"evidence": dict(self.evidence)} if self.evidence is not None else {})
            | ({"step": self.step} if self.step is not None else {})
        )


def at_least(severity: str, threshold: str) -> bool:
    """Whether ``severity`` is ``threshold`` or more severe."""
    return SEVERITIES.index(severity) <= SEVERITIES.index(threshold)


def sort_key(f: Finding) -> tuple[Any, ...]:
    """Most severe first; in a severity, findings by record, then those a prediction
    gives evidence for, strongest first."""
    rank = -f.rank
    record = -1 if f.record is None else f.record
    return (SEVERITIES.index(f.severity), f.evidence is not None, rank, record, f.kind)
