"""``check``'s arguments, checked once at the boundary: a frozen :class:`CheckRequest`
holding the label map and the schema already read, the image-quality thresholds, the
severity that fails the run and where split work runs. A file or setting that does not
fit is refused (exit 2) before the dataset is opened."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING

from ..app.check import CheckOptions
from ..cli_options import Runs
from ..errors import UsageError
from .prediction_options import prediction_check

if TYPE_CHECKING:
    from ..core.analyze.image_quality import Thresholds


def thresholds(settings: list[str]) -> Thresholds:
    """The image-quality thresholds with the ``NAME=VALUE`` settings applied."""
    from ..core.analyze.image_quality import Thresholds

    limits = Thresholds()
    names = {f.name for f in fields(Thresholds)}
    for setting in settings:
        name, _, value = setting.partition("=")
        if name not in names:
            raise UsageError(
                f"--quality {setting}: no threshold {name!r}; one of {', '.join(names)}"
            )
        try:
            number = int(value) if name == "near_bits" else float(value)
        except ValueError:
            raise UsageError(f"--quality {setting}: {value!r} is not a number") from None
        limits = replace(limits, **{name: number})  # type: ignore[arg-type]
    return limits


@dataclass(frozen=True)
class CheckRequest:
    """What ``check`` was asked: the inputs, what the checks take (``check_options``:
    the label map, the image-quality limits and the schema, each read and checked), the
    severity that fails the run, how the findings are printed, where split work runs."""

    paths: tuple[str, ...]
    check_options: CheckOptions = field(default_factory=CheckOptions)
    fail_on: str = "warning"
    verbose: bool = False
    as_json: bool = False
    runs: Runs = field(default_factory=Runs)
    junit: str | None = None  # a JUnit XML report written there too
    html: str | None = None  # an HTML report written there too
    overwrite: bool = False  # the report may replace a file

    @classmethod
    def of(cls, args: argparse.Namespace) -> CheckRequest:
        from ..core.analyze.anomalies import load as load_schema
        from ..core.analyze.label_map import read_label_map

        label_map = read_label_map(args.label_map) if args.label_map else None
        schema = load_schema(args.schema) if args.schema else None
        limits = thresholds(args.quality)
        options = CheckOptions(label_map, limits, schema, prediction_check(args))
        return cls(
            tuple(args.paths),
            options,
            args.fail_on,
            args.verbose,
            args.json,
            Runs.of(args),
            junit=args.junit,
            html=args.html,
            overwrite=args.overwrite,
        )
