"""The messages of a hand-off to a running window: what one writes the other reads, and
a line that is not one is refused with what is wrong, never half read."""

from __future__ import annotations

import pytest

from tfr_viewer.app.hand_off import BadMessage, OpenRequest, Reply


def test_what_is_written_is_read_back():
    request = OpenRequest(("/data/a b.tfrecord", "/data/\u00e9.tfrecord"), 7)
    assert OpenRequest.from_line(request.to_line().rstrip(b"\n")) == request
    assert OpenRequest.from_line(OpenRequest(("/x",)).to_line()).select is None
    reply = Reply(False, "cannot open it", 4242)
    assert Reply.from_line(reply.to_line()) == reply


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (b'{"paths": 7}', "no list of paths"),
        (b'{"select": 1}', "no list of paths"),
        (b'{"paths": [], "select": true}', "not a number"),
        (b'{"paths": [], "select": "3"}', "not a number"),
        (b"[1, 2]", "not list"),
        (b"\xff\xfe", "not JSON"),
        (b"[" * 100_000, "not JSON"),
    ],
)
def test_a_request_that_is_none_is_refused(line, said):
    with pytest.raises(BadMessage, match=said):
        OpenRequest.from_line(line)


@pytest.mark.parametrize(
    "line", [b'{"ok": 1, "message": "", "pid": 3}', b'{"ok": true, "pid": 3}', b"null"]
)
def test_an_answer_that_is_none_is_refused(line):
    with pytest.raises(BadMessage):
        Reply.from_line(line)
