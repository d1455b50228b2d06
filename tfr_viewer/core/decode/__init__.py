"""Understanding the payloads: our protobuf schema, the decoder registry, content
detection, images, layouts (boxes, labels, masks) and the JSON form of a record.

Names are imported on first use, so that a command that only decodes and prints a
record does not load the image and layout modules.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# eager: the function ``detect`` must win over the submodule of the same name, which
# importing it would otherwise bind here (and every decode needs it anyway)
from .detect import (
    IMAGE_FORMATS as IMAGE_FORMATS,
    detect as detect,
    image_format as image_format,
    image_info as image_info,
)

if TYPE_CHECKING:  # what a type checker sees: the names of _WHERE (tested)
    from .image_verdict import (
        MAX_PIXELS as MAX_PIXELS,
        QUICK_SIDE as QUICK_SIDE,
        ImageVerdict as ImageVerdict,
        too_large as too_large,
        verdict_of as verdict_of,
    )
    from .images import (
        ImageError as ImageError,
        array_to_rgba as array_to_rgba,
        decode_image as decode_image,
        decode_preview as decode_preview,
        raw_pixels as raw_pixels,
    )
    from .layouts import (
        ImageAnnotation as ImageAnnotation,
        KeyMap as KeyMap,
        is_hidden as is_hidden,
        recognise as recognise,
    )
    from .payload_types import (
        BytesPayload as BytesPayload,
        Decoded as Decoded,
        ExamplePayload as ExamplePayload,
        FeatureData as FeatureData,
        ProtobufPayload as ProtobufPayload,
        ProtoField as ProtoField,
        SequenceExamplePayload as SequenceExamplePayload,
        TensorPayload as TensorPayload,
        TextPayload as TextPayload,
        features_of as features_of,
    )
    from .payloads import (
        decode as decode,
        payload_images as payload_images,
        payload_json as payload_json,
    )
    from .payloads.hexdump import hexdump as hexdump
    from .payloads.raw_proto import WIRE_TYPES as WIRE_TYPES
    from .thumbs import (
        annotated_thumbnail as annotated_thumbnail,
        box_caption as box_caption,
        class_colour as class_colour,
        readable_on as readable_on,
    )

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
    "is_hidden": "layouts",
    "decode": "payloads",
    "payload_images": "payloads",
    "hexdump": "payloads.hexdump",
    "WIRE_TYPES": "payloads.raw_proto",
    "BytesPayload": "payload_types",
    "Decoded": "payload_types",
    "ExamplePayload": "payload_types",
    "FeatureData": "payload_types",
    "ProtobufPayload": "payload_types",
    "ProtoField": "payload_types",
    "SequenceExamplePayload": "payload_types",
    "TensorPayload": "payload_types",
    "TextPayload": "payload_types",
    "features_of": "payload_types",
    "annotated_thumbnail": "thumbs",
    "box_caption": "thumbs",
    "class_colour": "thumbs",
    "readable_on": "thumbs",
    "payload_json": "payloads",
}

__all__ = sorted([*_WHERE, "IMAGE_FORMATS", "detect", "image_format", "image_info"])


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
