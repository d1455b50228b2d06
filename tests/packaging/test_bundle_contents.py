"""What the spec keeps out of the bundle, and the file types it declares."""

from __future__ import annotations

import plistlib
import re
from fnmatch import fnmatch

from bundle_contents import (
    EXCLUDED_MODULES,
    EXTENSIONS,
    MAC_DOCUMENT_TYPES,
    MAC_EXPORTED_TYPES,
    UTI,
    keep_binary,
    version,
)

from tests.packaging.conftest import DESKTOP_FILES, PACKAGING
from tfr_viewer import __version__


def test_qt_pieces_the_app_needs_are_kept():
    for dest in (
        "PySide6/Qt/lib/libQt6Core.so.6",
        "PySide6/Qt/lib/libQt6Widgets.so.6",
        "PySide6/Qt/lib/libQt6Network.so.6",
        "PySide6/Qt/lib/libicudata.so.73",
        "PySide6/Qt/plugins/platforms/libqxcb.so",
        "PySide6/Qt/plugins/platforms/libqoffscreen.so",
        "PySide6/Qt/plugins/platforms/libqwayland.so",
        "PySide6\\plugins\\platforms\\qwindows.dll",
        "PySide6/Qt/plugins/platforms/libqcocoa.dylib",
        "PySide6/Qt/plugins/wayland-shell-integration/libxdg-shell.so",
        "numpy.libs/libscipy_openblas64_-32a4b2a6.so",
        "pillow.libs/libharfbuzz-fb49c9fc.so.0.61450.0",
    ):
        assert keep_binary(dest), dest


def test_unused_qt_pieces_and_the_gtk_stack_are_dropped():
    for dest in (
        "PySide6/Qt/lib/libQt6Qml.so.6",
        "PySide6/Qt/lib/libQt6Quick.so.6",
        "PySide6/Qt/lib/libQt6Pdf.so.6",
        "PySide6/Qt/lib/libQt6Svg.so.6",
        "PySide6/Qt/plugins/imageformats/libqjpeg.so",
        "PySide6/Qt/plugins/sqldrivers/libqsqlite.so",
        "PySide6/Qt/plugins/platforms/libqeglfs.so",
        "PySide6/Qt/plugins/platformthemes/libqgtk3.so",
        "PySide6/Qt/plugins/wayland-graphics-integration-client/libdmabuf-server.so",
        "PySide6/Qt/translations/qtbase_de.qm",
        "libgtk-3.so.0",
        "libcairo.so.2",
        "libharfbuzz.so.0",
    ):
        assert not keep_binary(dest), dest
    assert "tensorflow" in EXCLUDED_MODULES and "PySide6.QtQml" in EXCLUDED_MODULES


def test_macos_types_are_a_valid_plist_for_every_extension():
    data = plistlib.loads(
        plistlib.dumps(
            {
                "CFBundleDocumentTypes": MAC_DOCUMENT_TYPES,
                "UTExportedTypeDeclarations": MAC_EXPORTED_TYPES,
            }
        )
    )
    (doc,) = data["CFBundleDocumentTypes"]
    assert doc["LSItemContentTypes"] == [UTI] and doc["CFBundleTypeRole"] == "Editor"
    (uti,) = data["UTExportedTypeDeclarations"]
    assert uti["UTTypeIdentifier"] == UTI
    assert uti["UTTypeTagSpecification"]["public.filename-extension"] == EXTENSIONS
    assert (PACKAGING / "tfr-viewer.spec").read_text().count("CFBundleDocumentTypes") == 1


def test_every_extension_is_claimed_on_every_os():
    globs = re.findall(
        r'<glob pattern="([^"]+)"', (DESKTOP_FILES / "tfr-viewer-mime.xml").read_text()
    )
    iss = (PACKAGING / "windows" / "tfr-viewer.iss").read_text()
    for ext in EXTENSIONS:
        assert any(fnmatch(f"train.{ext}", g) for g in globs), ext
        if "." not in ext:  # Windows sees only the last suffix of name.tfrecord.gz
            assert f"Software\\Classes\\.{ext}\\OpenWithProgids" in iss, ext
    assert ".gz\\OpenWithProgids" not in iss  # never take over every .gz file


def test_version_is_read_without_importing():
    assert version() == __version__
