"""The report files the analysis commands write beside their output (``--html FILE``,
``check --junit FILE``): refused before the work when they could not be written (an
input, an existing file without ``--overwrite``), then written through the output
layer."""

from __future__ import annotations

import argparse
from collections.abc import Sequence


def html_arguments(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument(
        "--html",
        metavar="FILE",
        help=f"also write {what} as one self-contained HTML file (charts and pictures "
        "inline; needs the report extra: matplotlib)",
    )


def refuse_early(targets: Sequence[str | None], inputs: Sequence[str], overwrite: bool) -> None:
    """ExportError now for a report that could not be written later; ReportUnavailable
    when an HTML report is asked for and matplotlib is missing."""
    from ..core.write.output import check_target, input_ids

    for target in targets:
        if target:
            check_target(target, input_ids(inputs), overwrite, role="report")


def require_charts() -> None:
    from ..core.report.charts import require

    require()


def write_report(target: str, data: str | bytes, inputs: Sequence[str], overwrite: bool) -> None:
    from ..core.report.page import as_bytes
    from ..core.write.output import save_file

    raw = as_bytes(data) if isinstance(data, str) else data
    save_file(target, raw, inputs=inputs, overwrite=overwrite, role="report")
