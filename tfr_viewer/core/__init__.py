"""The TensorFlow-free, Qt-free core: framing, sources, index, dataset and decoders."""
