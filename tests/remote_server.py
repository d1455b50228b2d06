"""A loopback HTTP server with range requests, for the remote-file tests and benchmarks.

It serves the files of one folder with ``Accept-Ranges``, ``ETag`` and an HTML listing
of links for folders (what fsspec's HTTP globbing reads). Faults can be switched on while
it runs: a fixed delay per request (``latency``), an error status for every range
request after a number of them (``fail_after`` with ``fail_status``), a connection
dropped mid-answer (``drop_after``), a few failures before it recovers (``fail_next``),
an answer that never comes (``hang``), or a redirect of every range request to
itself or to another scheme (``redirect``). It counts
the requests and the body bytes it sends.
"""

from __future__ import annotations

import hashlib
import html
import os
import re
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

_RANGE = re.compile(r"bytes=(\d*)-(\d*)$")


@dataclass
class Faults:
    latency: float = 0.0
    fail_after: int | None = None  # range requests answered before errors start
    fail_status: int = 500
    fail_next: int = 0  # the next N range requests fail, then the server recovers
    drop_after: int | None = None  # range requests answered before connections drop
    hang: bool = False
    trickle: float = 0.0  # seconds between the bytes of a body (each byte its own write)
    endless: bool = False  # ignore Range: answer 200 with a body that never ends
    fixed_etag: str | None = None  # this ETag whatever the file holds (a lying server)
    redirect: str | None = None  # range requests answer 302 to this ("self": a loop)


class RangeServer:
    """``with RangeServer(folder) as server: server.url("a.tfrecord")``."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.faults = Faults()
        self.requests = 0
        self.range_requests = 0
        self.bytes_sent = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        handler = _make_handler(self)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    def url(self, name: str = "") -> str:
        return f"http://127.0.0.1:{self.port}/{urllib.parse.quote(name, safe='/*?[]@')}"

    def reset_counts(self) -> None:
        with self._lock:
            self.requests = self.range_requests = self.bytes_sent = 0

    def __enter__(self) -> RangeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def _count(self, ranged: bool, nbytes: int) -> int:
        with self._lock:
            self.requests += 1
            self.range_requests += ranged
            self.bytes_sent += nbytes
            return self.range_requests


def _make_handler(server: RangeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out as two writes

        def log_message(self, *args: object) -> None:
            pass

        def _target(self) -> Path | None:
            name = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path).lstrip("/")
            path = (server.root / name).resolve()
            root = server.root.resolve()
            return path if path == root or root in path.parents else None

        def _etag(self, path: Path) -> str:
            if server.faults.fixed_etag is not None:
                return server.faults.fixed_etag
            st = path.stat()
            return '"' + hashlib.md5(f"{st.st_size}-{st.st_mtime_ns}".encode()).hexdigest() + '"'

        def do_HEAD(self) -> None:  # noqa: N802 - the http.server protocol
            self._answer(body=False)

        def do_GET(self) -> None:  # noqa: N802
            self._answer(body=True)

        def _listing(self, path: Path, body: bool) -> None:
            base = self.path.rstrip("/")
            links = "".join(
                f'<a href="{html.escape(base + "/" + p.name)}">{html.escape(p.name)}</a>\n'
                for p in sorted(path.iterdir())
            )
            data = f"<html><body>{links}</body></html>".encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if body:
                self.wfile.write(data)

        def _answer(self, body: bool) -> None:
            faults = server.faults
            if faults.hang:
                server._stop.wait(60)
                self.close_connection = True
                return
            if faults.latency:
                time.sleep(faults.latency)
            path = self._target()
            if path is None or not path.exists():
                server._count(False, 0)
                self.send_error(404)
                return
            if path.is_dir():
                server._count(False, 0)
                self._listing(path, body)
                return
            size = path.stat().st_size
            if faults.endless and body:
                server._count(True, 0)
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.end_headers()
                chunk = b"\0" * (1 << 20)
                try:
                    while not server._stop.is_set():
                        self.wfile.write(chunk)
                except OSError:
                    pass
                self.close_connection = True
                return
            wanted = self.headers.get("If-Match")
            if wanted is not None and wanted != self._etag(path):
                server._count(False, 0)
                self.send_response(412)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            header = self.headers.get("Range")
            m = _RANGE.match(header or "")
            start, end = 0, size  # end exclusive
            if m and body:
                if m[1]:
                    start = int(m[1])
                    end = min(size, int(m[2]) + 1) if m[2] else size
                else:  # a suffix range: the last N bytes
                    start = max(0, size - int(m[2]))
            ranged = bool(m) and body
            if ranged and faults.redirect is not None:
                server._count(True, 0)
                self.send_response(302)
                self.send_header(
                    "Location", self.path if faults.redirect == "self" else faults.redirect
                )
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            served = server._count(ranged, end - start if body else 0)
            failing = faults.fail_after is not None and served > faults.fail_after
            if ranged and faults.fail_next > 0:
                faults.fail_next -= 1
                failing = True
            if ranged and failing:
                self.send_error(faults.fail_status)
                return
            if ranged and start >= size and size:
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{size}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206 if ranged else 200)
            self.send_header("Accept-Ranges", "bytes")
            self.send_header("ETag", self._etag(path))
            self.send_header("Content-Type", "application/octet-stream")
            if ranged:
                self.send_header("Content-Range", f"bytes {start}-{end - 1}/{size}")
            self.send_header("Content-Length", str(end - start if body else size))
            self.end_headers()
            if not body:
                return
            with open(path, "rb") as f:
                f.seek(start)
                data = f.read(end - start)
            if ranged and faults.drop_after is not None and served > faults.drop_after:
                self.wfile.write(data[: len(data) // 2])
                self.wfile.flush()
                self.close_connection = True
                os.close(os.dup(self.connection.fileno()))
                self.connection.shutdown(2)
                return
            if faults.trickle and ranged:
                try:
                    for i in range(len(data)):
                        if server._stop.wait(faults.trickle):
                            break
                        self.wfile.write(data[i : i + 1])
                        self.wfile.flush()
                except OSError:
                    pass
                self.close_connection = True
                return
            self.wfile.write(data)

    return Handler


@contextmanager
def serving(root: Path) -> Iterator[RangeServer]:
    with RangeServer(root) as server:
        yield server
