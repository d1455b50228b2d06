"""Dataset conventions (layouts): how a record names its pictures and keeps its boxes,
labels, masks and keypoints, read for the image views and written by a conversion.

:mod:`.annotations` holds what they speak of (:class:`Box`, :class:`KeyMap`,
:class:`ImageAnnotation`, the :class:`Layout` a layout module provides); one module a
layout (:mod:`.odapi`, :mod:`.tfds`, :mod:`.tutorial`), listed in :mod:`.registry`;
:mod:`.pictures` finds a record's pictures with what its layout says of them."""

from __future__ import annotations

from .annotations import (
    CORNERS,
    Box,
    Boxes,
    BoxKeys,
    HiddenClasses,
    ImageAnnotation,
    ImageFacts,
    KeyMap,
    Layout,
    is_hidden,
    is_prediction_key,
    key_ending,
)
from .pictures import MIN_PIXELS, frame_images, recognise, whole_images
from .registry import by_name

__all__ = [
    "CORNERS",
    "MIN_PIXELS",
    "Box",
    "BoxKeys",
    "Boxes",
    "HiddenClasses",
    "ImageAnnotation",
    "ImageFacts",
    "KeyMap",
    "Layout",
    "by_name",
    "frame_images",
    "is_hidden",
    "is_prediction_key",
    "key_ending",
    "recognise",
    "whole_images",
]
