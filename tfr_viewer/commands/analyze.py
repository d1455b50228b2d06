"""``stats``: the data-QA figures of a dataset."""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from typing import TYPE_CHECKING, Any

from ..cli_options import CommandSpec, Runs, add_html, add_overwrite, add_paths, add_runs
from ..core import json_text
from ..core.analyze.key_kinds import kinds_warning
from ..core.io import Dataset
from ..core.text import number_text as num, plural
from ..errors import UsageError
from .check_request import CheckRequest
from .prediction_options import prediction_arguments
from .progress import COMMAND_LINE, index_with_progress, print_warnings

if TYPE_CHECKING:
    from ..app.check import CheckReport
    from ..app.stats import StatsReport

from .reports import (
    refuse_early,
    require_charts,
    write_report,
)


def _feature_line(key: str, f: dict[str, Any], width: int, kinds: int = 5) -> str:
    counts = f["value_counts"]
    span = (
        f"{counts['min']:.0f}"
        if counts["min"] == counts["max"]
        else f"{num(counts['min'])}-{num(counts['max'])}"
    )
    head = f"{key:<{width}}  {f['kind']:<{kinds}}  {100 * f['presence']:5.1f}%  {span:>9}  "
    if "images" in f:
        img = f["images"]
        fmts = ", ".join(f"{k} {v}" for k, v in img["formats"].items())
        w, h = img["width"], img["height"]
        size = f"{num(w['min'])}-{num(w['max'])} × {num(h['min'])}-{num(h['max'])}"
        bad = f", {img['undecodable']} undecodable" if img["undecodable"] else ""
        return head + f"images: {fmts}; {size} px{bad}"
    if "numeric" in f:
        n = f["numeric"]
        extra = "".join(f", {n[k]} {k}" for k in ("nan", "inf") if n[k])
        return head + (
            f"min {num(n['min'])}  mean {num(n['mean'])}  max {num(n['max'])}"
            f"  std {num(n['std'])}{extra}"
        )
    if "bytes" in f:
        b = f["bytes"]
        top = ", ".join(f"{t!r} {n}" for t, n in b["top"][:4])
        return head + f"~{b['distinct']} distinct" + (f"; {top}" if top else "")
    return head


def print_stats(out: dict[str, Any]) -> None:
    """The human-readable report of :meth:`Stats.to_json`."""
    damaged = f", {plural(out['damaged'], 'damaged record')} skipped" if out["damaged"] else ""
    others = out["other_payloads"]
    read_as = out.get("message")
    unread = f"the type does not parse as {read_as}" if read_as else "with no Example features"
    other = f", {plural(others, 'record')} {unread}" if others else ""
    print(f"{plural(out['records'], 'record')} in {plural(out['files'], 'file')}{damaged}{other}")
    if read_as:
        print(f"read as {read_as}")
    features = out["features"]
    if features:
        width = max(len(k) for k in features)
        kinds = max(5, *(len(f["kind"]) for f in features.values()))
        print(
            f"{'key' if not read_as else 'path':<{width}}  {'kind':<{kinds}}  present  values/rec"
        )
        for key, f in features.items():
            print(_feature_line(key, f, width, kinds))
        for key, f in features.items():
            if warning := kinds_warning(key, f.get("kinds", {})):
                print(f"note: {warning}")
    for name in ("classes", "object_classes"):
        if name in out:
            rows = out[name]["classes"]
            shown = ", ".join(
                f"{c['id']}{' ' + c['text'] if c['text'] else ''}: {c['count']}" for c in rows[:30]
            )
            print(f"{name.replace('_', ' ')} ({out[name]['key']}): {shown}")
    if "boxes" in out:
        per, area = out["boxes"]["per_image"], out["boxes"]["area"]
        print(
            f"boxes: {num(per['mean'])} per image (max {num(per['max'])}), "
            f"area median {num(area['quantiles'].get('0.5'))}"
        )


