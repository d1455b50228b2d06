"""One HTTP(S) range request, bounded in every way a server can misbehave.

fsspec reads a whole answer before looking at it, and its timeouts restart with every
byte. Here a range is read with the standard library, and:

- the request has an idle timeout (``TFR_VIEWER_REMOTE_TIMEOUT``) and a total deadline
  for connecting and every byte (``TFR_VIEWER_REMOTE_DEADLINE`` seconds, default 120):
  a server that sends one byte every few seconds is cut off;
- at most the bytes asked for (plus one, to notice more) are read: an answer that is not
  the range asked for (a 200 with the whole object, an endless body, another range) is
  refused after that many bytes, never held in memory whole;
- with the object's ETag, the request is conditional (``If-Match``): an object replaced
  while it is read answers 412, and one whose size in ``Content-Range`` is no longer
  the size it had: both are :class:`~.source_errors.FileChanged`, and nothing read is
  cached;
- redirects go to http and https only (never ``file://``), at most ten.
"""

from __future__ import annotations

import os
import re
import time
import urllib.error
import urllib.request
from http.client import HTTPMessage
from typing import IO

from .source_errors import FileChanged, RemoteError

_CONTENT_RANGE = re.compile(r"bytes (\d+)-(\d+)/(\d+|\*)$")
_CHUNK = 1 << 20


class Unfinished(OSError):
    """A transient failure of one request (cut short, too slow): worth another try."""


def deadline() -> float:
    """Seconds one request may take in all (``TFR_VIEWER_REMOTE_DEADLINE``)."""
    try:
        return max(0.1, float(os.environ.get("TFR_VIEWER_REMOTE_DEADLINE", 120)))
    except ValueError:
        return 120.0


class _Redirects(urllib.request.HTTPRedirectHandler):
    max_redirections = 10

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        if not newurl.lower().startswith(("http://", "https://")):
            raise urllib.error.HTTPError(
                newurl,
                code,
                f"redirected to {newurl.split(':', 1)[0]}://, not http(s)",
                headers,
                fp,
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


_OPENER = urllib.request.build_opener(_Redirects)


def read_range(
    url: str, start: int, end: int, etag: str | None, idle: float, size: int | None = None
) -> bytes:
    """Bytes ``[start, end)`` of ``url`` (an object of ``size`` bytes). Raises
    :class:`~.source_errors.RemoteError` for an answer that cannot be right,
    :class:`FileChanged` for a changed object (another ETag, or another size in the
    answer's ``Content-Range``), and :class:`Unfinished` (or the network's own errors)
    for what another try may fix."""
    want = end - start
    started = time.monotonic()
    limit = started + deadline()
    headers = {"Range": f"bytes={start}-{end - 1}", "Accept-Encoding": "identity"}
    if etag:
        headers["If-Match"] = etag
    request = urllib.request.Request(url, headers=headers)
    try:
        response = _OPENER.open(request, timeout=idle)
    except urllib.error.HTTPError as exc:
        if exc.code == 412:
            raise FileChanged.while_read(url, f"its ETag is no longer {etag}") from None
        raise
    with response:
        status = response.status
        if status == 206:
            m = _CONTENT_RANGE.match(response.headers.get("Content-Range", "").strip())
            if m is not None and size is not None and m[3] != "*" and int(m[3]) != size:
                raise FileChanged.while_read(url, f"now {int(m[3]):,} bytes, was {size:,}")
            if m is None or (int(m[1]), int(m[2])) != (start, end - 1):
                raise RemoteError(
                    f"{url}: asked for bytes {start:,} to {end - 1:,}, the server answered "
                    f"{response.headers.get('Content-Range') or 'another range'}; download "
                    "the file and open the local copy"
                )
        elif status != 200 or start != 0:
            raise RemoteError(
                f"{url}: the server ignores range requests (it answered {status} with the "
                "whole file); download the file and open the local copy"
            )
        parts: list[bytes] = []
        got = 0
        while got <= want:
            if time.monotonic() > limit:
                raise Unfinished(
                    f"the answer took longer than {deadline():g} s "
                    f"({got:,} of {want:,} bytes; TFR_VIEWER_REMOTE_DEADLINE sets it)"
                )
            piece = response.read1(min(_CHUNK, want + 1 - got))  # what one receive gives
            if not piece:
                break
            parts.append(piece)
            got += len(piece)
    data = b"".join(parts)
    if len(data) > want:
        raise RemoteError(
            f"{url}: the server sent more than the {want:,} bytes asked for (it ignores "
            "range requests); download the file and open the local copy"
        )
    if len(data) < want:
        raise Unfinished(f"the answer was cut short ({len(data):,} of {want:,} bytes)")
    return data
