"""One running app per user and display: a second launch hands its paths to the first
over a local socket. The socket is named by the user's id and the display (or session),
in the user's private runtime folder where there is one: another login, or a launch on
another display, has a copy of its own; a live copy's socket is never taken over.

Protocol: the new process connects to the server named by :func:`server_name`, sends one
:class:`~..app.hand_off.OpenRequest` line and reads one :class:`~..app.hand_off.Reply`
line back. Paths are made absolute by the sender, whose working folder the running app
does not share.
"""

from __future__ import annotations

import getpass
import os
import re
from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from ..app.hand_off import BadMessage, OpenRequest, Reply

NAME_ENV = "TFR_VIEWER_INSTANCE"  # another name gives a separate instance (used by tests)
MAX_REQUEST = 1 << 20  # bytes; a request is a list of paths
CONNECT_MS = 500
REPLY_MS = 10_000

Handler = Callable[[list[str], "int | None"], tuple[bool, str]]


def server_name() -> str:
    """The socket of this user on this display (or ``$TFR_VIEWER_INSTANCE``): a path in
    ``$XDG_RUNTIME_DIR`` (private to the user) when it exists, else a name."""
    name = os.environ.get(NAME_ENV)
    if name:
        return re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    if hasattr(os, "getuid"):
        user = str(os.getuid())  # not a name the environment could make up
    else:
        try:
            user = getpass.getuser()
        except (KeyError, OSError):
            user = "user"
    display = (
        os.environ.get("WAYLAND_DISPLAY")
        or os.environ.get("DISPLAY")
        or os.environ.get("XDG_SESSION_ID")
        or "console"
    )
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", f"tfr-viewer-{user}-{display}")
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return os.path.join(runtime, name)
    return name


def alive(name: str, wait_ms: int = 2000) -> bool:
    """Whether a running copy listens on ``name`` (busy or not: it accepts a connection)."""
    socket = QLocalSocket()
    socket.connectToServer(name)
    found = socket.waitForConnected(wait_ms)
    if found:
        socket.abort()
    return found


def absolute(spec: str) -> str:
    """A path, glob or ``name@N`` made independent of the working folder; URLs unchanged."""
    return spec if "://" in spec else os.path.abspath(os.path.expanduser(spec))


def hand_off(paths: Sequence[str], select: int | None, name: str | None = None) -> Reply | None:
    """Ask a running instance to open ``paths``. ``None`` when no instance answers, so the
    caller starts its own window."""
    socket = QLocalSocket()
    socket.connectToServer(name or server_name())
    if not socket.waitForConnected(CONNECT_MS):
        return None
    socket.write(OpenRequest(tuple(absolute(p) for p in paths), select).to_line())
    if not socket.waitForBytesWritten(REPLY_MS):
        return None
    data = b""
    while b"\n" not in data and len(data) < MAX_REQUEST:
        if not socket.waitForReadyRead(REPLY_MS):
            return None  # an instance that does not answer is treated as absent
        data += bytes(socket.readAll().data())
    socket.disconnectFromServer()
    try:
        return Reply.from_line(data.split(b"\n", 1)[0])
    except BadMessage:
        return None


class InstanceServer(QObject):
    """Listens for hand-offs and passes each request to ``handler(paths, select)``, which
    returns ``(ok, message)`` for the sender."""

    def __init__(
        self, handler: Handler, name: str | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.name = name or server_name()
        self.handler = handler
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self.server.newConnection.connect(self._accept)

    def listen(self) -> bool:
        """Start serving; False when another copy serves the name (alive though slow to
        answer a hand-off: its socket is never taken over). A socket file left by a
        crashed copy is removed first. (Qt makes a socket with access options in a
        folder of its own and moves it onto the name, replacing whatever is there: a live
        copy is asked first.)"""
        if alive(self.name):
            return False
        if self.server.listen(self.name):
            return True
        QLocalServer.removeServer(self.name)
        return self.server.listen(self.name)

    def close(self) -> None:
        self.server.close()

    def _accept(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            buffer = bytearray()
            socket.readyRead.connect(lambda s=socket, b=buffer: self._read(s, b))
            socket.disconnected.connect(socket.deleteLater)

    def _read(self, socket: QLocalSocket, buffer: bytearray) -> None:
        buffer += bytes(socket.readAll().data())
        if len(buffer) > MAX_REQUEST:
            socket.abort()
            return
        if b"\n" not in buffer:
            return
        try:
            request = OpenRequest.from_line(bytes(buffer).split(b"\n", 1)[0])
        except BadMessage as exc:
            ok, message = False, f"bad request: {exc}"
        else:
            ok, message = self.handler(list(request.paths), request.select)
        socket.write(Reply(ok, message, os.getpid()).to_line())
        socket.flush()
        socket.disconnectFromServer()
