"""Understanding the payloads: our protobuf schema, the decoder registry, content
detection, images, layouts (boxes, labels, masks) and the JSON form of a record."""

from __future__ import annotations

from .detect import detect, image_format, image_info
from .images import (
    MAX_PIXELS,
    ImageError,
    array_to_rgba,
    decode_image,
    decode_preview,
    raw_pixels,
    too_large,
)
from .json_stream import write_json
from .layouts import ImageAnnotation, KeyMap, recognise
from .payloads import decode
from .payloads.hexdump import hexdump
from .payloads.raw_proto import WIRE_TYPES
from .payloads.types import (
    BytesPayload,
    Decoded,
    ExamplePayload,
    FeatureData,
    ProtobufPayload,
    ProtoField,
    SequenceExamplePayload,
    TensorPayload,
    TextPayload,
    features_of,
)
from .thumbs import annotated_thumbnail, box_caption, class_colour, readable_on
from .to_json import payload_json

__all__ = [
    "write_json",
    "MAX_PIXELS",
    "decode_preview",
    "too_large",
    "box_caption",
    "class_colour",
    "readable_on",
    "BytesPayload",
    "Decoded",
    "ExamplePayload",
    "FeatureData",
    "ImageAnnotation",
    "ImageError",
    "KeyMap",
    "ProtoField",
    "ProtobufPayload",
    "SequenceExamplePayload",
    "TensorPayload",
    "TextPayload",
    "WIRE_TYPES",
    "annotated_thumbnail",
    "array_to_rgba",
    "decode",
    "decode_image",
    "detect",
    "features_of",
    "hexdump",
    "image_format",
    "image_info",
    "payload_json",
    "raw_pixels",
    "recognise",
]
