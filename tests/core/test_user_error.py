"""A user error is one line, whatever the names it quotes hold."""

from __future__ import annotations

import subprocess
import sys

from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.user_error import UserError, one_line


def test_control_characters_in_a_message_are_written_as_escapes():
    message = "record 0 has no feature 'x' (its keys: a\nb, c\td, bell\x07, line\u2028sep)"
    shown = str(UserError(message))
    assert "\n" not in shown and "\t" not in shown and shown.isprintable()
    assert "a\\nb" in shown and "c\\td" in shown and "bell\\x07" in shown
    assert one_line("plain, é and ü stay") == "plain, é and ü stay"


def test_cat_names_the_keys_of_a_record_in_one_line(tmp_path):
    """``cat --key`` of a key a record lacks lists the keys it has; keys holding
    newlines (TensorFlow writes and reads them) keep the message on one line."""
    t = tf()
    example = t.train.Example(
        features=t.train.Features(
            feature={
                "first\nsecond": t.train.Feature(bytes_list=t.train.BytesList(value=[b"x"])),
                "tab\there": t.train.Feature(int64_list=t.train.Int64List(value=[1])),
            }
        )
    )
    path = tf_write(tmp_path / "keys.tfrecord", [example.SerializeToString()])
    done = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "cat", "0", str(path), "--key", "image/encoded"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert "first\\nsecond" in lines[0] and "tab\\there" in lines[0]


def test_a_filter_error_keeps_its_caret_under_the_mistake(tmp_path):
    """The one error with lines of its own: under a filter error's line, the filter as
    typed and a caret under the mistake; a filter holding a control character gets the
    line alone, escaped."""
    t = tf()
    example = t.train.Example(
        features=t.train.Features(
            feature={"label": t.train.Feature(int64_list=t.train.Int64List(value=[3]))}
        )
    )
    path = tf_write(tmp_path / "one.tfrecord", [example.SerializeToString()])

    def count(text: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "tfr_viewer", "count", str(path), "--filter", text],
            capture_output=True,
            text=True,
        )

    done = count("  label = 3")
    assert done.returncode == 2
    line, typed, caret = done.stderr.splitlines()
    assert "column 9" in line and typed.strip() == "label = 3"
    assert caret.index("^") == typed.index("= 3")
    done = count("label = 3\x07")
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1, done.stderr
