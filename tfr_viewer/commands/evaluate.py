"""``evaluate``: COCO-style AP and recall of a model's predictions against a dataset's
labels, per class and over all, computed by pycocotools (the ``eval`` extra)."""

from __future__ import annotations

import argparse
import sys

from ..cli_options import CommandSpec, add_paths
from ..core import json_text
from ..core.io import Dataset
from ..core.text import plural
from ..errors import EXIT_OK
from .prediction_options import prediction_arguments, prediction_check
from .progress import COMMAND_LINE, index_with_progress, print_warnings


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def cmd_evaluate(args: argparse.Namespace) -> int:
    from ..app.evaluate import evaluation
    from ..core.analyze.label_map import read_label_map

    check = prediction_check(args)
    assert check is not None  # --predictions is required
    names = read_label_map(args.label_map) if args.label_map else None
    with Dataset.open(args.paths) as ds:
        index_with_progress(ds, verify=False)
        print_warnings(ds, args.json)
        report = evaluation(ds, check, names, COMMAND_LINE)
    result, records = report.evaluation, report.records
    if args.json:
        json_text.dump(report.to_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
        return EXIT_OK
    rows = [("class", "AP", "AP@0.5", "recall@0.5", "boxes", "predictions")]
    for c in result.classes:
        name = f"{c.label} {c.text}" if c.text else str(c.label)
        rows.append(
            (
                name,
                _cell(c.ap),
                _cell(c.ap50),
                _cell(c.recall50),
                f"{c.boxes:,}",
                f"{c.predictions:,}",
            )
        )
    boxes = sum(c.boxes for c in result.classes)
    predicted = sum(c.predictions for c in result.classes)
    rows.append(
        (
            "all",
            _cell(result.ap),
            _cell(result.ap50),
            _cell(result.recall50),
            f"{boxes:,}",
            f"{predicted:,}",
        )
    )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [
            v.rjust(w) for v, w in zip(row[1:], widths[1:], strict=True)
        ]
        print("  ".join(cells))
    print(
        f"{plural(result.images, 'image')} of {plural(records, 'record')} weighed; AP is "
        "COCO's mean over IoU 0.5 to 0.95, recall at IoU 0.5 with up to 100 detections an image"
    )
    return EXIT_OK


def evaluate_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p)
    prediction_arguments(p, required=True)
    p.add_argument("--label-map", metavar="PBTXT", help="class names for the ids")
    p.add_argument("--json", action="store_true", help="the metrics as JSON")


COMMANDS = {"evaluate": CommandSpec(evaluate_arguments, cmd_evaluate)}
