"""A model's predictions in the window: Analyze › Predictions… chooses where they come
from (by default the records' own ``image/detection/…`` lists), the picture draws them,
Run Checks weighs the labels against them, Analyze › Evaluate Predictions… shows COCO
AP and recall per class, and View › Most Suspicious First orders the records by the
strongest evidence against their labels (the table, and the gallery with it)."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..app.evaluate import EvaluateRequest
from ..app.predictions import PredictionsRequest
from ..core.analyze.label_checks import PredictionCheck
from ..core.analyze.label_errors import triage_weight
from ..core.analyze.predictions import DetectionKeys, InRecords
from .actions import OPEN, Action, Entry, On
from .analysis_job import AnalysisJob
from .recent import last_dir

if TYPE_CHECKING:
    from collections.abc import Sequence

    from PySide6.QtCore import QSettings

    from ..app.check import CheckReport
    from ..core.analyze.findings import Finding
    from .analysis_actions import AnalysisActions
    from .dialogs.evaluation_dialog import EvaluationDialog
    from .dialogs.predictions_dialog import PredictionsDialog
    from .host import PanelHost
    from .table_order import TableOrder
    from .viewers.preview import PreviewPane


def suspicion(findings: Sequence[Finding]) -> dict[int, float]:
    """Each record's strongest evidence against its labels: a wrong class or a wrong box
    above an object nobody labelled, above a labelled object the model did not see,
    then by rank (:func:`~..core.analyze.label_errors.triage_weight`)."""
    out: dict[int, float] = {}
    for f in findings:
        if f.evidence and f.record is not None:
            weight = triage_weight(f.kind, f.rank)
            out[f.record] = max(out.get(f.record, 0.0), weight)
    return out


class PredictionActions:
    """The window's predictions (``check``) and the commands that use them (the
    window's ``predictions``, made the first time one of :data:`ACTIONS` runs or the
    checks ask for the predictions)."""

    def __init__(
        self,
        w: PanelHost,
        analysis: AnalysisActions,
        preview: PreviewPane,
        order: TableOrder,
        settings: QSettings,
    ) -> None:
        """``analysis`` runs the checks the predictions take part in; ``preview`` draws
        them; ``order`` sorts the rows by their evidence; a dialog starts in the folder
        of the dataset last opened (``settings``)."""
        self.w = w
        self.analysis, self.preview, self.order = analysis, preview, order
        self.settings = settings
        self.check = PredictionCheck(InRecords())
        self.kind, self.path = "features", ""
        self.job: AnalysisJob | None = None
        self.last_dialog: PredictionsDialog | None = None
        self.evaluation: EvaluationDialog | None = None
        self._sort_when_checked = False
        slider = preview.images.prediction_bar.slider
        self._slid(slider.value())  # the picture's threshold so far
        slider.valueChanged.connect(self._slid)
        w.session.closed.connect(self._closed)
        analysis.checked.connect(self._findings_arrived)

    # -- where they come from ----------------------------------------------------------
    def open_dialog(self) -> None:
        from .dialogs.predictions_dialog import PredictionsDialog

        match = self.check.source.match if not isinstance(self.check.source, InRecords) else None
        dialog = self.last_dialog = PredictionsDialog(
            self.kind,
            self.path,
            match,
            self.check.limits,
            last_dir(self.settings),
            self.w.as_widget(),
        )
        dialog.accepted.connect(lambda: self.use(*dialog.choice()))
        dialog.open()

    def use(self, kind: str, path: str, match: str | None, limits: Any) -> None:
        """Take predictions from ``kind`` (``features``, ``results`` or ``dataset`` at
        ``path``), read in a child process when they are outside the records."""
        if kind == "features":
            self._set(PredictionCheck(InRecords(), limits), kind, "")
            return
        ds = self.w.session.dataset
        if ds is None:
            return
        if self.job is not None:
            self.job.cancel()
        request = PredictionsRequest(path, DetectionKeys(), match, limits)
        job = self.job = AnalysisJob(ds, request, parent=self.w.as_widget())
        job.phase.connect(lambda text: self.w.statusBar().showMessage(f"predictions: {text}…"))
        job.finished.connect(lambda result, error: self._loaded(job, kind, path, result, error))
        job.start()

    def _loaded(self, job: AnalysisJob, kind: str, path: str, result: Any, error: str) -> None:
        if job is not self.job:
            return
        self.job = None
        if result is None:
            if error:
                self.w.show_error("Cannot use these predictions", error)
            return
        self._note_inputs(path)
        self._set(result, kind, path)
        self.w.statusBar().showMessage(f"predictions from {result.source.describe()}", 15000)

    @staticmethod
    def _note_inputs(path: str) -> None:
        """The files read in the child: inputs of the window too, which no report or
        export it writes may replace."""
        from ..core.io import PathError, expand
        from ..core.io.inputs_read import note_path

        try:
            for name in expand([path]) if os.path.isdir(path) else [path]:
                note_path(name)
        except (PathError, OSError):
            note_path(path)

    def _set(self, check: PredictionCheck, kind: str, path: str) -> None:
        self.check, self.kind, self.path = check, kind, path
        images = self.preview.images
        images.predictions = check.source
        images.iou = check.limits.iou
        blocked = images.prediction_bar.slider.blockSignals(True)
        images.prediction_bar.set_score(check.limits.score)
        images.prediction_bar.slider.blockSignals(blocked)
        images.refresh()

    def _slid(self, value: int) -> None:
        """The picture's score threshold is the checks' too."""
        self.check = replace(self.check, limits=replace(self.check.limits, score=value / 100))

    def _closed(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.job = None
        if self.kind != "features":  # predictions of another dataset's records
            self._set(PredictionCheck(InRecords(), self.check.limits), "features", "")

    # -- what they say -------------------------------------------------------------------
    def evaluate(self) -> None:
        """COCO AP and recall per class, in a dialog, computed in a child process."""
        from .dialogs.evaluation_dialog import EvaluationDialog

        ds = self.w.session.dataset
        if ds is None:
            return
        dialog = self.evaluation = EvaluationDialog(
            self.check.source.describe(), self.w.as_widget()
        )
        job = AnalysisJob(ds, EvaluateRequest(self.check), parent=dialog)
        job.progress.connect(dialog.running)
        job.finished.connect(dialog.show_result)
        dialog.rejected.connect(job.cancel)
        dialog.show()
        job.start()

    def suspicious_first(self) -> None:
        """Order the records by their strongest label-error evidence (the checks are
        run first when they have not weighed any)."""
        shown = self.analysis.check_report
        ranks = suspicion(shown.findings if shown is not None else [])
        if not ranks:
            self._sort_when_checked = True
            self.w.statusBar().showMessage("weighing the labels against the predictions…")
            self.analysis.run_checks()
            return
        self._order(ranks)

    def _findings_arrived(self, report: CheckReport | None) -> None:
        """A check's report shown (None: the check stopped): the records ordered by
        its evidence when Most Suspicious First ran the check."""
        if not self._sort_when_checked:
            return
        self._sort_when_checked = False
        if report is None:
            return
        ranks = suspicion(report.findings)
        if ranks:
            self._order(ranks)
        else:
            self.w.statusBar().showMessage(
                "no label errors: the predictions agree with the labels (Analyze › Predictions…)",
                15000,
            )

    def _order(self, ranks: dict[int, float]) -> None:
        ds = self.w.session.dataset
        if ds is None:
            return
        shown = self.order.filtered
        records = shown if shown is not None else np.arange(len(ds), dtype=np.int64)
        strength = np.array([ranks.get(int(r), -1.0) for r in records])
        order = records[np.argsort(-strength, kind="stable")]
        self.order.show_order(order, "the strongest evidence against the labels first")
        if len(order):
            self.w.select_record(int(order[0]))  # the top of the triage, not the old row


# Analyze › Predictions… and Evaluate Predictions…, View › Most Suspicious First
ACTIONS: tuple[Entry, ...] = (
    Action(
        "analyze.predictions",
        "&Predictions…",
        "analyze",
        On("predictions.open_dialog"),
        None,
        2,
        OPEN,
    ),
    Action(
        "analyze.evaluate",
        "&Evaluate Predictions…",
        "analyze",
        On("predictions.evaluate"),
        None,
        2,
        OPEN,
        order=1,
    ),
    Action(
        "view.suspicious",
        "Most &Suspicious First",
        "view",
        On("predictions.suspicious_first"),
        None,
        1,
        OPEN,
        order=2,
    ),
)
