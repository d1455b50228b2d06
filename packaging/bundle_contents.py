"""What goes into the PyInstaller bundle: excluded modules, Qt pieces, macOS file types.

Imported by ``tfr-viewer.spec`` and by the packaging tests; no PyInstaller import here.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Python modules never needed at run time (TensorFlow is the test oracle only).
EXCLUDED_MODULES = [
    "tensorflow",
    "tensorboard",
    "keras",
    "pytest",
    "tkinter",
    "unittest",
    "pydoc",
    "IPython",
    "matplotlib",
    "scipy",  # imagehash imports it only for the hashes not used here (phash)
    "pywt",
    "pandas",
    "PIL._avif",  # AVIF is Pillow's largest codec and never found in TFRecords
    "PySide6.QtQml",
    "PySide6.QtQuick",
    "PySide6.QtQuickWidgets",
    "PySide6.QtQuickControls2",
    "PySide6.QtOpenGL",
    "PySide6.QtOpenGLWidgets",
    "PySide6.QtSql",
    "PySide6.QtSvg",
    "PySide6.QtSvgWidgets",
    "PySide6.QtTest",
    "PySide6.QtPrintSupport",
    "PySide6.QtDesigner",
    "PySide6.QtHelp",
    "PySide6.QtUiTools",
    "PySide6.QtXml",
    "PySide6.QtConcurrent",
    "PySide6.QtDBus",
]

# Qt plugin folders the app uses: window-system integration, native themes and input.
KEPT_PLUGIN_DIRS = {
    "platforms",
    "platformthemes",
    "platforminputcontexts",
    "styles",
    "xcbglintegrations",
    "wayland-shell-integration",
    "wayland-decoration-client",
    "wayland-graphics-integration-client",
}
# Inside kept folders: embedded-only platforms, compositor-side Wayland pieces, and the
# GTK theme (it would drag the build machine's whole GTK stack into the bundle).
_DROPPED_PLUGINS = re.compile(
    r"(eglfs|linuxfb|minimalegl|vnc|vkkhrdisplay|qgtk3|-server|fullscreen-shell|ivi-shell|"
    r"wl-shell)",
    re.I,
)
# Qt libraries only the excluded modules and plugins pull in.
_DROPPED_LIBRARIES = re.compile(
    r"Qt6?(Qml|Quick|Pdf|VirtualKeyboard|Designer|Sql|Test|Svg|OpenGLWidgets|"
    r"ShaderTools|LabsStyleKit|Help|UiTools|Concurrent|Xml|EglFs|WlShell|Multimedia)",
    re.I,
)

# System libraries that only the dropped plugins (the GTK theme above all) link to.
_DROPPED_SYSTEM = re.compile(
    r"^lib(gtk-3|gdk-3|gdk_pixbuf-2\.0|cairo|cairo-gobject|pango-1\.0|pangocairo-1\.0|"
    r"pangoft2-1\.0|atk-1\.0|atk-bridge-2\.0|atspi|epoxy|fribidi|datrie|thai|graphite2|"
    r"pixman-1|harfbuzz|gio-2\.0|gmodule-2\.0|mount|blkid|selinux|Xrender|Xcomposite|"
    r"Xcursor|Xdamage|Xfixes|Xi|Xinerama|Xrandr)\.so"
)


def keep_binary(dest: str) -> bool:
    """Whether a collected file (its path inside the bundle) belongs in the bundle."""
    parts = Path(dest.replace("\\", "/")).parts
    name = parts[-1] if parts else dest
    if "plugins" in parts:
        below = parts[parts.index("plugins") + 1 :]
        folder = below[0] if len(below) > 1 else ""
        if folder not in KEPT_PLUGIN_DIRS:
            return False
        return not _DROPPED_PLUGINS.search(name)
    if "translations" in parts:
        return False  # the interface is English only
    return not (_DROPPED_LIBRARIES.search(name) or _DROPPED_SYSTEM.search(name))


# File names the app opens: one list for the MIME XML, the Windows installer and macOS.
EXTENSIONS = ["tfrecord", "tfrecords", "tfrec", "tfrecord.gz"]
MIME_TYPE = "application/x-tfrecord"
UTI = "io.github.tfr-viewer.tfrecord"

MAC_EXPORTED_TYPES = [
    {
        "UTTypeIdentifier": UTI,
        "UTTypeDescription": "TensorFlow TFRecord file",
        "UTTypeConformsTo": ["public.data"],
        "UTTypeIconFile": "tfr-viewer.icns",
        "UTTypeTagSpecification": {
            "public.filename-extension": EXTENSIONS,
            "public.mime-type": [MIME_TYPE],
        },
    }
]
MAC_DOCUMENT_TYPES = [
    {
        "CFBundleTypeName": "TensorFlow TFRecord file",
        "CFBundleTypeRole": "Editor",
        "LSHandlerRank": "Owner",
        "LSItemContentTypes": [UTI],
        "CFBundleTypeExtensions": EXTENSIONS,
    }
]


def version() -> str:
    """The project version, read from the package without importing it."""
    text = (ROOT / "tfr_viewer" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'__version__ = "([^"]+)"', text)
    if match is None:
        raise RuntimeError("tfr_viewer/__init__.py has no __version__")
    return match.group(1)
