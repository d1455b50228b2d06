"""URLs (``gs://``, ``s3://``, ``https://`` and any protocol fsspec knows) as byte ranges.

Everything remote goes through fsspec, imported only when a URL is opened. The cloud
back-ends are optional extras (``tfr-viewer[gcs]``, ``tfr-viewer[s3]``); a missing one is
named in the error. Credentials come from each back-end's own mechanism (environment,
default credentials, profiles); the app never stores any.

Every request has an idle timeout (``TFR_VIEWER_REMOTE_TIMEOUT`` seconds, default 30)
and a total deadline (``TFR_VIEWER_REMOTE_DEADLINE``, default 120; range reads over
http(s) are bounded in bytes too, :mod:`.http_range`), and a
transient failure (a dropped connection, a 5xx answer, a timeout) is tried again up to
``TFR_VIEWER_REMOTE_RETRIES`` times (default 3) before :class:`~.sources.RemoteError`
says what failed, where, and to retry. Bytes and requests are counted per file in a
:class:`Transfer`, for the status bar and the CLI.
"""

from __future__ import annotations

import io
import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..text import plural
from .source_errors import FileChanged, RemoteError

_URL_RE = re.compile(r"^(?P<protocol>[a-zA-Z][a-zA-Z0-9+.-]+)://")
# protocol -> (module that implements it, extra that installs it)
_BACKENDS = {
    "gs": ("gcsfs", "gcs"),
    "gcs": ("gcsfs", "gcs"),
    "s3": ("s3fs", "s3"),
    "s3a": ("s3fs", "s3"),
    "http": ("aiohttp", None),
    "https": ("aiohttp", None),
}


def protocol_of(spec: str) -> str | None:
    """The protocol of a URL (``gs``, ``s3``, ``https``...), or None for a local path."""
    m = _URL_RE.match(spec)
    return m["protocol"].lower() if m else None


def is_url(spec: object) -> bool:
    """True for a URL other than ``file://`` (a Windows drive letter is never one)."""
    protocol = protocol_of(spec) if isinstance(spec, str) else None
    return protocol is not None and protocol not in ("file", "local")


def timeout() -> float:
    try:
        return max(0.1, float(os.environ.get("TFR_VIEWER_REMOTE_TIMEOUT", 30)))
    except ValueError:
        return 30.0


def retries() -> int:
    try:
        return max(1, int(os.environ.get("TFR_VIEWER_REMOTE_RETRIES", 3)))
    except ValueError:
        return 3


def _options(protocol: str) -> dict[str, Any]:
    """Per back-end settings: timeouts on every request, no listing cache surprises."""
    t = timeout()
    if protocol in ("http", "https"):
        import aiohttp

        from .http_range import deadline

        total = aiohttp.ClientTimeout(total=deadline(), sock_connect=t, sock_read=t)
        return {"client_kwargs": {"timeout": total}}
    if protocol in ("s3", "s3a"):
        return {"config_kwargs": {"connect_timeout": t, "read_timeout": t}}
    if protocol in ("gs", "gcs"):
        return {"requests_timeout": t}
    return {}


def _missing_backend(url: str, protocol: str, exc: BaseException) -> RemoteError:
    module, extra = _BACKENDS.get(protocol, (None, None))
    if extra:
        how = f"pip install 'tfr-viewer[{extra}]' (or pip install {module})"
    elif module:
        how = f"pip install {module}"
    else:
        how = "install the fsspec implementation of that protocol"
    return RemoteError(
        f"{url}: reading {protocol}:// URLs needs a package that is missing ({exc}); {how}"
    )


def filesystem(url: str) -> tuple[Any, str]:
    """``(fsspec filesystem, path within it)`` for ``url``; RemoteError when the protocol
    is unknown or its back-end is not installed."""
    protocol = protocol_of(url) or "file"
    try:
        import fsspec
    except ImportError as exc:
        raise RemoteError(f"{url}: reading URLs needs fsspec: pip install fsspec") from exc
    try:
        fsspec.get_filesystem_class(protocol)
    except ImportError as exc:
        raise _missing_backend(url, protocol, exc) from exc
    except ValueError as exc:
        raise RemoteError(
            f"{url}: {protocol}:// is not a protocol fsspec knows; use gs://, s3://, "
            "http(s):// or a local path"
        ) from exc
    try:
        result: tuple[Any, str] = fsspec.core.url_to_fs(url, **_options(protocol))
        return result
    except ImportError as exc:
        raise _missing_backend(url, protocol, exc) from exc
    except Exception as exc:  # noqa: BLE001 - back-ends raise many types for bad settings
        raise RemoteError(f"{url}: cannot connect ({_reason(exc)})") from exc


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0][:300]


def _status(exc: BaseException) -> int | None:
    """The HTTP status an error carries, when it carries one."""
    for name in ("status", "status_code", "code"):
        value = getattr(exc, name, None)
        if isinstance(value, int):
            return value
    response = getattr(exc, "response", None)
    if isinstance(response, dict):  # botocore's ClientError
        code = response.get("ResponseMetadata", {}).get("HTTPStatusCode")
        return code if isinstance(code, int) else None
    return None


