"""An Object Detection API dataset, written by TensorFlow, with one planted data-quality
fault per record (``planted_dataset``) and its clean twin (``clean_dataset``)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.io.dataset import Dataset

RECORDS = 40
NAMES = {1: "circle", 2: "square", 3: "triangle"}


def _size(i: int) -> tuple[int, int]:
    return 56 + i % 9 * 2, 44 + i % 5 * 2


def _pixels(i: int, size: tuple[int, int] | None = None, grey: bool = False) -> np.ndarray:
    """Random 8×8 blocks of colour: sharp, varied, different in every record."""
    w, h = size or _size(i)
    rng = np.random.default_rng(i)
    small = rng.integers(0, 256, (h // 8 + 1, w // 8 + 1, 1 if grey else 3))
    big = np.repeat(np.repeat(small, 8, 0), 8, 1)[:h, :w].astype(np.uint8)
    return big[..., 0] if grey else big


def _jpeg(pixels, quality: int = 90, **options) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "JPEG", quality=quality, **options)
    return out.getvalue()


def _encoded(pixels, fmt: str, **options) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(pixels).save(out, fmt, **options)
    return out.getvalue()


def png_claiming(width: int, height: int) -> bytes:
    """A well-formed PNG (every chunk whole, every CRC right) whose header claims
    ``width`` × ``height`` pixels, with almost no pixel data."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + chunk(b"IEND", b"")
    )


def clean_record(i: int) -> dict:
    label = 1 + i % 3
    w, h = _size(i)
    return {
        "image/encoded": [_jpeg(_pixels(i))],
        "image/format": [b"jpeg"],
        "image/filename": [f"img{i}.jpg".encode()],
        "image/height": [h],
        "image/width": [w],
        "image/object/bbox/xmin": [0.1],
        "image/object/bbox/ymin": [0.2],
        "image/object/bbox/xmax": [0.6],
        "image/object/bbox/ymax": [0.7],
        "image/object/class/label": [label],
        "image/object/class/text": [NAMES[label].encode()],
    }


