"""Every command that writes, against every way of naming a source as its output, and
the other attacks on outputs: device nodes and FIFOs, folders, label maps that must
survive, colliding shard names, names made from data, huge shard counts."""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tf_oracle import tf_read
from tfr_viewer.cli import main
from tfr_viewer.core.write import build_example
from tfr_viewer.core.write.output import TMP_SUFFIX

SAMPLES = Path(__file__).resolve().parents[2] / "resources" / "samples"

# each writer as a command line: (source, output) -> argv
WRITERS = {
    "export": lambda s, o: ["export", s, "-o", o, "--overwrite"],
    "export --filter": lambda s, o: ["export", s, "-o", o, "--filter", "label == 1", "--overwrite"],
    "export jsonl": lambda s, o: ["export", s, "-o", o, "--format", "jsonl", "--overwrite"],
    "export csv": lambda s, o: ["export", s, "-o", o, "--format", "csv", "--overwrite"],
    "export parquet": lambda s, o: ["export", s, "-o", o, "--format", "parquet", "--overwrite"],
    "export webdataset": lambda s, o: [
        "export",
        s,
        "-o",
        o,
        "--format",
        "webdataset",
        "--overwrite",
    ],
    "export images": lambda s, o: ["export", s, "-o", o, "--format", "images", "--overwrite"],
    "convert --webdataset": lambda s, o: ["convert", s, "-o", o, "--webdataset", "--overwrite"],
    "convert --images": lambda s, o: ["convert", s, "-o", o, "--images", "--overwrite"],
    "recover": lambda s, o: ["recover", s, "-o", o, "--overwrite"],
    "schema --infer": lambda s, o: ["schema", "--infer", "-o", o, s, "--overwrite"],
}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _namings(tmp_path: Path, src: Path) -> dict[str, str]:
    """Ways of naming ``src`` other than its own path."""
    (tmp_path / "sub").mkdir(exist_ok=True)
    link = tmp_path / "link.tfrecord"
    hard = tmp_path / "hard.tfrecord"
    if not link.exists():
        os.symlink(src, link)
        os.link(src, hard)
    return {
        "same path": str(src),
        "./ relative": f"./{src.name}",
        "sub/..": str(tmp_path / "sub" / ".." / src.name),
        "symlink": str(link),
        "hard link": str(hard),
    }


def _one_line_refusal(capsys) -> str:  # noqa: ANN001
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line and not line.startswith("warning:")]
    assert "Traceback" not in err
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize("writer", list(WRITERS))
def test_no_writer_replaces_a_source_by_any_name(tmp_path, monkeypatch, capsys, writer):
    src = tmp_path / "src.tfrecord"
    shutil.copy(SAMPLES / "classes_tutorial.tfrecord", src)
    before = _digest(src)
    monkeypatch.chdir(tmp_path)
    for how, out in _namings(tmp_path, src).items():
        code = main(WRITERS[writer](str(src), out))
        line = _one_line_refusal(capsys)
        assert code == 2, (how, line)
        assert "source" in line or "never replaced" in line, (how, line)
        assert _digest(src) == before, how
    assert not [n for n in os.listdir(tmp_path) if n.endswith(TMP_SUFFIX)]


def test_a_bind_mount_of_the_sources_folder_is_caught(tmp_path, capsys):
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a bind mount needs root")
    data, view = tmp_path / "data", tmp_path / "view"
    data.mkdir()
    view.mkdir()
    src = data / "src.tfrecord"
    shutil.copy(SAMPLES / "classes_tutorial.tfrecord", src)
    if subprocess.run(["mount", "--bind", str(data), str(view)], capture_output=True).returncode:
        pytest.skip("bind mounts are not permitted here")
    try:
        before = _digest(src)
        for writer in ("export --filter", "export jsonl", "recover"):
            assert main(WRITERS[writer](str(src), str(view / "src.tfrecord"))) == 2
            assert "source" in _one_line_refusal(capsys)
        assert _digest(src) == before
    finally:
        subprocess.run(["umount", str(view)], check=False)


