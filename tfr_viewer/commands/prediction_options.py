"""The options that name a model's predictions, shared by ``check`` and ``evaluate``:
``--predictions PRED`` (the word ``features``, a COCO results file or a TFRecord
dataset), ``--match``, ``--detection-key ROLE=KEY`` and the thresholds; read once at
the boundary into a :class:`~..core.analyze.label_checks.PredictionCheck`."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..errors import UsageError

if TYPE_CHECKING:
    from ..core.analyze.label_checks import PredictionCheck


def prediction_arguments(p: argparse.ArgumentParser, required: bool = False) -> None:
    p.add_argument(
        "--predictions",
        metavar="PRED",
        required=required,
        help="a model's predictions: 'features' (the records' image/detection/* lists), a "
        "COCO results JSON, or a TFRecord dataset with detection lists",
    )
    p.add_argument(
        "--match",
        choices=("source_id", "sha256", "filename"),
        help="match predictions to records by image/source_id, image/key/sha256 or the "
        "file name (default: the one most of them match)",
    )
    p.add_argument(
        "--detection-key",
        action="append",
        default=[],
        metavar="ROLE=KEY",
        help="where records keep predictions: xmin, ymin, xmax, ymax, label or score "
        "(default image/detection/bbox/xmin …, image/detection/label, image/detection/score)",
    )
    p.add_argument(
        "--score-threshold",
        type=float,
        default=0.5,
        metavar="S",
        help="a prediction at least this sure is confident (default 0.5)",
    )
    p.add_argument(
        "--iou-threshold",
        type=float,
        default=0.5,
        metavar="T",
        help="the overlap that pairs a prediction with a box (default 0.5)",
    )


def prediction_check(args: argparse.Namespace) -> PredictionCheck | None:
    """The predictions ``args`` name, read and checked (None without --predictions);
    a file or setting that does not fit is a UsageError."""
    from ..core.analyze.label_checks import PredictionCheck
    from ..core.analyze.label_errors import Thresholds
    from ..core.analyze.predictions import DetectionKeys, PredictionError, open_source

    if not args.predictions:
        for option, given in (("--match", args.match), ("--detection-key", args.detection_key)):
            if given:
                raise UsageError(f"{option} goes with --predictions")
        return None
    limits = Thresholds(score=args.score_threshold, iou=args.iou_threshold)
    try:
        limits.check()
        keys = DetectionKeys.with_settings(args.detection_key)
        return PredictionCheck(open_source(args.predictions, keys, args.match), limits)
    except (PredictionError, ValueError) as exc:
        raise UsageError(str(exc)) from None
