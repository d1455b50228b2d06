"""Every scalar point of TensorBoard event files (``events.out.tfevents.*``): each
value of a summary that is a number, whether written as TensorFlow 1 writes scalars
(``simple_value``) or as TensorFlow 2 does (a tensor of one element under the
``scalars`` plugin). Every point, in the order of the records: nothing is sampled, as
TensorBoard's reservoir does by default."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..decode.payloads import event

SCALAR_PLUGINS = frozenset({"scalars"})  # TF2 tensors that are scalars: its plugin


@dataclass(frozen=True)
class ScalarPoint:
    """One point: its ``tag``, the event's ``step`` and ``wall_time``, its ``value``;
    ``record``, the record of the event file that holds it."""

    tag: str
    step: int
    wall_time: float
    value: float
    record: int


def scalar_points(payloads: Iterable[tuple[int, bytes]]) -> list[ScalarPoint]:
    """The scalar points of the events among ``payloads`` (``(record, bytes)``, in
    record order); records that are no Event hold none."""
    points = []
    for record, data in payloads:
        if not event.bid(data).priority:
            continue
        p = event.decode(data)
        for v in p.values:
            value = _number(v)
            if value is not None:
                points.append(ScalarPoint(v.tag, p.step, p.wall_time, value, record))
    return points


def _number(v: event.SummaryValue) -> float | None:
    if v.kind == "scalar":
        return v.value
    if v.kind == "tensor" and v.plugin in SCALAR_PLUGINS and v.tensor is not None:
        values = v.tensor.values
        if v.tensor.note is None and values.size == 1 and values.dtype.kind in "fiub":
            return float(values.reshape(-1)[0])
    return None
