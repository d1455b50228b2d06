"""The report files the analysis commands write beside their output (``--html FILE``,
``check --junit FILE``; the option ``--html`` is :func:`~..cli_options.add_html`):
refused before the work when they could not be written (an input, an existing file
without ``--overwrite``), then written through the output layer."""

from __future__ import annotations

from collections.abc import Sequence


def refuse_early(targets: Sequence[str], inputs: Sequence[str], overwrite: bool) -> None:
    """ExportError now for a report asked for (``--html``, ``--junit``) that could not
    be written later: an input, or a file that exists without ``overwrite``."""
    from ..core.write.output import check_target, input_ids

    for target in targets:
        check_target(target, input_ids(inputs), overwrite, role="report")


def require_charts() -> None:
    from ..core.report.charts import require

    require()


def write_report(target: str, data: str | bytes, inputs: Sequence[str], overwrite: bool) -> None:
    from ..core.report.page import as_bytes
    from ..core.write.output import save_file

    raw = as_bytes(data) if isinstance(data, str) else data
    save_file(target, raw, inputs=inputs, overwrite=overwrite, role="report")