def _plant(records: list[dict]) -> dict[tuple[str, int], str | None]:
    """Plant one fault per record; returns ``{(kind, record): feature}``."""
    from PIL import Image, ImageFilter

    r = records
    r[1]["image/encoded"] = [b"\xff\xd8\xff\xe0" + bytes(range(60))]
    r[2]["image/height"] = [100]
    r[3]["image/format"] = [b"png"]
    r[4]["image/encoded"] = list(r[0]["image/encoded"])
    r[5]["image/object/bbox/xmin"] = [0.1, 0.3]
    r[6]["image/object/bbox/xmin"], r[6]["image/object/bbox/xmax"] = [0.8], [0.2]
    r[7]["image/object/bbox/xmax"] = [1.2]
    for side, v in (("xmin", 10.0), ("ymin", 5.0), ("xmax", 50.0), ("ymax", 40.0)):
        r[8][f"image/object/bbox/{side}"] = [v]
    r[9]["image/object/bbox/xmax"] = [0.1]
    r[10]["image/object/class/label"], r[10]["image/object/class/text"] = [], []
    r[11]["image/object/class/label"] = [0]
    r[11]["image/object/class/text"] = [b"background"]
    r[12]["image/object/class/label"], r[12]["image/object/class/text"] = [7], [b"circle"]
    for side in ("xmin", "ymin", "xmax", "ymax"):
        r[13][f"image/object/bbox/{side}"] = []
    r[13]["image/object/class/label"], r[13]["image/object/class/text"] = [], []
    r[14].clear()
    r[15]["image/height"] = [float(r[15]["image/height"][0])]
    del r[16]["image/filename"]
    r[17]["image/width"] = r[17]["image/width"] * 2
    r[4]["image/width"], r[4]["image/height"] = r[0]["image/width"], r[0]["image/height"]
    # dark and light, but sharp and varied (dim images are blurry by cleanvision's measure)
    r[19]["image/encoded"] = [_jpeg(((_pixels(19) > 127) * 78).astype(np.uint8))]
    r[20]["image/encoded"] = [_jpeg(_pixels(0), quality=70)]  # record 0, re-encoded
    r[20]["image/width"], r[20]["image/height"] = r[0]["image/width"], r[0]["image/height"]
    exif = Image.Exif()
    exif[0x0112] = 6  # turned 90 degrees clockwise
    r[21]["image/encoded"] = [_jpeg(_pixels(21), exif=exif)]
    r[22]["image/encoded"] = [_jpeg(_pixels(22, grey=True))]
    r[23]["image/encoded"] = [_jpeg(_pixels(23, (400, 300)))]
    r[23]["image/width"], r[23]["image/height"] = [400], [300]
    r[24]["image/encoded"] = [_jpeg((243 + _pixels(24) // 64 * 4).astype(np.uint8))]
    r[25]["image/encoded"] = [_jpeg(_pixels(25, (200, 20)))]
    r[25]["image/width"], r[25]["image/height"] = [200], [20]
    r[26]["image/encoded"] = [_jpeg(np.full(_size(26)[::-1] + (3,), (200, 120, 60), np.uint8))]
    blurred = Image.fromarray(_pixels(27)).filter(ImageFilter.GaussianBlur(3))
    r[27]["image/encoded"] = [_jpeg(np.asarray(blurred))]
    r[28]["image/encoded"] = [_encoded(_pixels(28), "TIFF")]
    r[28]["image/format"] = [b"tiff"]
    r[29]["image/encoded"] = [png_claiming(20_000, 20_000)]
    r[29]["image/width"], r[29]["image/height"] = [20_000], [20_000]
    r[29]["image/format"] = [b"png"]
    frames = [Image.fromarray(_pixels(30)), Image.fromarray(_pixels(31))]
    gif = _encoded(_pixels(30), "GIF", save_all=True, append_images=frames[1:])
    r[30]["image/encoded"] = [gif[: len(gif) - 40]]  # the second frame cut short
    r[30]["image/format"] = [b"gif"]
    r[31]["image/File-Name"] = list(r[31]["image/filename"])  # a second spelling of a key
    return {
        ("image_undecodable", 1): "image/encoded",
        ("image_size_mismatch", 2): "image/height",
        ("image_format_mismatch", 3): "image/format",
        ("duplicate_image", 4): "image/encoded",
        ("bbox_length_mismatch", 5): "image/object/bbox/xmin",
        ("box_inverted", 6): "image/object/bbox/xmin",
        ("box_out_of_range", 7): "image/object/bbox/xmax",
        ("box_pixel_coordinates", 8): "image/object/bbox/xmax",
        ("box_zero_area", 9): "image/object/bbox/xmax",
        ("box_without_class", 10): "image/object/class/label",
        ("class_id_zero", 11): "image/object/class/label",
        ("class_text_ids", 12): None,
        ("image_without_boxes", 13): None,
        ("empty_record", 14): None,
        ("kind_conflict", 15): "image/height",
        ("feature_missing", 16): "image/filename",
        ("value_count_differs", 17): "image/width",
        ("damaged_record", 18): None,
        ("image_dark", 19): "image/encoded",
        ("near_duplicate_image", 20): "image/encoded",
        ("exif_rotation", 21): "image/encoded",
        ("image_grayscale", 22): "image/encoded",
        ("image_odd_size", 23): "image/encoded",
        # all of a light image lies in the top 5% of brightness: too little contrast for
        # edges, so it is blurry by cleanvision's measure too
        ("image_light", 24): "image/encoded",
        ("image_blurry", 24): "image/encoded",
        ("image_odd_aspect_ratio", 25): "image/encoded",
        # a uniform image has no edges either: cleanvision's blur score flags it too
        ("image_low_information", 26): "image/encoded",
        ("image_blurry", 26): "image/encoded",
        ("image_blurry", 27): "image/encoded",
        ("image_format_unsupported", 28): "image/encoded",
        ("image_too_large", 29): "image/encoded",
        ("image_frames_dropped", 30): "image/encoded",
        ("key_spelling", 31): "image/File-Name",
    }


def example_of(features: dict) -> bytes:
    t = tf().train
    out = {}
    for key, values in features.items():
        if (
            values
            and isinstance(values[0], bytes)
            or key.endswith(("format", "text", "encoded", "filename"))
        ):
            out[key] = t.Feature(bytes_list=t.BytesList(value=values))
        elif values and isinstance(values[0], float) or "bbox" in key:
            out[key] = t.Feature(float_list=t.FloatList(value=values))
        else:
            out[key] = t.Feature(int64_list=t.Int64List(value=values))
    return t.Example(features=t.Features(feature=out)).SerializeToString()


def _damage(path: Path, record: int) -> None:
    with Dataset([str(path)]) as ds:
        ds.index()
        offset = ds.ref(record).offset
    data = bytearray(path.read_bytes())
    data[offset + 12 + 5] ^= 0xFF  # a payload byte: the data CRC no longer matches
    path.write_bytes(bytes(data))


def clean_dataset(path) -> None:
    """The clean twin: every record as ``clean_record`` makes it."""
    tf_write(path, [example_of(clean_record(i)) for i in range(RECORDS)])


def _with_entry(example: bytes, entry: bytes) -> bytes:
    """``example`` (one features field) with ``entry`` added inside its features."""
    length, shift, pos = 0, 0, 1
    while True:
        byte = example[pos]
        length |= (byte & 0x7F) << shift
        pos, shift = pos + 1, shift + 7
        if byte < 0x80:
            break
    body = example[pos : pos + length] + entry
    size = len(body)
    head = bytearray()
    while True:
        head.append((size & 0x7F) | (0x80 if size > 0x7F else 0))
        size >>= 7
        if not size:
            break
    return b"\x0a" + bytes(head) + body + example[pos + length :]


def _plant_wire(payloads: list[bytes]) -> dict[tuple[str, int], str | None]:
    """Faults of the wire format, which TensorFlow's parser reads its own way."""
    payloads[31] += b"\x08\x01"  # a field 1 that is no message: TensorFlow skips it
    key = b"image/filename"  # an entry with a key and no value: TensorFlow refuses it
    payloads[32] = _with_entry(payloads[32], b"\x0a" + bytes([len(key) + 2, 0x0A, len(key)]) + key)
    key = b"image/note\xff"  # a key that is not UTF-8: TensorFlow reads it, protobuf not
    payloads[33] = _with_entry(
        payloads[33], b"\x0a\x13\x0a\x0b" + key + b"\x12\x04\x1a\x02\x08\x01"
    )
    return {
        ("example_read_differently", 31): None,
        ("example_unparseable", 32): None,
        ("key_not_utf8", 33): "image/note\\xff",
    }


def planted_dataset(path) -> dict[tuple[str, int], str | None]:
    """The faulty dataset, record 18 damaged; ``{(kind, record): feature}`` planted."""
    path = Path(path)
    records = [clean_record(i) for i in range(RECORDS)]
    planted = _plant(records)
    payloads = [example_of(r) for r in records]
    planted.update(_plant_wire(payloads))
    tf_write(path, payloads)
    _damage(path, 18)
    return planted
