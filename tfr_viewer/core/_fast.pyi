"""The compiled core's functions, as a type checker sees them (``native/module.c``)."""

from typing import Any

import numpy as np

HARDWARE_CRC: int
CRC_PATH: str
MAX_DEPTH: int
# values the Python side names too (checked by ``fast.agree`` when it is imported)
FRAME_OK: int
FRAME_BAD_DATA_CRC: int
FRAME_UNVERIFIED: int
TF_OK: int
TF_STRUCTURE: int
TF_KIND: int
TF_LIST: int
TF_DIFFERS: int
TF_NO_FEATURES: int
ROW_OK: int
ROW_MALFORMED: int
ROW_UPB: int

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
def take_bytes(buf: Any, spans: Any, text: bool = False) -> list[Any]: ...
def event_values(
    buf: Any,
    starts: np.ndarray,
    lengths: np.ndarray,
    first: int,
    what: np.ndarray,
    row: np.ndarray,
    tag: np.ndarray,
    value: np.ndarray,
    step: np.ndarray,
    wall: np.ndarray,
    tags: np.ndarray,
    slots: np.ndarray,
) -> tuple[int, int, int, int]: ...
def payload_crcs(buf: Any, starts: np.ndarray, lengths: np.ndarray, ok: np.ndarray) -> None: ...
def smooth(values: np.ndarray, weight: float, out: np.ndarray) -> None: ...
def message_paths(
    buf: Any,
    starts: np.ndarray,
    lengths: np.ndarray,
    fields: bytes,
    msgs: bytes,
    paths: tuple[tuple[bytes, int, int, int, int], ...],
) -> tuple[bytes, list[tuple[bytes, bytes]]]: ...
