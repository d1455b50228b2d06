"""``sql`` through the program: a table of text, ``--json``, ``-o`` in each format through
the output layer (never onto an input), ``--as`` tables, a TFDS folder's splits as
tables, the Python API's ``view.sql`` giving the same rows; every mistake one line and
exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.planted_faults import example_of
from tests.program import program
from tests.tf_oracle import tf_read, tf_write

TFDS = Path(__file__).resolve().parents[1] / "data" / "tfds" / "shapes" / "1.0.0"
QUERY = "SELECT label[1] AS label, count(*) AS n, decode(name[1]) AS first FROM records " \
    "GROUP BY ALL ORDER BY label"  # fmt: skip


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("sqlcli")
    rows = [{"label": [i % 3], "name": [b"same"], "pixels": [bytes([255, i])]} for i in range(9)]
    tf_write(root / "a.tfrecord", [example_of(r) for r in rows])
    tf_write(root / "b.tfrecord", [example_of(r) for r in rows[:4]])
    return root


def test_a_table_of_text_and_json(data):
    done = program("sql", QUERY, str(data / "a.tfrecord"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["label", "n", "first"]
    assert [line.split() for line in lines[1:]] == [["0", "3", "same"], ["1", "3", "same"],
                                                    ["2", "3", "same"]]  # fmt: skip
    shown = program("sql", QUERY, str(data / "a.tfrecord"), "--json")
    assert shown.returncode == 0, shown.stderr
    found = json.loads(shown.stdout)
    assert [c["name"] for c in found["columns"]] == ["label", "n", "first"]
    assert found["rows"] == [[0, 3, "same"], [1, 3, "same"], [2, 3, "same"]]
    raw = json.loads(program("sql", "SELECT pixels[1] AS p FROM records LIMIT 1",
                             str(data / "a.tfrecord"), "--json").stdout)  # fmt: skip
    assert raw["rows"] == [[{"size": 2, "base64": "/wA="}]]


def test_named_tables_and_the_api_agree(data):
    import tfr_viewer as tfv

    query = "SELECT a.index AS a, b.index AS b FROM a JOIN b ON a.label = b.label ORDER BY a, b"
    done = program("sql", query, "--as", f"a={data / 'a.tfrecord'}", "--as",
                   f"b={data / 'b.tfrecord'}", "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["rows"]
    expected = [[a, b] for a in range(9) for b in range(4) if a % 3 == b % 3]
    assert rows == expected
    view, other = tfv.open(data / "a.tfrecord"), tfv.open(data / "b.tfrecord")
    table = view.sql(query.replace("FROM a JOIN b", "FROM records a JOIN b"), {"b": other})
    assert [[r["a"], r["b"]] for r in table.to_pylist()] == expected
    chosen = view.filter("label == 1").sql("SELECT index FROM records ORDER BY index")
    assert chosen.column("index").to_pylist() == [1, 4, 7]
    frame = view.sql("SELECT count(*) AS n FROM records", pandas=True)
    assert frame["n"].tolist() == [9]


def test_a_tfds_folders_splits_are_tables():
    done = program("sql", "SELECT (SELECT count(*) FROM train) AS train, (SELECT count(*) "
                   "FROM test) AS test, (SELECT count(*) FROM records) AS every", str(TFDS),
                   "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    train = len(tf_read(TFDS / "shapes-train.tfrecord-00000-of-00001"))
    test = len(tf_read(TFDS / "shapes-test.tfrecord-00000-of-00001"))
    assert json.loads(done.stdout)["rows"] == [[train, test, train + test]]


@pytest.mark.parametrize("suffix", [".csv", ".json", ".jsonl", ".parquet"])
def test_written_through_the_output_layer(data, tmp_path, suffix):
    out = tmp_path / f"result{suffix}"
    done = program("sql", QUERY, str(data / "a.tfrecord"), "-o", str(out))
    assert done.returncode == 0, done.stderr
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        assert pq.read_table(out).to_pylist()[0] == {"label": 0, "n": 3, "first": "same"}
    elif suffix == ".csv":
        assert out.read_text().splitlines()[:2] == ["label,n,first", "0,3,same"]
    else:
        text = out.read_text()
        first = json.loads(text)[0] if suffix == ".json" else json.loads(text.splitlines()[0])
        assert first == {"label": 0, "n": 3, "first": "same"}
    again = program("sql", QUERY, str(data / "a.tfrecord"), "-o", str(out))
    assert again.returncode == 2 and "--overwrite" in again.stderr
    if suffix == ".csv":  # --csv: the same table on standard output
        shown = program("sql", QUERY, str(data / "a.tfrecord"), "--csv")
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout == out.read_text()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["COPY records TO 'x.csv'", "A"], "only a SELECT"),
        (["SELECT * FROM read_parquet('x.parquet')", "A"], "table function"),
        (["SELECT nope FROM records", "A"], "no column 'nope'"),
        (["SELECT 1", "--as", "1bad=A"], "--as 1bad="),
        (["SELECT 1"], "give the dataset"),
        (["SELECT count(*) FROM records", "A", "--memory", "lots"], "--memory lots"),
        (["SELECT 1 AS x FROM records", "A", "--csv", "--json"], "--csv writes"),
        (["SELECT 1 AS x FROM records", "J", "-o", "J"], "refusing to write over a source"),
        (["SELECT 1 AS x FROM records", "A", "--html", "A"], "refusing to write over a source"),
    ],
)  # fmt: skip
def test_each_mistake_is_one_line_and_exit_2(data, tmp_path, args, said):
    path = str(data / "a.tfrecord")
    named_json = tmp_path / "records.json"  # a TFRecord file, named as a table would be
    named_json.write_bytes(Path(path).read_bytes())
    argv = [path if a == "A" else str(named_json) if a == "J" else a.replace("=A", f"={path}")
            for a in args]  # fmt: skip
    done = program("sql", *argv)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and said in lines[0] and "Traceback" not in done.stderr
    assert tf_read(path) and tf_read(named_json) == tf_read(path)  # the inputs untouched


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads a process's threads")
def test_ctrl_c_stops_a_query_that_runs_too_long(tmp_path):
    """SIGINT once the command runs (DuckDB's threads are there, the query on its way):
    exit 130, said in one line."""
    import os
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "many.tfrecord"
    tf_write(path, [example_of({"n": [i]}) for i in range(3000)])
    endless = "SELECT count(*) FROM records a, records b, records c, records d"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tfr_viewer", "sql", endless, str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        for _ in range(2400):  # more threads than the interpreter's: the command runs
            if len(list(Path(f"/proc/{proc.pid}/task").glob("*"))) > 1 or proc.poll() is not None:
                break
            time.sleep(0.05)
        time.sleep(1)  # most likely in the query by now; any time after the start will do
        assert proc.poll() is None, proc.communicate()
        os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert err.strip().splitlines() == ["tfr-viewer: interrupted"]


def test_records_of_a_projects_own_type_by_their_field_paths(tmp_path):
    """``--descriptor-set`` and ``--message`` (or the type that reads them best, said):
    a column a field path; the values the generated module wrote."""
    from collections import Counter

    from tests.user_protos import descriptor_set, frames, proto_folder

    sets = descriptor_set(proto_folder(tmp_path), tmp_path / "drive.pb")
    messages = frames(12)
    path = tmp_path / "frames.tfrecord"
    tf_write(path, [m.SerializeToString() for m in messages])
    query = 'SELECT "context.name" AS s, count(*) AS n, sum(len("images.image")) AS pictures ' \
        "FROM records GROUP BY 1 ORDER BY 1"  # fmt: skip
    theirs = [[s, n, sum(len(m.images) for m in messages if m.context.name == s)]
              for s, n in sorted(Counter(m.context.name for m in messages).items())]  # fmt: skip
    named = program("sql", query, str(path), "--descriptor-set", str(sets),
                    "--message", "drive.Frame", "--json")  # fmt: skip
    assert named.returncode == 0, named.stderr
    assert json.loads(named.stdout)["rows"] == theirs
    chosen = program("sql", query, str(path), "--descriptor-set", str(sets), "--json")
    assert chosen.returncode == 0, chosen.stderr
    assert json.loads(chosen.stdout)["rows"] == theirs
    assert any("drive.Frame" in w for w in json.loads(chosen.stdout)["warnings"])
    unquoted = program("sql", "SELECT context.name FROM records", str(path),
                       "--descriptor-set", str(sets), "--message", "drive.Frame")  # fmt: skip
    assert unquoted.returncode == 2 and len(unquoted.stderr.strip().splitlines()) == 1


def test_the_api_reads_a_projects_own_type_as_the_program_does(tmp_path):
    import tfr_viewer as tfv
    from tests.user_protos import descriptor_set, frames, proto_folder

    sets = descriptor_set(proto_folder(tmp_path), tmp_path / "drive.pb")
    messages = frames(10)
    path = tmp_path / "frames.tfrecord"
    tf_write(path, [m.SerializeToString() for m in messages])
    query = 'SELECT index, "lasers.intensities" AS i FROM records WHERE night ORDER BY index'
    done = program("sql", query, str(path), "--descriptor-set", str(sets),
                   "--message", "drive.Frame", "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    with tfv.open(str(path), descriptor_set=str(sets), message="drive.Frame") as view:
        table = view.sql(query)
    assert [[r["index"], r["i"]] for r in table.to_pylist()] == json.loads(done.stdout)["rows"]
    assert json.loads(done.stdout)["rows"] == [
        [i, list(m.lasers[0].intensities)] for i, m in enumerate(messages) if m.night
    ]
