"""tfr-viewer: inspect, verify and edit TensorFlow TFRecord files without TensorFlow."""

__version__ = "0.1.0"