def _statistics(ds: Dataset, runs: Runs) -> StatsReport:
    """Index ``ds`` and compute its statistics (classes named as its folder names
    them), here, on processes or (``--runner``) on Apache Beam."""
    from ..app.stats import named_report, statistics

    runs.asked()
    # a header-only index: the payload CRCs are checked as the payloads are read
    index_with_progress(ds, verify=False)
    print_warnings(ds, runs.quiet)
    if runs.runner:
        from ..beam.commands import stats_on_beam

        return named_report(ds, stats_on_beam(ds, runs.runner, list(runs.pipeline_args)))
    return statistics(ds, COMMAND_LINE, jobs=runs.for_dataset(ds))


def _named(ds: Dataset) -> str:
    """The dataset as a report's title names it: its file, or its first and a count."""
    names = [os.path.basename(f.path) for f in ds.files]
    return names[0] if len(names) == 1 else f"{names[0]} and {len(names) - 1:,} more files"


def cmd_stats(args: argparse.Namespace) -> int:
    """Statistics of every feature, the classes and the boxes."""

    if args.html:
        require_charts()
    with Dataset.open(args.paths) as ds:
        inputs = [f.path for f in ds.files]
        if args.html:
            refuse_early([args.html], inputs, args.overwrite)
        out = _statistics(ds, Runs.of(args)).to_json()
        if args.html:
            from ..core.report.stats_report import stats_html

            text = stats_html(out, "Statistics: " + _named(ds))
            write_report(args.html, text, inputs, args.overwrite)
        if args.json:
            json_text.dump(out, sys.stdout, indent=2)
            sys.stdout.write("\n")
        else:
            print_stats(out)
    return 0


FIRST = 5  # findings of one kind listed in the text output (all with --verbose)


def _finding_line(f: dict[str, Any]) -> str:
    where = "dataset" if f["record"] is None and f["file"] is None else ""
    if f["record"] is not None:
        where = f"record {f['record']} ({os.path.basename(f['file'])} @{f['offset']:,})"
    elif f["file"] is not None:
        where = os.path.basename(f["file"]) + (f" @{f['offset']:,}" if f["offset"] else "")
    feature = f" [{f['feature']}]" if f["feature"] else ""
    return f"{where}{feature}: {f['message']}"


def print_findings(findings: list[dict[str, Any]], fail_on: str, verbose: bool) -> None:
    """The findings grouped by kind, most severe first: a head line per kind (severity,
    kind, count), its first :data:`FIRST` findings and its hint once. Kinds below
    ``fail_on`` are counted in one line unless ``verbose``, which also lists every
    finding."""
    from ..core.analyze.findings import KINDS, at_least

    groups: dict[str, list[dict[str, Any]]] = {}
    for f in findings:
        groups.setdefault(f["kind"], []).append(f)
    hidden: Counter[str] = Counter()
    for kind, group in groups.items():
        severity = group[0]["severity"]
        if not verbose and not at_least(severity, fail_on):
            hidden[severity] += len(group)
            continue
        print(f"{severity:<7}  {kind}: {plural(len(group), 'finding')}")
        shown = group if verbose else group[:FIRST]
        for f in shown:
            print(f"  {_finding_line(f)}")
        if len(group) > len(shown):
            print(f"  … and {len(group) - len(shown):,} more (--verbose lists them, --json too)")
        print(f"  what to do: {KINDS[kind][1]}")
    if hidden:
        counts = ", ".join(plural(n, s) for s, n in hidden.items())
        print(f"not shown, below --fail-on {fail_on}: {counts} (--verbose shows them)")


def _checked(ds: Dataset, request: CheckRequest) -> CheckReport:
    """Index ``ds`` and check it: here, on processes, or (``--runner``) on Beam."""
    from ..app.check import CheckReport, check, settled

    runs = request.runs
    runs.asked()
    # a header-only index: the payload CRCs are checked as the payloads are read
    index_with_progress(ds, verify=False)
    print_warnings(ds, request.as_json)
    if runs.runner:
        from ..beam.commands import check_on_beam

        options = settled(ds, request.check_options).keywords()
        found = check_on_beam(ds, runs.runner, list(runs.pipeline_args), **options)
        return CheckReport(len(ds), len(ds.files), tuple(found), request.fail_on)
    jobs = runs.for_dataset(ds)
    return check(ds, request.check_options, COMMAND_LINE, jobs=jobs, fail_on=request.fail_on)


def cmd_check(args: argparse.Namespace) -> int:
    """Data-quality findings; exit 1 when one is at least ``--fail-on`` severe."""
    return run_check(CheckRequest.of(args))


