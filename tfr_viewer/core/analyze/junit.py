"""``check --junit FILE``: the findings as JUnit XML, the report CI systems read. One
test suite; one test case per kind of check, failed when it found something at least
as severe as ``--fail-on`` (each finding a line of the failure), passed otherwise (the
less severe findings in its output)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable

from .findings import KINDS, Finding, at_least


def _line(f: Finding) -> str:
    where = f"record {f.record}" if f.record is not None else "dataset"
    if f.file is not None:
        where += f" ({f.file}" + (f" @{f.offset}" if f.offset is not None else "") + ")"
    feature = f" [{f.feature}]" if f.feature else ""
    return f"{f.severity} {where}{feature}: {f.message}"


def junit_xml(findings: Iterable[Finding], fail_on: str, records: int, seconds: float) -> bytes:
    """The JUnit document of a check of ``records`` records that took ``seconds``."""
    by_kind: dict[str, list[Finding]] = {kind: [] for kind in KINDS}
    for f in findings:
        by_kind.setdefault(f.kind, []).append(f)
    failed = [
        k for k, found in by_kind.items() if any(at_least(f.severity, fail_on) for f in found)
    ]
    suite = ET.Element(
        "testsuite",
        name="tfr-viewer check",
        tests=str(len(by_kind)),
        failures=str(len(failed)),
        errors="0",
        skipped="0",
        time=f"{seconds:.3f}",
    )
    ET.SubElement(
        ET.SubElement(suite, "properties"), "property", name="records", value=str(records)
    )
    for kind, found in by_kind.items():
        case = ET.SubElement(suite, "testcase", classname="tfr-viewer.check", name=kind, time="0")
        severe = [f for f in found if at_least(f.severity, fail_on)]
        if severe:
            failure = ET.SubElement(
                case,
                "failure",
                message=f"{len(severe)} {kind} finding{'s' if len(severe) != 1 else ''}",
                type=severe[0].severity,
            )
            failure.text = "\n".join(_line(f) for f in severe) + f"\nwhat to do: {KINDS[kind][1]}"
        milder = [f for f in found if not at_least(f.severity, fail_on)]
        if milder:
            ET.SubElement(case, "system-out").text = "\n".join(_line(f) for f in milder)
    ET.indent(suite)
    result: bytes = ET.tostring(suite, encoding="utf-8", xml_declaration=True) + b"\n"
    return result
