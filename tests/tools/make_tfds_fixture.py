"""Make ``tests/data/tfds`` and ``tests/data/tfds_array_record``: one small builder of
TensorFlow Datasets (pictures of shapes; a ClassLabel per image and boxes with a
ClassLabel each), prepared by ``tensorflow_datasets`` itself as TFRecord and as
ArrayRecord shards. Needs ``pip install tensorflow-cpu tensorflow-datasets`` (not a
test dependency: the folders are kept in the repository).
``python tests/tools/make_tfds_fixture.py tests/data``"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
import tensorflow_datasets as tfds


class Shapes(tfds.core.GeneratorBasedBuilder):
    """Small pictures of shapes, with boxes."""

    VERSION = tfds.core.Version("1.0.0")

    def _info(self) -> tfds.core.DatasetInfo:
        objects = tfds.features.Sequence(
            {
                "bbox": tfds.features.BBoxFeature(),
                "label": tfds.features.ClassLabel(names=["small", "large"]),
            }
        )
        return self.dataset_info_from_configs(
            features=tfds.features.FeaturesDict(
                {
                    "image": tfds.features.Image(shape=(None, None, 3), encoding_format="png"),
                    "label": tfds.features.ClassLabel(names=["circle", "square", "triangle"]),
                    "objects": objects,
                }
            )
        )

    def _split_generators(self, dl_manager):  # noqa: ANN001, ANN202
        return {"train": self._generate_examples(0, 12), "test": self._generate_examples(100, 5)}

    def _generate_examples(self, start: int, n: int):  # noqa: ANN202
        for i in range(start, start + n):
            rng = np.random.default_rng(i)
            image = rng.integers(0, 255, (24 + i % 5, 32, 3), dtype=np.uint8)
            boxes = []
            for k in range(1 + i % 3):
                y0, x0 = rng.uniform(0, 0.5, 2)
                box = tfds.features.BBox(ymin=y0, xmin=x0, ymax=y0 + 0.3, xmax=x0 + 0.4)
                boxes.append({"bbox": box, "label": k % 2})
            yield i, {"image": image, "label": i % 3, "objects": boxes}


def main(out: str) -> None:
    for folder, file_format in (("tfds", "tfrecord"), ("tfds_array_record", "array_record")):
        with tempfile.TemporaryDirectory() as work:
            builder = Shapes(data_dir=work, file_format=file_format)
            builder.download_and_prepare()
            target = Path(out) / folder / "shapes" / "1.0.0"
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(builder.data_dir, target)


if __name__ == "__main__":
    main(sys.argv[1])
