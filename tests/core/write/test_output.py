"""The output layer itself: exclusive temporaries, all-or-none commits, safe names, and
a stale-temporary cleaner that never crashes on an odd name."""

from __future__ import annotations

import os
import stat

import pytest

from tfr_viewer.core.io import file_writes
from tfr_viewer.core.write import output
from tfr_viewer.core.write.output import (
    TMP_SUFFIX,
    ExportError,
    NameMap,
    OutputJob,
    clean_stale_temporaries,
    create_temporary,
    safe_name,
)


def test_a_symlink_planted_at_the_temporary_name_is_never_followed(tmp_path, monkeypatch):
    victim = tmp_path / "elsewhere" / "victim"
    victim.parent.mkdir()
    victim.write_bytes(b"precious")
    target = tmp_path / "out" / "x.tfrecord"
    target.parent.mkdir()
    monkeypatch.setattr(file_writes.secrets, "token_hex", lambda n: "fixed")
    planted = target.parent / f".x.tfrecord.{os.getpid()}.fixed{TMP_SUFFIX}"
    os.symlink(victim, planted)
    with pytest.raises(ExportError, match="temporary"):
        create_temporary(str(target))
    assert victim.read_bytes() == b"precious" and os.path.islink(planted)


def test_a_job_commits_every_file_or_none(tmp_path):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("old a")
    with OutputJob(overwrite=True) as job:
        job.plan_all([str(first), str(second)])
        job.write_text(str(first), "new a")
        job.write_text(str(second), "new b")
        os.mkdir(second)  # the second target became a folder meanwhile
        with pytest.raises(ExportError, match="folder"):
            job.commit()
    assert first.read_text() == "old a"  # put back
    assert sorted(os.listdir(tmp_path)) == ["a.txt", "b.txt"] and second.is_dir()


def test_a_job_left_without_a_commit_leaves_nothing(tmp_path):
    target = tmp_path / "new" / "deeper" / "x.json"
    with OutputJob() as job:
        job.plan(str(target))
        job.write_text(str(target), "{}")
        assert target.parent.is_dir()
    assert os.listdir(tmp_path) == []  # the folders it made are gone too


def test_targets_that_are_not_regular_files_are_refused(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    folder = tmp_path / "dir"
    folder.mkdir()
    for target, what in ((fifo, "FIFO"), (folder, "folder")):
        with pytest.raises(ExportError, match=what):
            OutputJob(overwrite=True).plan(str(target))
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    with pytest.raises(ExportError, match="names a folder"):
        OutputJob().plan(str(tmp_path / "nothing") + "/")


def test_two_targets_that_are_one_file_are_refused(tmp_path):
    job = OutputJob()
    job.plan(str(tmp_path / "a.tar"))
    with pytest.raises(ExportError, match="same name"):
        job.plan(str(tmp_path / "sub" / ".." / "a.tar"))


@pytest.mark.parametrize("text", ["..", ".", "", "a/b", "../../etc", "x\x00y", "\n", "é" * 300])
def test_safe_names_stay_in_their_folder(tmp_path, text):
    name = safe_name(text)
    assert name and not name.startswith(".") and "/" not in name and "\x00" not in name
    assert len(name) <= output.NAME_LIMIT
    path = tmp_path / name
    path.write_bytes(b"")
    assert path.parent == tmp_path


def test_names_that_would_collide_are_refused():
    names = NameMap("class names")
    assert names.name("a/b") == "a_b"
    assert names.name("a/b") == "a_b"
    with pytest.raises(ExportError, match="'a/b' and 'a_b'"):
        names.name("a_b")


def test_the_cleaner_survives_odd_names(tmp_path):
    odd = [
        f".x.{10**30}.ab{TMP_SUFFIX}",  # a pid too large for os.kill
        f".x.-1.ab{TMP_SUFFIX}",
        f".x.12.{TMP_SUFFIX}",
    ]
    for name in odd:
        (tmp_path / name).write_bytes(b"")
    raw = os.fsencode(str(tmp_path)) + b"/.\xff\xfe.424242424.ab" + TMP_SUFFIX.encode()
    with open(raw, "wb"):
        pass
    removed = clean_stale_temporaries(str(tmp_path))
    assert os.path.join(str(tmp_path), odd[0]) in removed
    assert not os.path.exists(raw)  # not UTF-8, and its process is gone
    assert (tmp_path / odd[1]).exists() and (tmp_path / odd[2]).exists()  # not ours


def test_a_move_that_fails_puts_back_the_files_moved_before_it(tmp_path, monkeypatch):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("old a")
    real = os.replace
    calls = []

    def failing(src, dst):  # noqa: ANN001
        calls.append(dst)
        if str(dst) == str(second):
            raise OSError(28, "No space left on device")
        return real(src, dst)

    with OutputJob(overwrite=True) as job:
        job.plan_all([str(first), str(second)])
        job.write_text(str(first), "new a")
        job.write_text(str(second), "new b")
        monkeypatch.setattr(output.os, "replace", failing)
        with pytest.raises(ExportError, match="no space left"):
            job.commit()
        monkeypatch.setattr(output.os, "replace", real)
    assert str(first) in map(str, calls)  # it had been moved, then put back
    assert first.read_text() == "old a" and not second.exists()
    assert os.listdir(tmp_path) == ["a.txt"]
