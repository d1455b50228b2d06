"""Whether image bytes decode, decided by decoding them: the one verdict every command
and the window give an image.

:func:`judge` decodes the whole image with Pillow, truncated images not allowed, as
``tf.io.decode_image`` would, and says what failed where it does not decode. Where
Pillow is more forgiving than TensorFlow's decoders, the container is checked first: a
PNG must reach its IEND chunk with the CRC of every critical chunk right (libpng
refuses otherwise), a GIF must reach its trailer through well-formed blocks (giflib
does), and an uncompressed image must hold the bytes its header promises.

Three outcomes:

- ``error``: the bytes do not decode (``image_undecodable``); training on them fails;
- ``warning``: Pillow decodes them but ``tf.io.decode_image`` does not read the format
  (TIFF, and any format other than JPEG, PNG, GIF, BMP and WebP), or the image is too
  large for the pixel budget (:data:`MAX_PIXELS`) and was not decoded;
- neither: the image decodes, in a format TensorFlow reads.

With ``side``, a JPEG larger than ``side`` decodes at 1/2 to 1/8 scale (Pillow's draft
mode): every byte of its entropy-coded data is still decoded, so a cut or damaged JPEG
fails the same way, at a fraction of the cost.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import threading
import zlib
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any

from .same_bytes import SameBytes, equal, key_of

MAX_PIXELS = 120_000_000  # 120 megapixels: larger headers are reported, not decoded


def too_large(width: int, height: int) -> str | None:
    """Why an image of this size is not decoded, or None when it may be."""
    if width * height <= MAX_PIXELS:
        return None
    return (
        f"too large to decode: {width:,}×{height:,} is {width * height / 1e6:,.0f} "
        f"megapixels, above the limit of {MAX_PIXELS / 1e6:,.0f}"
    )


# what tf.io.decode_image reads (TensorFlow 2.x; WebP since 2.16)
TENSORFLOW_FORMATS = frozenset({"jpeg", "png", "gif", "bmp", "webp"})
QUICK_SIDE = 64  # the side a JPEG decodes at when only its verdict and a small copy are wanted
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class ImageVerdict:
    """What decoding an image's bytes showed. ``format`` is lower case (``jpeg``) or
    None when the bytes are no image format known; ``width``/``height``/``mode`` come
    from the header (0 and "" when it cannot be read)."""

    format: str | None
    width: int = 0
    height: int = 0
    mode: str = ""
    error: str | None = None  # why the bytes do not decode
    warning: str | None = None  # decodes with Pillow, but see the module's text
    too_large: bool = False  # not decoded: above the pixel budget

    @property
    def decodes(self) -> bool:
        """Whether the image was decoded in full without error."""
        return self.error is None and not self.too_large

    @property
    def problem(self) -> str | None:
        """The error, else the warning, else None."""
        return self.error or self.warning

    @property
    def finding(self) -> tuple[str, str] | None:
        """``(kind, message)`` of the data-quality finding these bytes get, or None."""
        if self.error is not None:
            return "image_undecodable", self.error
        if self.warning is None:
            return None
        if self.too_large:
            return "image_too_large", self.warning
        if self.format not in TENSORFLOW_FORMATS:
            return "image_format_unsupported", self.warning
        return "image_frames_dropped", self.warning


def _first_bytes(data: bytes, quote: bool = True) -> str:
    """`` starting with ...``: the first bytes, as text or hex (nothing unless ``quote``)."""
    if not quote:
        return ""
    head = data[:8]
    if head and all(32 <= b < 127 for b in head):
        return f" starting with `{head.decode('ascii')}`"
    return " starting " + head.hex(" ")


def _not_an_image(data: bytes, quote: bool = True) -> ImageVerdict:
    if not data:
        return ImageVerdict(None, error="empty: 0 bytes, not an image")
    return ImageVerdict(None, error=f"not an image: {len(data):,} bytes{_first_bytes(data, quote)}")


def ends_whole(data: bytes | memoryview) -> bool:
    """Whether encoded picture bytes end as a whole picture of their format does: a
    JPEG with its end-of-image marker, a PNG with its IEND chunk. A question of the
    last bytes, not a verdict: a picture whose bytes were cut short fails it (and is
    then given its verdict by :func:`judge`); other formats fail it too."""
    view = memoryview(data)
    if bytes(view[:3]) == b"\xff\xd8\xff":
        tail = bytes(view[-64:]).rstrip(b"\x00")  # encoders may pad after the marker
        return tail.endswith(b"\xff\xd9")
    if bytes(view[:8]) == _PNG_SIGNATURE:
        return bytes(view[-12:]) == b"\x00\x00\x00\x00IEND\xaeB`\x82"
    return False


def _png_container(data: bytes) -> str | None:
    """Why the PNG's chunks are not whole, or None: every chunk up to IEND present, the
    CRC of each critical chunk right."""
    pos = len(_PNG_SIGNATURE)
    while True:
        if pos + 8 > len(data):
            return f"PNG ends after {len(data):,} bytes, before its IEND chunk"
        length = int.from_bytes(data[pos : pos + 4], "big")
        kind = data[pos + 4 : pos + 8]
        name = kind.decode("latin-1")
        end = pos + 8 + length + 4
        if end > len(data):
            return f"PNG ends after {len(data):,} bytes, inside its {name} chunk at byte {pos:,}"
        crc = int.from_bytes(data[end - 4 : end], "big")
        critical = kind[:1].isupper()
        if critical and zlib.crc32(data[pos + 4 : end - 4]) != crc:
            return f"PNG chunk {name} at byte {pos:,} fails its CRC: its bytes are damaged"
        if kind == b"IEND":
            return None
        pos = end


def _gif_container(data: bytes) -> tuple[str | None, int]:
    """Why the GIF's blocks are not whole (or None: every block complete up to the
    trailer or the end of the bytes), and how many frames are whole before that."""
    n = len(data)
    frames = 0

    def table(packed: int) -> int:
        return 3 * (2 ** ((packed & 7) + 1)) if packed & 0x80 else 0

    def sub_blocks(pos: int) -> int:
        while pos < n:
            size = data[pos]
            pos += 1
            if size == 0:
                return pos
            pos += size
        return n + 1

    if n < 13:
        return f"GIF ends after {n:,} bytes, inside its header", 0
    pos = 13 + table(data[10])
    while pos < n:
        block = data[pos]
        if block == 0x3B:
            return None, frames
        if block == 0x21:
            pos = sub_blocks(pos + 2)
        elif block == 0x2C:
            if pos + 10 > n:
                break
            pos = sub_blocks(pos + 10 + table(data[pos + 9]) + 1)
            frames += pos <= n
        else:
            return f"GIF has no block of type 0x{block:02x} (at byte {pos:,})", frames
    if pos == n:
        return None, frames  # giflib takes the end of the bytes for the trailer
    return f"GIF ends after {n:,} bytes, inside frame {frames + 1}", frames


def _promised_bytes(img: Any) -> int | None:
    """The bytes an uncompressed image's header promises, or None when compressed."""
    tile = getattr(img, "tile", None)
    if not tile or len(tile) != 1:
        return None
    codec, _, offset, args = tile[0][:4]
    if codec != "raw" or not isinstance(args, tuple) or len(args) < 2:
        return None
    stride = args[1]
    if not isinstance(stride, int) or stride <= 0:
        return None
    return int(offset) + stride * int(img.height)