def run_check(request: CheckRequest) -> int:
    """``check`` as ``request`` asks (its arguments checked already)."""
    from ..core.analyze.findings import SEVERITIES
    from ..core.analyze.junit import junit_xml
    from ..core.report.check_report import check_html

    fail_on = request.fail_on  # (the check report draws no chart: matplotlib not needed)
    with Dataset.open(list(request.paths)) as ds:
        inputs = [f.path for f in ds.files]
        # refused before the checks run, and again when written
        if reports := [r for r in (request.junit, request.html) if r]:
            refuse_early(reports, inputs, request.overwrite)
        report = _checked(ds, request)
        findings = [f.to_json() for f in report]
        if request.junit:
            xml = junit_xml(list(report), fail_on, report.records, report.seconds)
            write_report(request.junit, xml, inputs, request.overwrite)
        if request.html:
            meta = {"records": report.records, "files": report.files}
            title = "Data-quality findings: " + _named(ds)
            page = check_html(findings, meta, ds.read, title, inputs)
            write_report(request.html, page, inputs, request.overwrite)
        if request.as_json:
            json_text.dump(report.to_json(), sys.stdout, indent=2)
            sys.stdout.write("\n")
            return 1 if report.failed else 0
        print_findings(findings, fail_on, request.verbose)
        counts = ", ".join(
            plural(n, s) for s, n in report.counts().items() if n and s in SEVERITIES
        )
        verdict = "FAILED" if report.failed else "passed"
        print(
            f"{plural(len(ds), 'record')} in {plural(len(ds.files), 'file')}: "
            f"{counts or 'no findings'}; {verdict} (--fail-on {fail_on})"
        )
    return 1 if report.failed else 0


def infer_schema_file(args: argparse.Namespace) -> int:
    """``schema --infer -o FILE``: the data-QA schema, from the statistics."""
    from ..core.analyze import anomalies

    if not args.output:
        raise UsageError("--infer needs -o FILE: `schema --infer -o SCHEMA.json PATH...`")
    from ..core.write.output import check_target, input_ids

    with Dataset.open(args.paths) as ds:
        inputs = [f.path for f in ds.files]
        # refused before the statistics are computed, and again when written
        check_target(args.output, input_ids(inputs), args.overwrite, role="schema")
        stats = _statistics(ds, Runs()).stats
    schema = anomalies.infer(stats)
    if not schema["features"]:
        raise UsageError("no record is a tf.train.Example with features: no schema to infer")
    from ..core.write.schema_file import save_schema

    save_schema(schema, args.output, inputs, args.overwrite)
    print(
        f"wrote {args.output}: {plural(len(schema['features']), 'feature')} from "
        f"{plural(stats.records, 'record')}; check other data with "
        f"`tfr-viewer check --schema {args.output} PATH...`"
    )
    return 0


def _drift_text(v: float | None) -> str:
    return "-" if v is None else f"{v:.4f}"


def print_comparison(out: dict[str, Any]) -> None:
    """The human-readable report of :func:`..core.analyze.compare.compare`."""
    a, b = out["a"]["records"], out["b"]["records"]
    print(f"A: {plural(a, 'record')}; B: {plural(b, 'record')}; threshold {out['threshold']:g}")
    features = out["features"]
    if features:
        width = max(9, *(len(k) for k in features))
        print(f"{'feature':<{width}}  {'type':<11}  {'L-inf':>7}  {'JS':>7}  presence A / B")
        for key, f in features.items():
            mark = "  EXCEEDS" if key in out["exceeded"] else ""
            print(
                f"{key:<{width}}  {f['type']:<11}  {_drift_text(f['linf']):>7}  "
                f"{_drift_text(f['js']):>7}  {100 * f['presence_a']:.1f}% / "
                f"{100 * f['presence_b']:.1f}%{mark}"
            )
    for side in ("a", "b"):
        only = out[f"only_in_{side}"]
        if only:
            print(f"only in {side.upper()}: {', '.join(only)}")
    classes = out["classes"]
    if classes:
        print(f"{classes['level'].replace('_', ' ')} (A / B):")
        for row in classes["rows"]:
            text = f" {row['text']}" if row["text"] else ""
            print(f"  {row['id']}{text}: {row['a']} / {row['b']}")
    leaks = out["leaks"]
    for kind in ("exact", "near"):
        for leak in leaks[kind]:
            extra = f" ({leak['distance']} bits apart)" if kind == "near" else ""
            print(
                f"leak ({kind}): A record {leak['a']['record']} and B record "
                f"{leak['b']['record']} hold the same image{extra}"
            )
    n_leaks = len(leaks["exact"]) + len(leaks["near"])
    verdict = f"FAILED: {'; '.join(out['reasons'])}" if out["failed"] else "passed"
    print(f"{plural(n_leaks, 'image')} in both; {verdict}")