@pytest.mark.parametrize("kind", ["char device", "fifo", "folder"])
def test_special_files_as_outputs_are_refused_and_kept(tmp_path, capsys, kind):
    src = SAMPLES / "classes_tutorial.tfrecord"
    target = tmp_path / "target"
    if kind == "char device":
        if os.geteuid() != 0:
            pytest.skip("mknod needs root")
        os.mknod(target, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a twin of /dev/null, here
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        target.mkdir()
    mode = os.lstat(target).st_mode
    for writer in ("export", "export jsonl", "recover", "convert --webdataset", "schema --infer"):
        assert main(WRITERS[writer](str(src), str(target))) == 2, writer
        line = _one_line_refusal(capsys)
        assert "--overwrite" not in line and str(target) in line, line
    assert os.lstat(target).st_mode == mode
    assert sorted(os.listdir(tmp_path)) == ["target"]


def test_the_screenshot_never_replaces_the_file_it_shows(tmp_path):
    src = tmp_path / "src.tfrecord"
    shutil.copy(SAMPLES / "classes_tutorial.tfrecord", src)
    before = _digest(src)
    run = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "open", str(src), "--screenshot", str(src)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert run.returncode == 2 and "source" in run.stderr and "Traceback" not in run.stderr
    assert _digest(src) == before


def _labelled_images(tmp_path: Path) -> Path:
    from PIL import Image

    root = tmp_path / "images"
    for name in ("cat", "dog"):
        (root / name).mkdir(parents=True)
        for k in range(2):
            Image.new("RGB", (8, 8), (k * 90, 40, 200 if name == "cat" else 0)).save(
                root / name / f"{k}.png"
            )
    return root


def test_a_label_map_and_labels_txt_survive_a_conversion(tmp_path, capsys):
    root = _labelled_images(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    label_map = out / "label_map.pbtxt"
    label_map.write_text("item {\n  id: 1\n  name: 'cat'\n}\nitem {\n  id: 2\n  name: 'dog'\n}\n")
    kept = label_map.read_text()
    argv = ["convert", str(root), "-o", str(out / "x.tfrecord"), "--label-map", str(label_map)]
    assert main(argv) == 2
    assert "source" in _one_line_refusal(capsys)
    assert main([*argv, "--overwrite"]) == 2  # an input is never replaced
    _one_line_refusal(capsys)
    assert label_map.read_text() == kept and sorted(os.listdir(out)) == ["label_map.pbtxt"]
    other = tmp_path / "other"
    other.mkdir()
    labels = other / "labels.txt"
    labels.write_text("mine\n")
    assert main(["convert", str(root), "-o", str(other / "y.tfrecord")]) == 2
    assert "labels.txt exists already" in _one_line_refusal(capsys)
    assert labels.read_text() == "mine\n" and os.listdir(other) == ["labels.txt"]


def test_shards_that_a_pattern_names_alike_are_refused_before_writing(tmp_path, capsys):
    src = SAMPLES / "classes_tutorial.tfrecord"
    out = tmp_path / "shard%.0s.tar"
    argv = ["convert", str(src), "-o", str(out), "--webdataset", "--shard-records", "1"]
    assert main(argv) == 2
    assert "same name" in _one_line_refusal(capsys)
    assert os.listdir(tmp_path) == []


def test_class_names_from_the_data_cannot_leave_the_folder(tmp_path, capsys):
    import io

    from PIL import Image

    from tfr_viewer.core.io.framing import write_records

    png = io.BytesIO()
    Image.new("RGB", (8, 8)).save(png, "PNG")
    payloads = []
    for text in ("..", "../../x", "/abs", "a\nb"):
        payloads.append(
            build_example(
                {
                    "image/encoded": [png.getvalue()],
                    "image/class/text": [text.encode()],
                    "image/object/bbox/xmin": [0.1],
                    "image/object/bbox/xmax": [0.5],
                    "image/object/bbox/ymin": [0.1],
                    "image/object/bbox/ymax": [0.5],
                    "image/object/class/label": [1],
                    "image/object/class/text": [text.encode()],
                }
            )
        )
    work = tmp_path / "work"
    work.mkdir()
    src = work / "data.tfrecord"
    write_records(src, payloads)
    existing = work / "record-0.png"
    existing.write_bytes(b"mine")
    out = work / "out"
    code = main(["export", str(src), "-o", str(out), "--format", "images", "--boxes", "yolo"])
    assert code == 0, capsys.readouterr().err
    assert existing.read_bytes() == b"mine"
    assert sorted(os.listdir(work)) == ["data.tfrecord", "out", "record-0.png"]
    written = [p for p in out.rglob("*") if p.is_file()]
    assert all(out in p.parents for p in written)
    assert len([p for p in written if p.suffix == ".png"]) == 4


def test_more_shards_than_records_are_capped_with_a_warning(tmp_path):
    src = tmp_path / "three.tfrecord"
    from tfr_viewer.core.io.framing import write_records

    write_records(src, [b"a", b"b", b"c"])

    def limit() -> None:  # 2 GB of address space: one allocation per shard would fail
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "tfr_viewer",
            "export",
            str(src),
            "-o",
            str(tmp_path / "o"),
            "--shards",
            "99999999",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=limit,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert len(summary["files"]) == 3 and summary["records"] == 3
    assert any("--shards 99,999,999" in w for w in summary["warnings"])
    assert tf_read(sorted(summary["files"])) == [b"a", b"b", b"c"]


def test_a_missing_output_folder_is_made_and_an_existing_one_refused(tmp_path, capsys):
    src = SAMPLES / "classes_tutorial.tfrecord"
    out = tmp_path / "new" / "deeper" / "x.tfrecord"
    assert main(["export", str(src), "-o", str(out)]) == 0
    assert len(tf_read(out)) == 30
    capsys.readouterr()
    for argv in (
        ["export", str(src), "-o", str(tmp_path / "new") + "/", "--overwrite"],
        ["export", str(src), "-o", str(tmp_path / "new"), "--overwrite"],
        ["recover", str(src), "-o", str(tmp_path / "new"), "--overwrite"],
    ):
        assert main(argv) == 2
        line = _one_line_refusal(capsys)
        assert "folder" in line and "--overwrite" not in line, line


@pytest.fixture(scope="module")
def many_records(tmp_path_factory):
    from tfr_viewer.core.io.framing import RecordWriter

    src = tmp_path_factory.mktemp("many") / "many.tfrecord"
    with RecordWriter(str(src)) as writer:
        for i in range(60_000):
            writer.write(build_example({"label": [i], "text": [b"x" * 64]}))
    return src


@pytest.mark.parametrize(
    ("name", "code", "says"),
    [("SIGTERM", 143, "tfr-viewer: terminated"), ("SIGINT", 130, "tfr-viewer: interrupted")],
)
def test_a_signal_during_an_export_leaves_no_temporary_and_no_output(
    many_records, tmp_path, name, code, says
):
    """A command stopped by SIGTERM (a CI timeout, `kill`) or Ctrl+C discards its
    temporary at once and exits with one line, wherever the signal lands (it once
    crashed the process inside the protobuf runtime); the output name stays free."""
    import signal
    import time

    for attempt, delay in enumerate((0.0, 0.15, 0.3, 0.45)):
        out = tmp_path / f"out{attempt}" / "rows.jsonl"
        argv = ["export", str(many_records), "-o", str(out), "--format", "jsonl"]
        # as in a terminal: a runner started in the background ignores SIGINT, and its
        # children inherit that
        proc = subprocess.Popen(
            [sys.executable, "-m", "tfr_viewer", *argv],
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        deadline = time.monotonic() + 60
        while not list(out.parent.glob(f"*{TMP_SUFFIX}")) and proc.poll() is None:
            assert time.monotonic() < deadline, "no temporary appeared"
            time.sleep(0.01)
        time.sleep(delay)
        assert proc.poll() is None, "the export ended before the signal"
        proc.send_signal(getattr(signal, name))
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == code, err
        assert err.strip() == says
        assert not out.exists()
        assert not out.parent.exists() or not list(out.parent.iterdir())


def test_every_writer_into_a_read_only_folder_is_one_line(tmp_path):
    """A folder on a read-only file system (root sees no other kind as read-only):
    every command that writes says it cannot, in one line, with exit 2."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a read-only file system needs root")
    from PIL import Image

    images = tmp_path / "images"
    for name in ("cat", "dog"):
        (images / name).mkdir(parents=True)
        for i in range(2):
            Image.new("RGB", (16, 16), (60 * i, 20, 20)).save(images / name / f"{i}.jpg")
    closed = tmp_path / "closed"
    closed.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(closed)], capture_output=True
    )
    if mounted.returncode:
        pytest.skip("mounting is not permitted here")
    source = str(SAMPLES / "shapes_odapi.tfrecord")
    runs = [
        ["convert", str(images), "-o", str(closed / "out.tfrecord")],
        ["convert", str(images), "-o", str(closed / "deeper" / "out.tfrecord")],
        ["export", source, "-o", str(closed / "out.tfrecord")],
        ["export", source, "-o", str(closed / "out.csv"), "--format", "csv"],
        ["export", source, "-o", str(closed / "images"), "--format", "images"],
        ["recover", source, "-o", str(closed / "out.tfrecord")],
        ["schema", "--infer", "-o", str(closed / "schema.json"), source],
    ]
    try:
        for argv in runs:
            run = subprocess.run(
                [sys.executable, "-m", "tfr_viewer", *argv], capture_output=True, text=True
            )
            assert run.returncode == 2, (argv, run.stderr)
            assert "Traceback" not in run.stderr and len(run.stderr.splitlines()) == 1, argv
            assert "Read-only file system" in run.stderr or "cannot write" in run.stderr, argv
    finally:
        subprocess.run(["umount", str(closed)], check=False)


def test_images_under_keys_with_nul_and_path_parts_are_written_inside_the_folder(tmp_path):
    """A TensorFlow-written record whose image keys hold NUL, ``../`` and ``/``: export
    --format images writes each inside the output folder, under a name of its own, and
    the pictures are the source bytes."""
    import io

    from PIL import Image

    from tests.tf_oracle import tf_write

    def jpeg(shade: int) -> bytes:
        out = io.BytesIO()
        Image.new("RGB", (8, 8), (shade, 0, 0)).save(out, "JPEG")
        return out.getvalue()

    tf = pytest.importorskip("tensorflow")
    keys = {"image\x00encoded": jpeg(10), "../../escape": jpeg(90), "a/b/../c": jpeg(200)}
    feature = {
        k: tf.train.Feature(bytes_list=tf.train.BytesList(value=[v])) for k, v in keys.items()
    }
    example = tf.train.Example(features=tf.train.Features(feature=feature))
    src = tmp_path / "keys.tfrecord"
    tf_write(src, [example.SerializeToString()])
    out = tmp_path / "folder" / "imgs"
    done = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "export", str(src), "-o", str(out)]
        + ["--format", "images"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    written = [p for p in (tmp_path / "folder").rglob("*") if p.is_file()]
    assert all(out in p.parents for p in written)
    assert sorted(p.read_bytes() for p in written) == sorted(keys.values())


LABEL_MAP = 'item { id: 1 name: "cat" }\nitem { id: 2 name: "dog" }\nitem { id: 3 name: "bird" }\n'


@pytest.mark.parametrize(
    ("reads", "report"),
    [
        ("predictions_file", "--junit"),
        ("predictions_file", "--html"),
        ("predictions_dataset", "--html"),
        ("label_map", "--junit"),
        ("schema", "--html"),
    ],
)
def test_a_report_never_replaces_a_file_the_command_read(tmp_path, label_data, reads, report):
    """``check D --predictions ok.json --junit ok.json --overwrite``: every file a
    command reads beside its dataset (the model's results, a predictions dataset, the
    label map, the schema) is one of its inputs, which no report may replace."""
    import shutil

    data = tmp_path / "plain.tfrecord"
    shutil.copy(label_data["plain"], data)
    schema = tmp_path / "schema.json"
    made = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "schema", "--infer", str(data), "-o", str(schema)],
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    read = {
        "predictions_file": tmp_path / "results.json",
        "predictions_dataset": tmp_path / "preds.tfrecord",
        "label_map": tmp_path / "label_map.pbtxt",
        "schema": schema,
    }
    shutil.copy(label_data["coco"], read["predictions_file"])
    shutil.copy(label_data["by_sha"], read["predictions_dataset"])
    read["label_map"].write_text(LABEL_MAP)
    option = {
        "predictions_file": ["--predictions", str(read["predictions_file"])],
        "predictions_dataset": ["--predictions", str(read["predictions_dataset"])],
        "label_map": ["--label-map", str(read["label_map"])],
        "schema": ["--schema", str(schema)],
    }[reads]
    target = read[reads]
    before = target.read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "check", str(data), *option]
        + [report, str(target), "--overwrite"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "refusing to write over a source of this command" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert target.read_bytes() == before
