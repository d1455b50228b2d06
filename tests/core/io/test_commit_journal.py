"""The journal of a commit of several files, obeyed only within its folder: a journal
planted by someone else (a dead process's name, targets elsewhere, files that are no
temporaries of its process, lines that are no JSON) moves nothing outside its folder
and is removed; a target that became another file after the commit began is left
alone. The commit itself, killed between two moves: ``tests/core/write/test_export.py``."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tfr_viewer.core.io import commit_journal
from tfr_viewer.core.write.output import clean_stale_temporaries


def _dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    return int(done.stdout)


def _temp(folder, name, pid, tag="ab12"):
    return str(folder / f".{name}.{pid}.{tag}.tfr-viewer-tmp")


def _journal(folder, pid, lines) -> str:
    path = _temp(folder, "tfr-viewer-commit", pid, "j0")
    with open(path, "w") as f:
        for line in lines:
            f.write((line if isinstance(line, str) else json.dumps(line)) + "\n")
    return path


def test_a_dead_processs_journal_is_finished_in_its_folder(tmp_path):
    pid = _dead_pid()
    target, other = tmp_path / "a.bin", tmp_path / "b.bin"
    temp_a, temp_b = _temp(tmp_path, "a.bin", pid), _temp(tmp_path, "b.bin", pid)
    open(temp_a, "wb").write(b"new a")
    open(temp_b, "wb").write(b"new b")
    other.write_bytes(b"old b")
    backup = _temp(tmp_path, "b.bin", pid, "bk")
    os.link(other, backup)
    was = [os.lstat(other).st_dev, os.lstat(other).st_ino]
    _journal(tmp_path, pid, [
        {"target": str(target), "temp": temp_a, "backup": None, "folder": False, "was": None},
        {"target": str(other), "temp": temp_b, "backup": backup, "folder": False, "was": was},
    ])  # fmt: skip
    clean_stale_temporaries(str(tmp_path))
    assert sorted(os.listdir(tmp_path)) == ["a.bin", "b.bin"]
    assert target.read_bytes() == b"new a" and other.read_bytes() == b"new b"


def test_a_target_that_became_another_file_is_left_alone(tmp_path):
    pid = _dead_pid()
    target = tmp_path / "a.bin"
    temp = _temp(tmp_path, "a.bin", pid)
    open(temp, "wb").write(b"ours")
    target.write_bytes(b"someone else's, written after the commit began")
    _journal(tmp_path, pid, [
        {"target": str(target), "temp": temp, "backup": None, "folder": False, "was": None},
    ])  # fmt: skip
    clean_stale_temporaries(str(tmp_path))
    assert os.listdir(tmp_path) == ["a.bin"]
    assert target.read_bytes().startswith(b"someone else's")


def test_a_planted_journal_moves_nothing_outside_its_folder(tmp_path):
    pid = _dead_pid()
    folder, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    precious = elsewhere / "precious.txt"
    precious.write_bytes(b"keep me")
    plain = folder / "plain.txt"  # no temporary: never moved, never removed
    plain.write_bytes(b"plain")
    foreign = _temp(folder, "x.bin", pid + 1)  # a temporary of another process
    open(foreign, "wb").write(b"x")
    journal = _journal(folder, pid, [
        {"target": str(precious), "temp": _temp(folder, "p", pid), "backup": None,
         "folder": False, "was": [os.lstat(precious).st_dev, os.lstat(precious).st_ino]},
        {"target": str(folder / "y.bin"), "temp": str(plain), "backup": None,
         "folder": False, "was": None},
        {"target": str(folder / "z.bin"), "temp": foreign, "backup": str(precious),
         "folder": False, "was": None},
    ])  # fmt: skip
    open(_temp(folder, "p", pid), "wb").write(b"planted")
    commit_journal.finish(journal)
    assert precious.read_bytes() == b"keep me" and plain.read_bytes() == b"plain"
    assert not os.path.exists(journal) and not (folder / "y.bin").exists()
    assert not (folder / "z.bin").exists() and os.path.exists(foreign)
    garbled = _journal(folder, pid, ["not json at all", '{"target": 1}'])
    commit_journal.finish(garbled)
    assert not os.path.exists(garbled)


def test_a_living_processs_journal_is_not_touched(tmp_path):
    temp = _temp(tmp_path, "a.bin", os.getpid())
    open(temp, "wb").write(b"being committed")
    journal = _journal(tmp_path, os.getpid(), [
        {"target": str(tmp_path / "a.bin"), "temp": temp, "backup": None, "folder": False,
         "was": None},
    ])  # fmt: skip
    clean_stale_temporaries(str(tmp_path))
    assert os.path.exists(journal) and os.path.exists(temp)
    assert not (tmp_path / "a.bin").exists()
