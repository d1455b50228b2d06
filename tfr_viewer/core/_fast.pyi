"""The compiled core's functions, as a type checker sees them (``native/module.c``)."""

from typing import Any

import numpy as np

HARDWARE_CRC: int
CRC_PATH: str
MAX_DEPTH: int

def crc32c(data: Any, crc: int = 0, impl: str = "auto") -> int: ...
def hop_frames(
    fd: int,
    size: int,
    pos: int,
    limit: int,
    min_frame: int,
    offsets: np.ndarray,
    lengths: np.ndarray,
) -> tuple[int, int, int]: ...
def same_bytes(a: Any, b: Any) -> bool: ...
def scan_frames(
    buf: Any,
    pos: int,
    limit: int,
    verify: bool,
    base: int,
    offsets: np.ndarray,
    lengths: np.ndarray,
    status: np.ndarray,
) -> tuple[int, int]: ...
def extract(buf: Any, starts: np.ndarray, lengths: np.ndarray, keys: Any) -> tuple[Any, Any]: ...
def extract_lists(
    buf: Any, starts: np.ndarray, lengths: np.ndarray, keys: Any
) -> tuple[Any, Any]: ...
def discover(buf: Any, starts: np.ndarray, lengths: np.ndarray) -> tuple[Any, Any]: ...
def tf_check(buf: Any, starts: np.ndarray, lengths: np.ndarray) -> tuple[Any, Any]: ...
def tf_fields(data: Any) -> tuple[int, int, bool, Any]: ...
def take_bytes(buf: Any, spans: Any) -> list[bytes]: ...
def payload_crcs(buf: Any, starts: np.ndarray, lengths: np.ndarray, ok: np.ndarray) -> None: ...
