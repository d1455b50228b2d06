"""The name of a feature key: the one place of the rule.

A key is bytes on the wire. TensorFlow's parser reads any bytes as a key; protobuf
refuses a key that is not UTF-8. A key's name is its text, and for a key that is not
UTF-8, its text with each byte outside a character written ``\\xNN`` (Python's
``backslashreplace``), so that every name can be shown, written as JSON and typed. The
compiled core matches a name against raw keys by the same rule (``native/utf8.c``).
"""

from __future__ import annotations


def key_text(raw: bytes) -> str:
    """The name of the key whose bytes are ``raw``."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("utf-8", "backslashreplace")


def is_text(raw: bytes) -> bool:
    """Whether the key ``raw`` is UTF-8 (protobuf reads it)."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
