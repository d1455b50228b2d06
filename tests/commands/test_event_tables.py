"""``tfr-viewer scalars|histograms|hparams`` as a user runs them: CSV on stdout, a file
by its suffix with ``-o``, one line and exit 2 for what a user can get wrong, nothing
written then."""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest

from tests.program import program
from tests.summary_files import write_summaries, write_tf1_summaries


@pytest.fixture(scope="module")
def logdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("logs")
    write_summaries(root / "train", steps=6)
    write_tf1_summaries(root / "old" / "events.out.tfevents.1.host", steps=4)
    return root


def test_scalars_as_csv_on_stdout(logdir):
    done = program("scalars", str(logdir))
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(io.StringIO(done.stdout))
    assert list(table.columns) == ["run", "tag", "step", "wall_time", "value", "record"]
    assert sorted(set(zip(table.run, table.tag, strict=True))) == [
        ("old", "acc"),
        ("old", "lr"),
        ("train", "loss"),
    ]
    assert (table.run == "train").sum() == 6 and (table.run == "old").sum() == 8


def test_each_table_to_a_file_says_what_it_wrote(logdir, tmp_path):
    for name, suffix in (("scalars", "parquet"), ("histograms", "csv"), ("hparams", "json")):
        target = tmp_path / f"{name}.{suffix}"
        done = program(name, str(logdir), "-o", str(target), "--json")
        assert done.returncode == 0, done.stderr
        said = json.loads(done.stdout)
        assert said["table"] == name and said["output"] == str(target)
        assert said["runs"] == ["old", "train"]
        assert said["rows"] > 0 and target.stat().st_size > 0
    hparams = json.loads((tmp_path / "hparams.json").read_text())
    assert hparams[0]["run"] == "train" and hparams[0]["optimizer"] == "adam"


@pytest.mark.parametrize("table", ["scalars", "histograms", "hparams"])
@pytest.mark.parametrize(
    "argv, said",
    [
        (["-o", "{tmp}/s.xlsx"], "cannot tell the table's format"),
        (["-o", "{tmp}/exists.csv"], "exists"),
    ],
)
def test_a_wrong_output_is_one_line_and_exit_2(logdir, tmp_path, table, argv, said):
    (tmp_path / "exists.csv").write_text("mine")
    done = program(table, str(logdir), *(a.format(tmp=tmp_path) for a in argv))
    assert done.returncode == 2
    assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert (tmp_path / "exists.csv").read_text() == "mine"
    assert not (tmp_path / "s.xlsx").exists()