def _unwrap(exc: BaseException) -> BaseException:
    """The real failure behind fsspec's HTTP lookups, which call any failure (a timeout,
    a refused connection, a 500) "file not found"."""
    cause = exc.__cause__
    if isinstance(exc, FileNotFoundError) and cause is not None and _status(cause) != 404:
        return cause
    return exc


def _permanent(exc: BaseException) -> bool:
    """Errors that another try cannot fix: missing, forbidden, bad request."""
    if isinstance(exc, (FileNotFoundError, PermissionError, IsADirectoryError)):
        return True
    status = _status(exc)
    return status is not None and 400 <= status < 500 and status not in (408, 429)


def _explain(url: str, exc: BaseException) -> str:
    if isinstance(exc, FileNotFoundError):
        return f"{url}: no such object (check the URL)"
    status = _status(exc)
    if isinstance(exc, PermissionError) or status in (401, 403):
        return f"{url}: access denied ({_reason(exc)}); check the credentials of this bucket"
    return f"{url}: {_reason(exc)}"


def call(url: str, what: str, fn: Callable[[], Any]) -> Any:
    """Run one request with the retry policy; RemoteError saying ``what`` failed."""
    last: BaseException | None = None
    attempts = retries()
    for attempt in range(attempts):
        try:
            return fn()
        except FileChanged:
            forget(url)  # the next open asks for the new version
            raise
        except RemoteError:
            raise
        except Exception as raised:  # noqa: BLE001 - network stacks raise many types
            exc = _unwrap(raised)
            if _permanent(exc):
                raise RemoteError(_explain(url, exc)) from exc
            last = exc
            if attempt + 1 < attempts:
                time.sleep(min(2.0, 0.2 * 2**attempt))
    assert last is not None
    raise RemoteError(
        f"{url}: {what} failed after {plural(attempts, 'attempt')} ({_reason(last)}); "
        "check the network connection and retry"
    ) from last


@dataclass(frozen=True)
class RemoteStat:
    """What the server says about an object: its size and a version tag (ETag, GCS
    generation or modification time), which keys the persistent index cache."""

    url: str
    size: int
    tag: str | None

    @property
    def etag(self) -> str | None:
        """The ETag, when the version tag is one (what ``If-Match`` compares)."""
        if self.tag is None or not self.tag.lower().startswith("etag="):
            return None
        return self.tag.split("=", 1)[1]


_STATS: dict[str, tuple[float, RemoteStat]] = {}
_STAT_SECONDS = 30.0  # how long an answer is reused (one open does several lookups)


def stat(url: str, fresh: bool = False) -> RemoteStat:
    """The object's size and version tag (asked again after ``_STAT_SECONDS``, or now
    when ``fresh``)."""
    known = _STATS.get(url)
    if not fresh and known is not None and time.monotonic() - known[0] < _STAT_SECONDS:
        return known[1]
    found = _stat(url)
    _STATS[url] = (time.monotonic(), found)
    return found


def forget(url: str) -> None:
    """Drop what is known of ``url``: the next :func:`stat` asks the server. Called
    when a scan of the file begins, so that its cache lookup and its reads share one
    fresh answer."""
    _STATS.pop(url, None)


def unchanged(url: str, seen: RemoteStat) -> None:
    """Ask the server again, after a file was read through: :class:`FileChanged` when
    the object's size or version tag is no longer ``seen`` (what it was when opened).
    The check for back-ends whose range reads cannot be made conditional (GCS and any
    other fsspec protocol); http(s) and S3 reads are conditional too, so a replaced
    object is caught at its first read after the change."""
    now = stat(url, fresh=True)
    if (now.size, now.tag) != (seen.size, seen.tag):
        forget(url)  # the next open asks for the new version
    if now.size != seen.size:
        raise FileChanged.while_read(url, f"now {now.size:,} bytes, was {seen.size:,}")
    if now.tag != seen.tag:
        raise FileChanged.while_read(url, f"its version is now {now.tag}, was {seen.tag}")


def _stat(url: str) -> RemoteStat:
    fs, path = filesystem(url)
    info = call(url, "asking for the file's size", lambda: fs.info(path))
    if info.get("type") == "directory":
        raise RemoteError(f"{url}: is a folder; name the files, or a glob such as {url}/*")
    size = info.get("size")
    if size is None:
        raise RemoteError(
            f"{url}: the server does not tell the file's size, so it cannot be read in "
            "ranges; download it and open the local copy"
        )
    tag = None
    for key in ("generation", "ETag", "etag", "LastModified", "Last-Modified", "mtime"):
        if info.get(key) not in (None, ""):
            tag = f"{key}={info[key]}"
            break
    return RemoteStat(url, int(size), tag)


@dataclass(frozen=True)
class Transferred:
    """Bytes, requests and seconds spent reading remote files; added up with ``+``;
    ``to_json()`` is the ``transfer`` object of ``verify --json`` and ``info --json``."""

    bytes: int = 0
    requests: int = 0
    seconds: float = 0.0

    def __add__(self, other: Transferred) -> Transferred:
        return Transferred(
            self.bytes + other.bytes, self.requests + other.requests, self.seconds + other.seconds
        )

    def to_json(self) -> dict[str, float]:
        return {"bytes": self.bytes, "requests": self.requests, "seconds": self.seconds}


