"""Files that are not TFRecords, named for what they are: a Git LFS pointer, Riegeli
(ArrayRecord), MXNet's RecordIO, Parquet, HDF5, NumPy arrays, a zip archive, one
serialized protobuf message, JSON or CSV text. :func:`identify` reads the start of a
file (and the whole of a small one) and says what it is and what to do, in a few words
that follow "not a TFRecord file: "."""

from __future__ import annotations

import zipfile
from collections.abc import Callable

HEAD = 4096  # bytes looked at for a signature
WHOLE = 16 << 20  # a file up to this size is also tried as one protobuf message

RIEGELI = bytes.fromhex("83af70d10d884a3f")  # the hash that starts every Riegeli file
RIEGELI_SAID = (
    "it is a Riegeli file (ArrayRecord, or another Riegeli writer): read it with the "
    "`array_record` or `riegeli` package, or have its writer make TFRecord files"
)
_RECORDIO = bytes.fromhex("0a23d7ce")  # MXNet's RecordIO magic, little-endian

# (signature at byte 0, what the file is and what to do)
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (
        b"version https://git-lfs.github.com/spec/",
        "it is a Git LFS pointer, and the data was never downloaded: run `git lfs pull` in "
        "its repository, then open the file again",
    ),
    (RIEGELI, RIEGELI_SAID),
    (
        _RECORDIO,
        "it is an MXNet RecordIO file: read it with mxnet.recordio, or convert its records "
        "to TFRecord",
    ),
    (b"PAR1", "it is a Parquet file: read it with pyarrow or pandas"),
    (b"\x89HDF\r\n\x1a\n", "it is an HDF5 file: read it with h5py"),
    (b"\x93NUMPY", "it is a NumPy .npy array: read it with numpy.load"),
)


def identify(read: Callable[[int, int], bytes], size: int) -> str | None:
    """What a file of ``size`` bytes is, when it is one of the look-alikes (``read(offset,
    n)`` gives its bytes); None when it is none of them."""
    head = read(0, min(size, HEAD))
    for signature, what in _SIGNATURES:
        if head.startswith(signature):
            return what
    if head.startswith(b"PK\x03\x04"):
        return _zip(read, size)
    if 0 < size <= WHOLE and (message := _one_message(read(0, size))) is not None:
        return message
    return _text(head)


def _zip(read: Callable[[int, int], bytes], size: int) -> str:
    import io

    try:
        with zipfile.ZipFile(io.BytesIO(read(0, min(size, WHOLE)))) as archive:
            names = archive.namelist()
    except (zipfile.BadZipFile, ValueError, OSError):
        names = []
    if names and all(n.endswith(".npy") for n in names):
        return "it is a NumPy .npz archive: read it with numpy.load"
    return "it is a zip archive: unpack it, then open the TFRecord files inside"


def _one_message(data: bytes) -> str | None:
    """A file that is one protobuf message whole (written with SerializeToString, not
    with a TFRecord writer): the type its bytes read as, when they are a message."""
    from ..decode.payloads import choose, raw_proto

    if not raw_proto.bid(data).priority:
        return None
    return (
        f"it is one serialized protobuf message ({len(data):,} bytes; it reads as a "
        f"{choose(data).TYPE} payload), written without TFRecord frames: write each "
        "message with tf.io.TFRecordWriter, or decode it with its class's FromString"
    )


def _text(head: bytes) -> str | None:
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        # the head may end inside a character
        try:
            text = head[:-3].decode("utf-8")
        except UnicodeDecodeError:
            return None
    if not text or not all(c.isprintable() or c in "\t\r\n" for c in text):
        return None
    start = text.lstrip()[:1]
    if start in ("{", "["):
        return (
            "it is JSON text: `tfr-viewer convert` builds TFRecords from a COCO JSON file, "
            "a CSV file or a folder of images"
        )
    first = text.splitlines()[0] if text.splitlines() else ""
    if "," in first and "\n" in text:
        return "it is CSV text: `tfr-viewer convert FILE.csv -o OUT` builds TFRecords from it"
    return "it is plain text: check the path"
