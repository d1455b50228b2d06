"""The system libraries Qt's X11 platform needs on Linux, looked for before Qt is
loaded: a missing one is named with its Debian and Ubuntu package in one line, exit 2,
instead of Qt's own abort ("could not load the Qt platform plugin xcb")."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

# the shared object Qt's xcb plugin loads -> the package that installs it (apt)
LIBRARIES = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libX11-xcb.so.1": "libx11-xcb1",
}


def missing(load: Callable[[str], object]) -> list[str]:
    """The packages whose library ``load`` (``ctypes.CDLL``) cannot open."""
    out = []
    for library, package in LIBRARIES.items():
        try:
            load(library)
        except OSError:
            out.append(package)
    return out


def needs_x11() -> bool:
    """Whether Qt will use its X11 platform: Linux, and no other platform chosen."""
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    return (
        sys.platform.startswith("linux")
        and platform in ("", "xcb")
        and not os.environ.get("WAYLAND_DISPLAY")
    )


def missing_message(packages: list[str]) -> str:
    return (
        f"the window needs system libraries that are missing: {', '.join(packages)}; "
        f"install them (sudo apt-get install {' '.join(packages)}) and start again"
    )
