"""``check --junit FILE``: JUnit XML a CI system reads: a test case per kind of check,
failed where the check found something at ``--fail-on`` or worse, each finding with its
record; written like every output (never over an existing file without --overwrite)."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

from tests.planted_faults import planted_dataset
from tfr_viewer.core.analyze.findings import KINDS, at_least


def _check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "check", *args], capture_output=True, text=True
    )


def test_the_junit_report_has_a_case_per_kind_and_fails_the_severe_ones(tmp_path):
    path = tmp_path / "faulty.tfrecord"
    planted = planted_dataset(path)
    report = tmp_path / "report" / "junit.xml"
    done = _check(str(path), "--json", "--junit", str(report))
    assert done.returncode == 1, done.stderr
    findings = json.loads(done.stdout)["findings"]
    suite = ET.parse(report).getroot()
    assert suite.tag == "testsuite" and int(suite.get("tests")) == len(KINDS)
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert set(cases) == set(KINDS)
    severe = {f["kind"] for f in findings if at_least(f["severity"], "warning")}
    failed = {name for name, case in cases.items() if case.find("failure") is not None}
    assert failed == severe and int(suite.get("failures")) == len(severe)
    for kind, record in planted:
        case = cases[kind]
        text = (case.findtext("failure") or "") + (case.findtext("system-out") or "")
        assert f"record {record} " in text, (kind, record)
    assert cases["image_blurry"].find("failure") is None  # info: listed, not failed
    again = _check(str(path), "--junit", str(report))
    assert again.returncode == 2 and "--overwrite" in again.stderr
    errors_only = _check(str(path), "--junit", str(report), "--overwrite", "--fail-on", "error")
    assert errors_only.returncode == 1
    failed = {
        c.get("name")
        for c in ET.parse(report).getroot().iter("testcase")
        if c.find("failure") is not None
    }
    assert failed == {f["kind"] for f in findings if f["severity"] == "error"}
    into_source = _check(str(path), "--junit", str(path), "--overwrite")
    assert into_source.returncode == 2 and path.stat().st_size > 0