def cmd_compare(args: argparse.Namespace) -> int:
    """Drift and leakage between two datasets; exit 1 when a feature's drift exceeds
    ``--threshold``, when images are in both (unless ``--allow-leaks``), or when the
    datasets share no feature."""
    from ..app.compare import comparison

    if not args.threshold >= 0:
        raise UsageError("--threshold must be 0 or more")
    if args.html:
        require_charts()
    with Dataset.open(args.paths) as da, Dataset.open(args.against) as db:
        inputs = [f.path for f in da.files] + [f.path for f in db.files]
        if args.html:
            refuse_early([args.html], inputs, args.overwrite)
        index_with_progress(da, verify=True)
        index_with_progress(db, verify=True)
        shown = print_warnings(da, args.json)
        print_warnings(db, args.json, shown)
        report = comparison(
            da, db, COMMAND_LINE, threshold=args.threshold, allow_leaks=args.allow_leaks
        )
        out = report.to_json()
        if args.html:
            from ..core.report.compare_report import compare_html

            title = f"Comparison: {_named(da)} against {_named(db)}"
            text = compare_html(out, title)
            write_report(args.html, text, inputs, args.overwrite)
    if args.json:
        json_text.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print_comparison(out)
    return 1 if out["failed"] else 0


# -- arguments -----------------------------------------------------------------


def stats_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p)
    p.add_argument("--json", action="store_true", help="all figures as JSON")
    add_html(p, "the figures and charts")
    add_overwrite(p)
    add_runs(p)


def check_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p)
    p.add_argument("--json", action="store_true", help="the findings as JSON")
    p.add_argument(
        "--fail-on",
        choices=("error", "warning", "info"),
        default="warning",
        help="exit 1 when a finding is at least this severe (default: warning)",
    )
    p.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="list every finding (by default: each kind once with its first records, and "
        "only kinds at --fail-on or above)",
    )
    p.add_argument("--label-map", metavar="PBTXT", help="class ids must be in this label map")
    p.add_argument(
        "--schema", metavar="FILE", help="report records that break this schema (schema --infer)"
    )
    p.add_argument(
        "--quality",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an image-quality threshold: dark, light, odd_aspect_ratio, low_information, "
        "blurry, odd_size_iqr or near_bits (docs/data-quality.md)",
    )
    prediction_arguments(p)
    p.add_argument(
        "--junit",
        metavar="FILE",
        help="also write the findings as JUnit XML for CI systems: a test case per kind "
        "of check, failed at --fail-on",
    )
    add_html(p, "the findings, grouped by kind, with the records' pictures")
    add_overwrite(p)
    add_runs(p)


def compare_arguments(p: argparse.ArgumentParser) -> None:
    add_paths(p)
    p.add_argument(
        "--against", nargs="+", required=True, metavar="PATH", help="the dataset to compare with"
    )
    p.add_argument(
        "--threshold",
        type=float,
        default=0.1,
        metavar="T",
        help="exit 1 when a feature's drift exceeds T (default 0.1)",
    )
    p.add_argument(
        "--allow-leaks",
        action="store_true",
        help="pass although images are in both datasets (leakage fails by default)",
    )
    p.add_argument("--json", action="store_true", help="all figures as JSON")
    add_html(p, "the drift, the classes side by side and the images in both")
    add_overwrite(p)


COMMANDS = {
    "stats": CommandSpec(stats_arguments, cmd_stats, runs=True),
    "check": CommandSpec(check_arguments, cmd_check, runs=True),
    "compare": CommandSpec(compare_arguments, cmd_compare),
}
