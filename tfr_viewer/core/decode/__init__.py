"""Understanding the payloads: our protobuf schema, the decoder registry, content
detection, images, layouts (boxes, labels, masks) and the JSON form of a record.

Names are imported on first use, so that a command that only decodes and prints a
record does not load the image and layout modules.
"""

from __future__ import annotations

import importlib
from typing import Any

from .detect import IMAGE_FORMATS as IMAGE_FORMATS

# eager: the function ``detect`` must win over the submodule of the same name, which
# importing it would otherwise bind here (and every decode needs it anyway)
from .detect import detect as detect
from .detect import image_format as image_format
from .detect import image_info as image_info

_WHERE = {
    "MAX_PIXELS": "image_verdict",
    "ImageError": "images",
    "array_to_rgba": "images",
    "decode_image": "images",
    "decode_preview": "images",
    "raw_pixels": "images",
    "too_large": "image_verdict",
    "QUICK_SIDE": "image_verdict",
    "ImageVerdict": "image_verdict",
    "verdict_of": "image_verdict",
    "ImageAnnotation": "layouts",
    "KeyMap": "layouts",
    "recognise": "layouts",
    "decode": "payloads",
    "hexdump": "payloads.hexdump",
    "WIRE_TYPES": "payloads.raw_proto",
    "BytesPayload": "payloads.types",
    "Decoded": "payloads.types",
    "ExamplePayload": "payloads.types",
    "FeatureData": "payloads.types",
    "ProtobufPayload": "payloads.types",
    "ProtoField": "payloads.types",
    "SequenceExamplePayload": "payloads.types",
    "TensorPayload": "payloads.types",
    "TextPayload": "payloads.types",
    "features_of": "payloads.types",
    "annotated_thumbnail": "thumbs",
    "box_caption": "thumbs",
    "class_colour": "thumbs",
    "readable_on": "thumbs",
    "payload_json": "to_json",
}

__all__ = sorted([*_WHERE, "IMAGE_FORMATS", "detect", "image_format", "image_info"])


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
