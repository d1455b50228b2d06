"""The command contract: JSON fields and exit codes of info, verify and list."""

from __future__ import annotations

import json
from importlib import metadata

import pytest

from tests.program import program
from tests.tf_oracle import tf_write
from tfr_viewer import __version__
from tfr_viewer.cli import main
from tfr_viewer.core.io.framing import encode_frame


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def good(tmp_path):
    return tf_write(tmp_path / "good.tfrecord", [f"r{i}".encode() for i in range(10)])


@pytest.fixture
def damaged(tmp_path):
    fs = [encode_frame(f"record-{i}".encode()) for i in range(6)]
    bad = bytearray(fs[2])
    bad[14] ^= 1
    fs[2] = bytes(bad)
    blob = b"".join(fs[:4]) + b"JUNK" * 5 + b"".join(fs[4:])
    path = tmp_path / "bad.tfrecord"
    path.write_bytes(blob)
    return path, sum(map(len, fs[:2])), sum(map(len, fs[:4]))


def test_info_json(capsys, good, tmp_path):
    gz = tf_write(tmp_path / "g.tfrecord", [b"x"] * 3, "gzip")
    code, out, _ = run(capsys, "info", "--json", str(good), str(gz))
    assert code == 0
    info = json.loads(out)
    assert info["records"] == 13 and info["problems"] == 0
    first, second = info["files"]
    assert first == {
        **first,
        "path": str(good),
        "compression": "none",
        "records": 10,
        "bytes": good.stat().st_size,
        "problems": 0,
    }
    assert second["compression"] == "gzip" and second["records"] == 3


def test_list_and_count_warn_about_empty_files_their_scan_finds(capsys, tmp_path, good):
    empty = tmp_path / "empty.tfrecord"
    empty.write_bytes(b"")
    for argv in (["list"], ["count"], ["count", "--filter", "length > 0"]):
        code, out, err = run(capsys, *argv, str(empty), str(good))
        assert code == 0 and out.strip(), argv
        assert err == f"warning: {empty}: is empty (0 records)\n", argv


