"""The box checks of a block of records, each finding under the list at fault: lists of
different lengths, an image without boxes, boxes without a class, pixel coordinates,
and a box inverted, out of range or of no area; good boxes say nothing."""

from __future__ import annotations

import numpy as np

from tests.planted_faults import example_of
from tfr_viewer.core.analyze.box_checks import BoxChecks
from tfr_viewer.core.analyze.roles import Roles
from tfr_viewer.core.io.payload_block import PayloadBlock
from tfr_viewer.core.query.extract import extract

BOX = "image/object/bbox/"
SIDES = (BOX + "xmin", BOX + "ymin", BOX + "xmax", BOX + "ymax")
LABEL = "image/object/class/label"
ROLES = Roles(
    images=("image/encoded",), width="image/width", height="image/height", boxes=SIDES,
    object_label=LABEL,
)  # fmt: skip


def _record(boxes: list[tuple[float, ...]], labels: int | None = None, **more) -> dict:
    out = {side: [b[k] for b in boxes] for k, side in enumerate(SIDES)}
    out[LABEL] = [1] * (len(boxes) if labels is None else labels)
    return {"image/encoded": [b"\xff\xd8 a picture"], **out, **more}


RECORDS = {
    0: (_record([(0.1, 0.1, 0.5, 0.5), (0.0, 0.0, 1.0, 1.0)]), []),
    1: (_record([(0.6, 0.1, 0.5, 0.5)]), [("box_inverted", SIDES[0], 0)]),
    2: (_record([(0.1, 0.1, 0.5, 1.2)]), [("box_out_of_range", SIDES[3], 0)]),
    3: (_record([(0.1, 0.1, 0.5, 0.5), (0.2, 0.3, 0.2, 0.5)]), [("box_zero_area", SIDES[2], 1)]),
    4: (_record([(10, 20, 30, 40)], **{"image/width": [64], "image/height": [48]}),
        [("box_pixel_coordinates", SIDES[3], 0)]),
    5: (_record([], 0), [("image_without_boxes", None, None)]),
    6: (_record([(0.1, 0.1, 0.5, 0.5)], labels=2), [("box_without_class", LABEL, None)]),
}  # fmt: skip


def test_each_fault_is_found_under_its_list():
    features = [f for f, _ in RECORDS.values()]
    features.append({**_record([(0.1, 0.1, 0.5, 0.5)]), SIDES[1]: [0.1, 0.2]})  # 7: lengths
    block = PayloadBlock.of([example_of(f) for f in features])
    found: list[tuple[str, int, object, object]] = []
    checks = BoxChecks(lambda kind, message, record, **where: found.append(
        (kind, record, where.get("feature"), where.get("box"))))  # fmt: skip
    status, columns = extract(block, [*ROLES.keys()])
    records = np.arange(len(features), dtype=np.int64) + 100  # their global numbers
    checks.add(ROLES, columns, records, status == 0)
    theirs = [(kind, 100 + r, feature, box)
              for r, (_, said) in RECORDS.items() for kind, feature, box in said]  # fmt: skip
    theirs.append(("bbox_length_mismatch", 107, SIDES[1], None))
    assert sorted(found, key=str) == sorted(theirs, key=str)


def test_rows_not_ok_are_not_checked():
    block = PayloadBlock.of([example_of(RECORDS[1][0])])
    found: list[str] = []
    checks = BoxChecks(lambda kind, *a, **k: found.append(kind))
    status, columns = extract(block, [*ROLES.keys()])
    checks.add(ROLES, columns, np.array([0]), np.zeros(1, dtype=bool))
    assert found == []