class PixelBudget:
    """The pixels being decoded at once in this process, across all its threads: a
    decode waits while the others hold more than :data:`MAX_PIXELS` together, so that
    memory does not grow with the number of cores (one image within the budget always
    goes ahead)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self.peak = 0  # the most held at once (for the tests)
        self._free = threading.Condition()

    @contextlib.contextmanager
    def held(self, pixels: int) -> Iterator[None]:
        with self._free:
            while self.used and self.used + pixels > self.limit:
                self._free.wait()
            self.used += pixels
            self.peak = max(self.peak, self.used)
        try:
            yield
        finally:
            with self._free:
                self.used -= pixels
                self._free.notify_all()


PIXELS = PixelBudget(MAX_PIXELS)


def _decoded_pixels(img: Any, fmt: str, side: int | None) -> int:
    """The pixels a decode makes: fewer for a JPEG decoded at a reduced scale."""
    width, height = int(img.width), int(img.height)
    if fmt == "jpeg" and side is not None and max(width, height) > side:
        scale = 1
        while scale < 8 and max(width, height) // (scale * 2) >= side:
            scale *= 2
        return -(-width // scale) * -(-height // scale)
    return width * height


def _decode_all(img: Any, fmt: str, side: int | None) -> str | None:
    """Decode every pixel; raises what Pillow raises for the first frame, and says what
    failed in a later frame of an animation (TensorFlow keeps the frames before it)."""
    if fmt == "jpeg" and side is not None and max(img.size) > side:
        img.draft("RGB", (side, side))
    img.load()
    frames, frame, later = 1, 0, None
    try:
        frames = int(getattr(img, "n_frames", 1) or 1)
        for frame in range(1, frames):
            img.seek(frame)
            img.load()
    except Exception as exc:  # noqa: BLE001 - hostile bytes: any failure is the verdict
        later = f"frame {frame + 1} does not decode ({exc}); TensorFlow keeps {max(frame, 1)}"
    if frames > 1 or later is not None:
        img.seek(0)
        img.load()
    return later


def _failed(fmt: str, data: bytes, exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if "truncated" in text or isinstance(exc, EOFError):
        return f"{fmt.upper()} ends after {len(data):,} bytes, before the image is complete"
    return f"{fmt.upper()} data cannot be decoded: {text}"


def judge(
    data: bytes, side: int | None = None, keep: bool = False, quote: bool = True
) -> tuple[ImageVerdict, Any]:
    """The verdict on ``data`` (see the module's text), and the decoded Pillow image when
    ``keep`` and it decoded (the caller closes it), else None. Without ``quote`` no
    byte of ``data`` appears in the messages (for files named by a user's sources)."""
    from PIL import Image, ImageFile, UnidentifiedImageError

    from .detect import image_format

    Image.MAX_IMAGE_PIXELS = None  # the budget is ours (too_large), checked before decoding
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    magic = image_format(data[:32])
    opened = data
    if magic is None and data[:4] == b"GIF8":  # giflib reads any version after "GIF"
        magic, opened = "gif", b"GIF89a" + data[6:]
    try:
        img = Image.open(io.BytesIO(opened))
    except UnidentifiedImageError:
        if magic is None:
            return _not_an_image(data, quote), None
        unread = (
            f"{magic.upper()} header cannot be read: {len(data):,} bytes{_first_bytes(data, quote)}"
        )
        return ImageVerdict(magic, error=unread), None
    except Exception as exc:  # noqa: BLE001 - hostile bytes: any failure is the verdict
        if magic is None:
            return _not_an_image(data, quote), None
        return ImageVerdict(magic, error=_failed(magic, data, exc)), None
    fmt = magic or str(img.format or "image").lower()
    header = functools.partial(ImageVerdict, fmt, int(img.width), int(img.height), str(img.mode))
    container, later = None, None
    if fmt == "png":
        container = _png_container(data)
    elif fmt == "gif":
        container, whole = _gif_container(opened)
        if container is not None and whole:  # TensorFlow keeps the whole frames
            container, later = None, f"{container}; TensorFlow keeps {whole} frames"
    promised = _promised_bytes(img)
    if container is None and promised is not None and promised > len(data):
        container = (
            f"{fmt.upper()} ends after {len(data):,} of the {promised:,} bytes its header promises"
        )
    if container is not None:
        img.close()
        return header(error=container), None
    if not img.width or not img.height:
        img.close()
        return header(error=f"{fmt.upper()} header says 0 pixels"), None
    large = too_large(img.width, img.height)
    if large is not None:
        img.close()
        return header(warning=large, too_large=True), None
    try:
        with PIXELS.held(_decoded_pixels(img, fmt, side)):
            later = _decode_all(img, fmt, side) or later
    except Exception as exc:  # noqa: BLE001 - hostile bytes: any failure is the verdict
        img.close()
        return header(error=_failed(fmt, data, exc)), None
    warning = later
    if fmt not in TENSORFLOW_FORMATS:
        warning = f"TensorFlow's decode_image cannot decode {fmt.upper()}"
    verdict = header(warning=warning)
    if keep:
        return verdict, img
    img.close()
    return verdict, None


def verdict_of(data: bytes, side: int | None = None) -> ImageVerdict:
    """The verdict alone (see :func:`judge`)."""
    return judge(data, side)[0]


_POOL: list[ThreadPoolExecutor] = []  # one pool per process (Pillow decodes without the GIL)


def _forget_pool() -> None:
    _POOL.clear()  # a forked child has none of its parent's threads


os.register_at_fork(after_in_child=_forget_pool)


def image_pool() -> ThreadPoolExecutor:
    """The process's pool of threads that decode images, one per core."""
    if not _POOL:
        _POOL.append(ThreadPoolExecutor(os.cpu_count() or 1, "tfr-images"))
    return _POOL[0]


_JUDGED: SameBytes[ImageVerdict] = SameBytes()


def verdicts(
    values: Sequence[bytes], side: int | None = None, crcs: Sequence[int] | None = None
) -> list[ImageVerdict]:
    """:func:`verdict_of` each value, decoded in parallel; a value byte-identical to one
    judged before (in this call or a recent one) takes its verdict without a decode.
    ``crcs``: each value's CRC32C, when the caller has computed them."""
    keys = (
        [key_of(v) for v in values]
        if crcs is None
        else [key_of(v, c) for v, c in zip(values, crcs, strict=True)]
    )
    found: list[ImageVerdict | None] = [
        _JUDGED.get(v, side, k) for v, k in zip(values, keys, strict=True)
    ]
    first: dict[tuple[int, int], list[int]] = {}  # the values to judge, by key
    same: dict[int, int] = {}  # a value -> the identical one judged for it
    for i, (v, k) in enumerate(zip(values, keys, strict=True)):
        if found[i] is None:
            twins = first.setdefault(k, [])
            match = next((j for j in twins if equal(values[j], v)), None)
            if match is None:
                twins.append(i)
            else:
                same[i] = match
    todo = [i for twins in first.values() for i in twins]
    judged = [bytes(values[i]) for i in todo]  # the values may be views of a buffer
    if len(todo) < 2:
        fresh = [verdict_of(v, side) for v in judged]
    else:
        fresh = list(image_pool().map(partial(verdict_of, side=side), judged))
    for i, data, verdict in zip(todo, judged, fresh, strict=True):
        _JUDGED.put(data, verdict, side, keys[i])
        found[i] = verdict
    for i, j in same.items():
        found[i] = found[j]
    return found  # type: ignore[return-value]
