"""``evaluate``: a model's predictions against the labelled boxes, by pycocotools.

:func:`evaluation` gathers every record with box lists and predictions (a record the
predictions do not name counts as one where nothing was found, as COCOeval counts it)
and computes COCO's metrics; :class:`EvaluateReport` is what it found, the same for the
command line's ``--json``, the Python API and the window."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.io import Dataset
from ..core.text import plural
from ..core.user_error import UserError
from .indexing import index
from .tables import require_pandas
from .task_state import QUIET, TaskState

if TYPE_CHECKING:
    from ..core.analyze.evaluate import Evaluation
    from ..core.analyze.label_checks import PredictionCheck


class EvaluateError(UserError):
    """Nothing to evaluate, or no way to (pycocotools missing): the message says which."""


@dataclass(frozen=True)
class EvaluateReport:
    """COCO's metrics over every class and per class (``evaluation``), and the records
    of the dataset."""

    evaluation: Evaluation
    records: int

    def to_json(self) -> dict[str, Any]:
        """``evaluate --json``: ``ap``, ``ap50``, ``recall50``, ``images``, ``classes``
        and ``records``."""
        return self.evaluation.to_json() | {"records": self.records}

    def to_pandas(self) -> Any:
        """A row a class."""
        return require_pandas().DataFrame([c.to_json() for c in self.evaluation.classes])


@dataclass(frozen=True)
class EvaluateRequest:
    """``evaluate`` as a front end asks it: the predictions (``check``) and the class
    names (``names``, a label map) where given."""

    check: PredictionCheck
    names: Mapping[int, str] | None = None

    def run(self, ds: Dataset, state: TaskState = QUIET) -> EvaluateReport:
        return evaluation(ds, self.check, self.names, state)


def evaluation(
    ds: Dataset,
    check: PredictionCheck,
    names: Mapping[int, str] | None = None,
    state: TaskState = QUIET,
) -> EvaluateReport:
    """The predictions of ``check`` against the boxes of ``ds`` (classes named by
    ``names``, a label map, where given)."""
    from ..core.analyze.evaluate import EvaluationUnavailable, evaluate, gather

    index(ds, verify=False, state=state)
    with state.phase("reading labels and predictions", len(ds)) as step:
        scenes = gather(ds, check, progress=step)
    if not scenes:
        raise EvaluateError(
            f"no record of {plural(len(ds), 'record')} has both box lists and predictions "
            f"({check.source.describe()})"
        )
    try:
        result = evaluate(scenes, names)
    except (EvaluationUnavailable, ValueError) as exc:
        raise EvaluateError(str(exc)) from None
    return EvaluateReport(result, len(ds))
