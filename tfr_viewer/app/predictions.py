"""A model's predictions read from outside the records (a COCO results file, another
dataset's detection lists) and matched to a dataset: what ``--predictions`` reads, and
what the window reads in its child when the user chooses a file."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.io import Dataset
from .task_state import QUIET, TaskState

if TYPE_CHECKING:
    from ..core.analyze.label_checks import PredictionCheck
    from ..core.analyze.label_errors import Thresholds
    from ..core.analyze.predictions import DetectionKeys


@dataclass(frozen=True)
class PredictionsRequest:
    """The predictions at ``spec`` (as ``--predictions`` takes it), their lists'
    ``keys``, the id they are matched by (``match``; None: the one most records match)
    and the score and IoU thresholds."""

    spec: str
    keys: DetectionKeys
    match: str | None
    limits: Thresholds

    def run(self, ds: Dataset, state: TaskState = QUIET) -> PredictionCheck:
        """The predictions read and matched to ``ds`` by the id chosen for it."""
        from ..core.analyze.label_checks import PredictionCheck, settle
        from ..core.analyze.predictions import open_source

        with state.phase("reading the predictions", 1):
            source = open_source(self.spec, self.keys, self.match)
        with state.phase("matching them to the records", 1):
            return settle(ds, PredictionCheck(source, self.limits))
