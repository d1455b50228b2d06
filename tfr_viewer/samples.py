"""Generate the bundled sample dataset from images drawn here, with the project's writer.

``python -m tfr_viewer.samples OUT_DIR`` writes:

- ``shapes_odapi.tfrecord``: JPEG shapes with boxes in the Object Detection API layout;
- ``classes_tutorial.tfrecord``: PNG images in the TensorFlow tutorial layout;
- ``sequences.tfrecord``: SequenceExamples (context plus per-frame features);
- ``shapes_gzip.tfrecord-0000N-of-00003``: a GZIP-compressed shard set.
"""

from __future__ import annotations

import io
import os
import random
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from .core.io import Compression, write_records
from .core.write import build_example, build_sequence_example

if TYPE_CHECKING:
    from PIL import Image

CLASSES = ["circle", "square", "triangle"]
COLORS = [(230, 80, 60), (60, 160, 90), (70, 110, 220), (230, 190, 40), (160, 80, 200)]


def _draw_shapes(
    rng: random.Random, width: int, height: int
) -> tuple[Image.Image, list[tuple[float, float, float, float, int]]]:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (width, height), tuple(rng.randrange(200, 256) for _ in range(3)))
    draw = ImageDraw.Draw(img)
    boxes = []
    for _ in range(rng.randint(1, 3)):
        label = rng.randrange(len(CLASSES))
        size = rng.randint(min(width, height) // 5, min(width, height) // 2)
        x0 = rng.randrange(0, width - size)
        y0 = rng.randrange(0, height - size)
        x1, y1 = x0 + size, y0 + size
        color = rng.choice(COLORS)
        if label == 0:
            draw.ellipse((x0, y0, x1, y1), fill=color)
        elif label == 1:
            draw.rectangle((x0, y0, x1, y1), fill=color)
        else:
            draw.polygon([(x0 + size // 2, y0), (x1, y1), (x0, y1)], fill=color)
        boxes.append((x0 / width, y0 / height, x1 / width, y1 / height, label))
    return img, boxes


def _encode(img: Image.Image, fmt: str) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format=fmt, **({"quality": 85} if fmt == "JPEG" else {}))
    return buf.getvalue()


def odapi_examples(count: int, seed: int) -> Iterator[bytes]:
    """Object Detection API records: ``image/encoded`` plus normalised boxes."""
    rng = random.Random(seed)
    for i in range(count):
        width, height = 160, 120
        img, boxes = _draw_shapes(rng, width, height)
        yield build_example(
            {
                "image/encoded": _encode(img, "JPEG"),
                "image/format": b"jpeg",
                "image/filename": f"shape_{seed}_{i:04d}.jpg",
                "image/height": height,
                "image/width": width,
                "image/object/bbox/xmin": [b[0] for b in boxes],
                "image/object/bbox/ymin": [b[1] for b in boxes],
                "image/object/bbox/xmax": [b[2] for b in boxes],
                "image/object/bbox/ymax": [b[3] for b in boxes],
                "image/object/class/text": [CLASSES[b[4]] for b in boxes],
                "image/object/class/label": [b[4] + 1 for b in boxes],
            },
            kinds={
                "image/object/bbox/xmin": "float",
                "image/object/bbox/ymin": "float",
                "image/object/bbox/xmax": "float",
                "image/object/bbox/ymax": "float",
            },
        )


def tutorial_examples(count: int, seed: int) -> Iterator[bytes]:
    """Tutorial layout: ``image_raw`` (PNG), ``label``, ``height``, ``width``, ``depth``."""
    from PIL import Image, ImageDraw

    rng = random.Random(seed)
    for _ in range(count):
        label = rng.randrange(len(CLASSES))
        img = Image.new("RGB", (48, 48), (250, 250, 250))
        draw = ImageDraw.Draw(img)
        color = rng.choice(COLORS)
        box = (
            8 + rng.randrange(6),
            8 + rng.randrange(6),
            36 + rng.randrange(6),
            36 + rng.randrange(6),
        )
        if label == 0:
            draw.ellipse(box, fill=color)
        elif label == 1:
            draw.rectangle(box, fill=color)
        else:
            draw.polygon(
                [((box[0] + box[2]) // 2, box[1]), (box[2], box[3]), (box[0], box[3])], fill=color
            )
        yield build_example(
            {
                "image_raw": _encode(img, "PNG"),
                "label": label,
                "height": 48,
                "width": 48,
                "depth": 3,
            }
        )


def sequence_examples(count: int, seed: int) -> Iterator[bytes]:
    """SequenceExamples: a clip id and length in the context, per-frame values in lists."""
    rng = random.Random(seed)
    for i in range(count):
        steps = rng.randint(3, 8)
        yield build_sequence_example(
            {"clip/id": f"clip-{i:03d}", "clip/length": steps},
            {
                "frame/position": [[rng.uniform(-1, 1), rng.uniform(-1, 1)] for _ in range(steps)],
                "frame/label": [[rng.randrange(len(CLASSES))] for _ in range(steps)],
            },
            kinds={"frame/position": "float", "frame/label": "int64"},
        )


def generate(out_dir: str) -> list[str]:
    """Write every sample file into ``out_dir``; return the paths written."""
    os.makedirs(out_dir, exist_ok=True)
    written = []

    def put(
        name: str, payloads: Iterable[bytes], compression: Compression = Compression.NONE
    ) -> None:
        path = os.path.join(out_dir, name)
        write_records(path, list(payloads), compression)
        written.append(path)

    put("shapes_odapi.tfrecord", odapi_examples(24, seed=1))
    put("classes_tutorial.tfrecord", tutorial_examples(30, seed=2))
    put("sequences.tfrecord", sequence_examples(8, seed=3))
    for shard in range(3):
        put(
            f"shapes_gzip.tfrecord-{shard:05d}-of-00003",
            odapi_examples(6, seed=10 + shard),
            Compression.GZIP,
        )
    return written


if __name__ == "__main__":
    for p in generate(sys.argv[1] if len(sys.argv) > 1 else "resources/samples"):
        print(p)
