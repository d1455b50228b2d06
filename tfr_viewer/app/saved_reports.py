"""A saved report read back typed: the JSON of ``stats --json`` or ``check --json``
(made on this machine or by an Apache Beam job), as the window's Analyze › Open
Report… shows it in the Statistics or Findings panel."""

from __future__ import annotations

from typing import Any

from ..core.analyze.findings import SEVERITIES, Finding
from ..core.analyze.stats_summary import StatsSummary
from ..core.io.side_files import SideFileError, read_json_side_file
from ..core.user_error import UserError
from .check import CheckReport

MAX_REPORT = 256 << 20  # a saved report past this is not one (its findings would not fit)


class ReportError(UserError):
    """A file that is not a report of ``stats`` or ``check``; the message says why."""


def load_report(path: str) -> StatsSummary | CheckReport:
    """The StatsSummary or the CheckReport of the JSON at ``path``,
    read as every file beside a dataset is (a regular file of a bounded size, whatever a
    hostile one holds: :func:`~..core.io.side_files.read_json_side_file`)."""
    try:
        report = read_json_side_file(path, "report", MAX_REPORT)
    except SideFileError as exc:
        raise ReportError(f"{exc}; choose the output of --json") from None
    if isinstance(report, dict) and isinstance(report.get("findings"), list):
        return _check_report(path, report)
    if (
        isinstance(report, dict)
        and isinstance(report.get("features"), dict)
        and "records" in report
    ):
        return _stats_report(path, report)
    raise ReportError(
        f"{path}: neither a `stats --json` nor a `check --json` report (it has no "
        '"features" or "findings")'
    )


def _stats_report(path: str, report: dict[str, Any]) -> StatsSummary:
    try:
        return StatsSummary.from_json(report)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ReportError(
            f"{path}: not a `stats --json` report as this version writes it "
            f"({type(exc).__name__}: {exc}); compute the statistics again"
        ) from None


def _check_report(path: str, report: dict[str, Any]) -> CheckReport:
    """The typed report of a saved ``check --json``; ReportError names the first
    finding that does not fit."""
    counts = [report.get(name, 0) for name in ("records", "files")]
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts):
        raise ReportError(f"{path}: its records and files are not counts")
    fail_on = report.get("fail_on", "warning")
    if fail_on not in SEVERITIES:
        fail_on = "warning"
    findings = []
    for number, obj in enumerate(report["findings"]):
        try:
            findings.append(Finding.from_json(obj))
        except ValueError as exc:
            raise ReportError(f"{path}: finding {number}: {exc}") from None
    return CheckReport(counts[0], counts[1], tuple(findings), fail_on)
