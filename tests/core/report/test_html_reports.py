"""The HTML reports of check, stats and compare: one file each, nothing fetched from the
network (every picture and chart a ``data:`` URL), opened in a headless Chromium that
is refused any network and that shows every picture; the findings with their records
and offsets; whatever a record holds, escaped."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.planted_faults import example_of, planted_dataset
from tests.planted_labels import _png
from tests.program import program
from tests.tf_oracle import tf_write

REQUIRED = os.environ.get("TFR_VIEWER_REQUIRE_DESKTOP_TOOLS") == "1"
SAMPLE = Path(__file__).resolve().parents[3] / "resources" / "samples" / "shapes_odapi.tfrecord"


def _run(*args: str, **env: str) -> subprocess.CompletedProcess:
    return program(*args, env=env)


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if REQUIRED:
            pytest.fail("chromium is missing (apt: chromium)")
        pytest.skip("chromium is missing: the reports cannot be opened in a browser")
    return found


def _opened(path: Path, tmp_path: Path) -> tuple[str, Path]:
    """The report's DOM once loaded in a headless Chromium with no network, and a
    screenshot of it."""
    browser = _chromium()
    shot = tmp_path / f"{path.stem}.png"
    common = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--proxy-server=127.0.0.1:9",  # nothing listens: any fetch fails
        "--host-resolver-rules=MAP * ~NOTFOUND",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--virtual-time-budget=5000",
    ]
    dom = subprocess.run(
        [*common, "--dump-dom", path.as_uri()], capture_output=True, text=True, timeout=120
    )
    subprocess.run(
        [*common, "--window-size=1200,1600", f"--screenshot={shot}", path.as_uri()],
        capture_output=True,
        timeout=120,
    )
    return dom.stdout, shot


def _self_contained(text: str) -> int:
    """The number of pictures, each checked to be inline; no address is fetched."""
    sources = re.findall(r'<img src="([^"]*)"', text)
    assert all(s.startswith("data:image/png;base64,") for s in sources)
    assert not re.search(r'(src|href)="(https?:)?//', text)
    assert "@import" not in text and "url(" not in text
    return len(sources)


def test_the_check_report_shows_the_findings_with_their_pictures(tmp_path):
    path = tmp_path / "faulty.tfrecord"
    planted = planted_dataset(path)
    report = tmp_path / "check.html"
    done = _run("check", str(path), "--json", "--html", str(report))
    assert done.returncode == 1, done.stderr
    findings = json.loads(done.stdout)["findings"]
    text = report.read_text()
    pictures = _self_contained(text)
    assert pictures > 5
    for f in findings:
        if f["record"] is not None and f["offset"] is not None:
            assert f"<td>{f['offset']:,}</td>" in text
    for kind, _record in planted:
        assert f'id="{kind}"' in text
    dom, shot = _opened(report, tmp_path)
    assert f'data-pictures="{pictures} shown, 0 broken"' in dom
    _not_blank(shot)


def test_the_stats_and_compare_reports_draw_their_charts(tmp_path):
    stats = tmp_path / "stats.html"
    assert _run("stats", str(SAMPLE), "--html", str(stats)).returncode == 0
    charts = _self_contained(stats.read_text())
    assert charts >= 20  # a chart or more for each feature, the classes, the boxes
    dom, shot = _opened(stats, tmp_path)
    assert f'data-pictures="{charts} shown, 0 broken"' in dom
    _not_blank(shot)
    compared = tmp_path / "compare.html"
    shards = str(SAMPLE.parent / "shapes_gzip.tfrecord-*")
    done = _run("compare", shards, "--against", str(SAMPLE), "--html", str(compared))
    assert done.returncode == 1  # drift past the threshold, as the report says
    text = compared.read_text()
    assert "exceeds" in text and _self_contained(text) == 1  # the classes side by side
    dom, _ = _opened(compared, tmp_path)
    assert 'data-pictures="1 shown, 0 broken"' in dom


def _not_blank(shot: Path) -> None:
    from PIL import Image

    pixels = Image.open(shot).convert("L")
    low, high = pixels.getextrema()
    assert high - low > 100  # text and pictures on the page, not an empty white one


def test_what_a_record_holds_is_escaped_in_the_report(tmp_path):
    hostile = {
        "<script>alert(1)</script>": [b"x"],
        "image/encoded": [_png(3)],
        "label": [0],
    }
    other = {**hostile, "<script>alert(1)</script>": [7]}  # a kind conflict names the key
    path = tf_write(tmp_path / "hostile.tfrecord", [example_of(hostile), example_of(other)])
    for command in ("check", "stats"):
        report = tmp_path / f"{command}.html"
        done = _run(command, str(path), "--html", str(report))
        assert done.returncode in (0, 1), done.stderr
        text = report.read_text()
        assert text.count("<script>") == 1 and "&lt;script&gt;alert(1)" in text


def test_reports_are_outputs_and_need_their_extra(tmp_path):
    report = tmp_path / "r.html"
    report.write_text("mine")
    done = _run("stats", str(SAMPLE), "--html", str(report))
    assert done.returncode == 2 and "--overwrite" in done.stderr and report.read_text() == "mine"
    into = _run("check", str(SAMPLE), "--html", str(SAMPLE), "--overwrite")
    assert into.returncode == 2 and SAMPLE.stat().st_size > 0
    blocked = tmp_path / "blocked" / "matplotlib"
    blocked.mkdir(parents=True)
    (blocked / "__init__.py").write_text("raise ImportError('not here')\n")
    done = _run(
        "stats", str(SAMPLE), "--html", str(tmp_path / "s.html"), PYTHONPATH=str(blocked.parent)
    )
    assert done.returncode == 2 and "tfr-viewer[report]" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "s.html").exists()
    report = str(tmp_path / "c.html")
    checked = _run("check", str(SAMPLE), "--html", report, PYTHONPATH=str(blocked.parent))
    assert checked.returncode == 0 and (tmp_path / "c.html").exists()  # no chart to draw


def test_a_name_that_is_not_utf8_makes_a_valid_report(tmp_path):
    odd = os.fsdecode(os.fsencode(str(tmp_path)) + b"/shapes-\xff.tfrecord")
    shutil.copy(SAMPLE, odd)
    for command in ("check", "stats"):
        report = tmp_path / f"{command}.html"
        done = _run(command, odd, "--html", str(report))
        assert done.returncode == 0, done.stderr
        text = report.read_bytes().decode("utf-8")  # valid UTF-8
        assert "shapes-\ufffd.tfrecord" in text


@pytest.mark.parametrize("text", ["$x^2$", "$", "cost $5 and $6", r"$\frac{1}{0$"])
def test_a_dollar_in_a_class_text_or_a_value_is_plain_text(tmp_path, text):
    """matplotlib reads "$…$" as a formula (and fails on a broken one): texts from the
    data go to the charts as written, in stats and compare."""
    records = [
        example_of({"image/object/class/text": [text.encode()], "tag": [text.encode()]})
        for _ in range(4)
    ]
    data = tf_write(tmp_path / "dollars.tfrecord", records)
    for args in (("stats", str(data)), ("compare", str(data), "--against", str(data))):
        out = tmp_path / f"{args[0]}.html"
        done = _run(*args, "--html", str(out), "--overwrite")
        assert done.returncode in (0, 1), done.stderr
        assert "Traceback" not in done.stderr and out.stat().st_size > 1000


def test_a_thousand_features_are_reported_with_charts_for_the_first_hundred(tmp_path):
    from tfr_viewer.core.report.stats_report import CHARTED

    record = example_of({f"f{i:04d}": [float(i), float(i) + 0.5] for i in range(1000)})
    data = tf_write(tmp_path / "wide.tfrecord", [record] * 3)
    out = tmp_path / "stats.html"
    done = _run("stats", str(data), "--html", str(out))
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert f"Charts for the first {CHARTED} of 1,000 features" in text
    assert text.count("<h3>") >= 1000 and text.count("<img") <= 3 * CHARTED + 10
