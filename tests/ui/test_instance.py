"""Single instance: a second launch hands its files to the running app and exits 0."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import uuid

import pytest
from PySide6.QtCore import QDir
from PySide6.QtNetwork import QLocalSocket

from tests.ui.conftest import SAMPLES
from tfr_viewer.ui.instance import InstanceServer, absolute, hand_off
from tfr_viewer.ui.windows import Windows

ODAPI = SAMPLES / "shapes_odapi.tfrecord"
SEQUENCES = SAMPLES / "sequences.tfrecord"


def launch(
    name: str | None, *args: str, cwd: str | None = None, env: dict | None = None
) -> subprocess.Popen:
    """``tfr-viewer ARGS`` as a shell starts it: on the instance ``name``, or (None) on
    the one its environment ``env`` names (a display, a runtime folder)."""
    if name is not None:
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TFR_VIEWER_INSTANCE": name}
    return subprocess.Popen(
        [sys.executable, "-m", "tfr_viewer", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=cwd,
    )


@pytest.fixture
def name() -> str:
    return f"tfr-viewer-test-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def served(qtbot, name):
    windows = Windows()
    server = InstanceServer(windows.open_request, name=name)
    assert server.listen()
    yield windows
    server.close()
    for window in list(windows.windows):
        window.edit_actions.discard_answer = True
    windows.close_all()


def wait_serving(name: str, proc: subprocess.Popen, timeout: float = 90) -> None:
    """Until ``proc`` serves ``name`` (failing when it ends first, or never does)."""
    probe = QLocalSocket()
    deadline = time.monotonic() + timeout
    while True:
        probe.connectToServer(name)
        if probe.waitForConnected(200):
            probe.disconnectFromServer()
            return
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline, f"nothing serves {name}"
        time.sleep(0.1)


def finish(qtbot, proc: subprocess.Popen, timeout: int = 60_000) -> tuple[int, str]:
    qtbot.waitUntil(lambda: proc.poll() is not None, timeout=timeout)
    return proc.returncode, proc.stderr.read()


def test_second_launch_opens_in_the_running_app(qtbot, served, name):
    proc = launch(name, "open", ODAPI.name, "--select", "3", cwd=str(SAMPLES))  # relative path
    code, err = finish(qtbot, proc)
    assert code == 0, err
    assert f"opening {ODAPI.name} in the running tfr-viewer (process {os.getpid()})" in err
    qtbot.waitUntil(lambda: served.windows and served.windows[0].dataset is not None)
    first = served.windows[0]
    assert [f.path for f in first.dataset.files] == [str(ODAPI)]
    qtbot.waitUntil(lambda: first.current == 3, timeout=30_000)


def test_a_busy_window_is_kept_and_a_new_one_opens(qtbot, served, name):
    code, err = finish(qtbot, launch(name, str(ODAPI)))  # the bare form opens too
    assert code == 0, err
    qtbot.waitUntil(lambda: len(served.windows) == 1 and served.windows[0].dataset is not None)
    code, err = finish(qtbot, launch(name, "open", str(SEQUENCES)))
    assert code == 0, err
    qtbot.waitUntil(lambda: len(served.windows) == 2 and served.windows[1].dataset is not None)
    opened = [[f.path for f in w.dataset.files] for w in served.windows]
    assert opened == [[str(ODAPI)], [str(SEQUENCES)]]
    code, err = finish(qtbot, launch(name, "open"))  # no files: an empty window comes forward
    assert code == 0, err
    qtbot.waitUntil(lambda: len(served.windows) == 3)
    assert served.windows[2].dataset is None and served.windows[2].isVisible()


def test_a_missing_path_is_refused_by_the_second_launch(qtbot, served, name, tmp_path):
    code, err = finish(qtbot, launch(name, "open", str(tmp_path / "missing.tfrecord")))
    assert code == 2 and "missing.tfrecord" in err
    assert served.windows == []  # nothing reached the running app


def test_bad_and_oversized_requests_get_no_window(qtbot, served, name):
    client = QLocalSocket()
    client.connectToServer(name)
    assert client.waitForConnected(2000)
    client.write(b'{"paths": 7}\n')
    client.flush()
    qtbot.waitUntil(lambda: client.bytesAvailable() > 0, timeout=5000)
    reply = json.loads(bytes(client.readAll().data()))
    assert reply["ok"] is False and "bad request" in reply["message"]
    big = QLocalSocket()
    big.connectToServer(name)
    assert big.waitForConnected(2000)
    big.write(b"x" * (2 << 20))  # no newline, over the limit: the server hangs up
    qtbot.waitUntil(lambda: big.state() == QLocalSocket.LocalSocketState.UnconnectedState)
    assert served.windows == []


def test_no_running_app_means_no_hand_off(name):
    started = time.perf_counter()
    assert hand_off([str(ODAPI)], None, name=name) is None
    assert time.perf_counter() - started < 2.0


@pytest.mark.skipif(sys.platform == "win32", reason="Unix socket files")
def test_a_socket_left_by_a_crash_is_replaced(qtbot, name):
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(os.path.join(QDir.tempPath(), name))  # bound, never listening, then dead
    stale.close()
    assert hand_off([str(ODAPI)], None, name=name) is None
    windows = Windows()
    server = InstanceServer(windows.open_request, name=name)
    assert server.listen()
    server.close()


def test_paths_are_made_absolute():
    assert absolute("data/train@4") == os.path.join(os.getcwd(), "data", "train@4")
    assert absolute("gs://bucket/x.tfrecord") == "gs://bucket/x.tfrecord"


def test_two_real_processes(qtbot, name, tmp_path):
    """The full path: `tfr-viewer` running, then `tfr-viewer FILE` from a shell."""
    first = launch(name, "open")
    try:
        wait_serving(name, first)
        second = launch(name, str(ODAPI))
        code, err = finish(qtbot, second)
        assert code == 0, err
        assert f"(process {first.pid})" in err
        assert first.poll() is None  # the first app is still running
    finally:
        first.terminate()
        first.wait(30)


def test_a_live_copys_socket_is_never_taken_over(qtbot, served, name):
    """A second server on the name of a running copy (slow to answer a hand-off, say)
    does not listen: the first keeps serving."""
    second = InstanceServer(Windows().open_request, name=name)
    assert not second.listen()
    proc = launch(name, "open", str(ODAPI))  # a launch still reaches the first copy
    code, err = finish(qtbot, proc)
    assert code == 0 and f"(process {os.getpid()})" in err, err
    qtbot.waitUntil(lambda: served.windows and served.windows[0].dataset is not None)


def test_each_user_and_display_has_a_copy_of_its_own(monkeypatch, tmp_path):
    from tfr_viewer.ui.instance import NAME_ENV, server_name

    monkeypatch.delenv(NAME_ENV, raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", ":1")
    first = server_name()
    monkeypatch.setenv("DISPLAY", ":2")
    second = server_name()
    assert first != second
    assert first.startswith(str(tmp_path))  # in the user's private runtime folder
    monkeypatch.setenv("USER", "somebody-else")  # a name the environment says: not used
    monkeypatch.setenv("LOGNAME", "somebody-else")
    assert server_name() == second and str(os.getuid()) in second


def test_two_displays_have_a_copy_each_on_real_x_servers(qtbot, tmp_path):
    """Two X servers of one user: a launch on the second display opens a copy of its
    own there (never a window in the first display's copy), and a later launch on each
    display hands its file to that display's copy."""
    from tests.ui.x11 import xvfb_display

    runtime = tmp_path / "runtime"  # the user's private runtime folder, as a login has
    runtime.mkdir(mode=0o700)

    def on(display: str, *args: str) -> subprocess.Popen:
        env = {k: v for k, v in os.environ.items() if k not in ("TFR_VIEWER_INSTANCE",)}
        env.pop("WAYLAND_DISPLAY", None)
        env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb", XDG_RUNTIME_DIR=str(runtime))
        return launch(None, *args, env=env)

    def serving(display: str) -> str:
        uid = os.getuid()
        return str(runtime / f"tfr-viewer-{uid}-{display.replace(':', '_')}")

    with xvfb_display() as one, xvfb_display() as two:
        assert one != two
        first = on(one, "open")
        second = None
        try:
            wait_serving(serving(one), first)
            second = on(two, str(ODAPI))  # the other display: a copy of its own
            wait_serving(serving(two), second)
            assert second.poll() is None  # it stays: it is that display's copy
            for display, owner in ((one, first), (two, second)):
                code, err = finish(qtbot, on(display, str(SEQUENCES)))
                assert code == 0 and f"(process {owner.pid})" in err, (display, err)
            assert first.poll() is None and second.poll() is None
        finally:
            for proc in (first, second):
                if proc is not None and proc.poll() is None:
                    proc.terminate()
                    proc.wait(30)