class Transfer:
    """Bytes, requests and seconds spent on one file's requests (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.bytes = 0
        self.requests = 0
        self.seconds = 0.0

    def add(self, nbytes: int, seconds: float) -> None:
        with self._lock:
            self.bytes += nbytes
            self.requests += 1
            self.seconds += seconds

    def so_far(self) -> Transferred:
        with self._lock:
            return Transferred(self.bytes, self.requests, self.seconds)


class Fetcher:
    """``fetch(start, end)``: bytes ``[start, end)`` of a remote object by one range
    request (retried as :func:`call` says), counted in :attr:`transfer`."""

    def __init__(self, url: str, size: int, etag: str | None = None) -> None:
        self.url = url
        self.size = size
        self.etag = etag  # http(s): every range is asked for this version of the object
        self.fs, self.path = filesystem(url)
        self.http = protocol_of(url) in ("http", "https")
        self.s3 = protocol_of(url) in ("s3", "s3a") and hasattr(self.fs, "_call_s3")
        self.transfer = Transfer()

    def __call__(self, start: int | None, end: int | None) -> bytes:
        start = 0 if start is None else max(0, start)
        end = self.size if end is None else min(end, self.size)
        if start >= end:
            return b""
        result: bytes = call(
            self.url, f"reading bytes {start:,} to {end:,}", lambda: self._get(start, end)
        )
        return result

    def _get(self, start: int, end: int) -> bytes:
        t0 = time.monotonic()
        data = b""
        try:
            if self.http:  # bounded in time and bytes, conditional on the version
                from .http_range import read_range

                data = read_range(self.url, start, end, self.etag, timeout(), self.size)
                return data
            if self.s3 and self.etag:
                data = self._s3_range(start, end)
            else:
                data = self.fs.cat_file(self.path, start=start, end=end)
        finally:
            self.transfer.add(len(data), time.monotonic() - t0)
        want = end - start
        if len(data) == want:
            return data
        if len(data) > want:
            raise RemoteError(
                f"{self.url}: the server ignores range requests (it sent {len(data):,} bytes "
                f"for {want:,}); download the file and open the local copy"
            )
        raise OSError(f"the answer was cut short ({len(data):,} of {want:,} bytes)")

    def _s3_range(self, start: int, end: int) -> bytes:
        """One S3 GET of ``[start, end)`` on the condition that the object still has
        the ETag it had when opened (a replaced object answers 412: FileChanged)."""
        from fsspec.asyn import sync

        bucket, key, version = self.fs.split_path(self.path)
        asked = {"VersionId": version} if version else {}

        async def get() -> bytes:
            answer = await self.fs._call_s3(
                "get_object",
                Bucket=bucket,
                Key=key,
                Range=f"bytes={start}-{end - 1}",
                IfMatch=self.etag,
                **asked,
            )
            body = answer["Body"]
            try:
                return bytes(await body.read())
            finally:
                body.close()

        try:
            result: bytes = sync(self.fs.loop, get)
            return result
        except Exception as exc:  # noqa: BLE001 - boto's errors, translated by s3fs
            if _status(exc) == 412 or "PreconditionFailed" in f"{exc!r} {exc.__cause__!r}":
                raise FileChanged.while_read(
                    self.url, f"its ETag is no longer {self.etag}"
                ) from None
            raise


class RemoteFile(io.RawIOBase):
    """A seekable, read-only file object over a :class:`Fetcher` that reads ahead
    ``readahead`` bytes per request: what stream decoders (rapidgzip, ISA-L) are given
    for compressed remote files. The first network failure is kept in :attr:`error`,
    since a decoder may turn the exception into its own."""

    def __init__(self, fetcher: Fetcher, readahead: int = 8 << 20) -> None:
        super().__init__()
        self._fetch = fetcher
        self._readahead = readahead
        self._pos = 0
        self._buf = b""
        self._buf_start = 0
        self._lock = threading.Lock()
        self.error: RemoteError | None = None
        self.name = fetcher.url

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self._fetch.size}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def readinto(self, buf: Any) -> int:
        view = memoryview(buf).cast("B")
        with self._lock:
            pos, want = self._pos, len(view)
            if pos >= self._fetch.size or not want:
                return 0
            lo = pos - self._buf_start
            if not 0 <= lo < len(self._buf):
                try:
                    self._buf = self._fetch(pos, pos + max(want, self._readahead))
                except RemoteError as exc:
                    self.error = self.error or exc
                    raise
                self._buf_start, lo = pos, 0
            n = min(want, len(self._buf) - lo)
            view[:n] = self._buf[lo : lo + n]
            self._pos = pos + n
            return n

    def close(self) -> None:
        self._buf = b""
        super().close()

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            size = max(0, self._fetch.size - self._pos)
        buf = bytearray(size)
        got = 0
        while got < size:
            n = self.readinto(memoryview(buf)[got:])
            if not n:
                break
            got += n
        return bytes(buf[:got])