def test_every_command_says_when_a_file_is_not_a_tfrecord(capsys, tmp_path, good):
    """Named beside a good file or alone, a file that is not a TFRecord is refused by
    every command in one line that names it, exit 2, nothing written."""
    notes = tmp_path / "notes.txt"
    notes.write_text("a shopping list, not records\n")
    reason = f"{notes}: not a TFRecord file"
    out_file = tmp_path / "out.tfrecord"
    for argv in (
        ["list"],
        ["count"],
        ["count", "--json"],
        ["head", "-n", "20"],
        ["stats"],
        ["count", "--filter", "length > 0"],
        ["index"],
        ["compare", str(good), "--against"],
        ["export", "-o", str(out_file)],
    ):
        code, out, err = run(capsys, *argv, str(good), str(notes))
        assert code == 2, (argv, out, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and reason in lines[0], (argv, err)
        assert not out_file.exists()
    for argv in (["show", "0"], ["schema"]):
        code, out, err = run(capsys, *argv, str(notes))
        assert code == 2 and out == "", argv
        assert reason in err, (argv, err)


def test_info_and_verify_give_a_file_that_is_not_a_tfrecord_once(capsys, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("a shopping list, not records\n")
    for argv in (["info"], ["verify"]):
        got, out, err = run(capsys, *argv, str(notes))
        assert got == 2 and (out + err).count("not a TFRecord file") == 1, (argv, out, err)


def test_info_reports_an_empty_file(capsys, tmp_path):
    empty = tmp_path / "empty.tfrecord"
    empty.write_bytes(b"")
    code, out, _ = run(capsys, "info", "--json", str(empty))
    assert code == 0
    info = json.loads(out)
    assert info["files"][0]["records"] == 0 and info["files"][0]["empty"] is True
    assert any("is empty" in w for w in info["warnings"])


def test_verify_exit_codes_and_problems(capsys, good, damaged):
    path, bad_offset, junk_offset = damaged
    assert run(capsys, "verify", str(good))[0] == 0
    code, out, _ = run(capsys, "verify", "--json", str(good), str(path))
    assert code == 1
    report = json.loads(out)
    assert report["records"] == 16
    problems = [(p["file"], p["record"], p["offset"], p["kind"]) for p in report["problems"]]
    assert problems == [
        (str(path), 12, bad_offset, "bad_data_crc"),
        (str(path), 14, junk_offset, "garbage"),
    ]
    assert all(str(path) in p["message"] for p in report["problems"])


def test_verify_text_names_file_record_and_offset(capsys, damaged):
    path, bad_offset, _ = damaged
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 1
    assert f"record 2 at byte {bad_offset}" in out
    assert "2 problems" in out


def test_usage_errors_exit_2(capsys, tmp_path):
    code, _, err = run(capsys, "verify", str(tmp_path / "missing.tfrecord"))
    assert code == 2 and "no such file" in err
    assert run(capsys, "verify")[0] == 2
    assert run(capsys, "list", "--limit", "-1", str(tmp_path))[0] == 2
    code, _, err = run(capsys, "frobnicate")
    assert code == 2 and "neither a command nor a path" in err


def test_list_json_lines(capsys, good, damaged):
    path, bad_offset, _ = damaged
    code, out, _ = run(capsys, "list", "--json", str(good), str(path))
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["index"] for r in rows] == list(range(16))
    assert rows[0] == {"index": 0, "file": str(good), "offset": 0, "length": 2, "status": "ok"}
    assert rows[12] == {
        "index": 12,
        "file": str(path),
        "offset": bad_offset,
        "length": len(b"record-2"),
        "status": "bad_data_crc",
    }


def test_list_limit_stops_early(capsys, good):
    code, out, _ = run(capsys, "list", "--limit", "3", str(good))
    assert code == 0
    assert [line.split("\t")[0] for line in out.splitlines()] == ["0", "1", "2"]


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"tfr-viewer {__version__}"
    assert f"protobuf {metadata.version('protobuf')}" in out


def test_show_contract_fields(capsys, good):
    code, out, _ = run(capsys, "show", "3", "--json", str(good))
    assert code == 0
    record = json.loads(out)
    assert {k: record[k] for k in ("index", "file", "offset", "length", "status", "type")} == {
        "index": 3,
        "file": str(good),
        "offset": 3 * 18,
        "length": 2,
        "status": "ok",
        "type": "text",
    }
    assert record["text"] == "r3"


def test_show_out_of_range_and_damaged(capsys, good, damaged):
    code, _, err = run(capsys, "show", "10", str(good))
    assert code == 2 and "does not exist" in err
    path, bad_offset, _ = damaged
    code, out, _ = run(capsys, "show", "2", "--json", str(path))
    record = json.loads(out)
    assert (code, record["status"], record["offset"]) == (0, "bad_data_crc", bad_offset)


def test_list_filter(capsys, good, damaged):
    path, _, _ = damaged
    code, out, _ = run(
        capsys, "list", "--json", "--filter", 'status != "ok" or index < 2', str(good), str(path)
    )
    assert code == 0
    assert [json.loads(line)["index"] for line in out.splitlines()] == [0, 1, 12]
    code, _, err = run(capsys, "list", "--filter", "label ==", str(good))
    assert code == 2 and "filter error at column" in err


def test_every_user_error_is_one_family():
    """The command line catches one class: every error a user can cause derives from it,
    whichever module raised it and whether or not another module was imported first."""
    import importlib

    from tfr_viewer.core.user_error import UserError
    from tfr_viewer.errors import UsageError

    user_errors = (
        ("tfr_viewer.core.io.paths", "PathError"),
        ("tfr_viewer.core.io.source_errors", "SourceError"),
        ("tfr_viewer.core.io.source_errors", "RemoteError"),
        ("tfr_viewer.core.io.source_errors", "FileChanged"),
        ("tfr_viewer.core.query.language", "QueryError"),
        ("tfr_viewer.core.write.output", "ExportError"),
        ("tfr_viewer.core.analyze.label_map", "LabelMapError"),
        ("tfr_viewer.core.analyze.anomalies", "SchemaError"),
        ("tfr_viewer.core.write.convert_sources", "SourceError"),
        ("tfr_viewer.core.write.webdataset", "WebDatasetError"),
        ("tfr_viewer.core.write.parquet", "ParquetError"),
    )
    assert issubclass(UsageError, UserError)
    for module, name in user_errors:
        assert issubclass(getattr(importlib.import_module(module), name), UserError), name


def test_count_with_a_filter_imports_no_decoder_image_library_or_qt(tmp_path):
    """The compiled extractor needs no decoder; the pure-Python path decodes with upb,
    but neither loads an image library or Qt."""
    import subprocess
    import sys

    from tfr_viewer.core import fast
    from tfr_viewer.core.io import write_records
    from tfr_viewer.core.write.build import build_example

    path = tmp_path / "a.tfrecord"
    write_records(path, [build_example({"label": i}) for i in range(5)])
    code = (
        "import sys, tfr_viewer.cli as c\n"
        f"assert c.main(['count', '--filter', 'label >= 3', {str(path)!r}]) == 0\n"
        "print(sorted(m for m in sys.modules if m.startswith("
        "('PIL', 'PySide6', 'tfr_viewer.core.decode'))))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    count, loaded = run.stdout.splitlines()
    assert count == "2"
    if fast.available():
        assert loaded == "[]"
    else:
        assert "PIL" not in loaded and "PySide6" not in loaded
        assert "'tfr_viewer.core.decode.payloads.example'" in loaded


# Python's standard streams buffered, as they are by default (some shells set it)
BUFFERED = ("PYTHONUNBUFFERED",)


def test_the_program_ends_with_every_line_written_and_the_commands_exit_code(tmp_path, damaged):
    """The program ends without tearing the interpreter down: what the command printed
    into a file (block-buffered, unlike a terminal) is all there, and the exit code is
    the command's."""
    path = tf_write(tmp_path / "many.tfrecord", [b"%d" % i for i in range(20_000)], "gzip")
    with open(tmp_path / "listed.txt", "w") as out:
        listed = program("list", str(path), stdout=out, drop=BUFFERED)
    assert listed.returncode == 0, listed.stderr
    lines = (tmp_path / "listed.txt").read_text().splitlines()
    assert len(lines) == 20_000 and lines[-1].startswith("19999\t")
    verified = program("verify", str(damaged[0]), drop=BUFFERED)
    assert verified.returncode == 1
    assert verified.stdout.splitlines()[-1] == "6 records in 1 file: 2 problems", verified.stdout
    missing = program("verify", str(tmp_path / "missing.tfrecord"), drop=BUFFERED)
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr.startswith("tfr-viewer verify: "), missing.stderr


def test_the_program_runs_the_exit_handlers_before_it_ends(tmp_path):
    """Handlers registered with :mod:`atexit` (a coverage run's, a library's) still run."""
    import os
    import subprocess
    import sys

    good = tf_write(tmp_path / "good.tfrecord", [b"x"] * 3)
    mark = tmp_path / "ran"
    code = (
        "import atexit, pathlib, sys\n"
        f"atexit.register(pathlib.Path({str(mark)!r}).write_text, 'yes')\n"
        "sys.argv = ['tfr-viewer', 'count', sys.argv[1]]\n"
        "from tfr_viewer.cli import run\n"
        "run()\n"
    )
    buffered = {k: v for k, v in os.environ.items() if k not in BUFFERED}
    ran = subprocess.run(
        [sys.executable, "-c", code, str(good)], capture_output=True, text=True, env=buffered
    )
    assert ran.returncode == 0 and ran.stdout == "3\n", ran.stderr
    assert mark.read_text() == "yes"
