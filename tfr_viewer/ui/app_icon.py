"""The application icon, painted with QPainter so one drawing serves the window at run time
and the icon files in ``resources/icons`` (``packaging/make_icons.py`` renders them)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QIcon,
    QImage,
    QLinearGradient,
    QPainter,
    QPen,
    QPixmap,
)

SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def paint(p: QPainter, size: int) -> None:
    """Draw the icon into a ``size`` x ``size`` square: an orange tile holding a stack of
    record frames (header block, payload bar) under a magnifying glass."""
    s = float(size)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    margin = s * 0.04
    tile = QRectF(margin, margin, s - 2 * margin, s - 2 * margin)
    gradient = QLinearGradient(tile.topLeft(), tile.bottomRight())
    gradient.setColorAt(0.0, QColor("#ffa000"))
    gradient.setColorAt(1.0, QColor("#e65100"))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(gradient))
    p.drawRoundedRect(tile, s * 0.18, s * 0.18)

    rows = 3 if size >= 24 else 2
    left, right = s * 0.17, s * 0.83
    top, height, gap = s * 0.20, s * 0.14, s * 0.07
    if rows == 2:
        top, height, gap = s * 0.22, s * 0.20, s * 0.12
    radius = s * 0.03
    for row in range(rows):
        y = top + row * (height + gap)
        p.setBrush(QColor("#fff3e0"))
        p.drawRoundedRect(QRectF(left, y, right - left, height), radius, radius)
        p.setBrush(QColor("#5d4037"))  # the frame header: length and CRC
        p.drawRoundedRect(QRectF(left, y, (right - left) * 0.26, height), radius, radius)

    if size >= 24:  # the glass, for inspecting; too fine to read below 24 px
        centre = QPointF(s * 0.64, s * 0.66)
        r = s * 0.15
        p.setBrush(QColor(255, 255, 255, 90))
        p.setPen(QPen(QColor("#263238"), max(1.5, s * 0.055)))
        p.drawEllipse(centre, r, r)
        p.setPen(
            QPen(
                QColor("#263238"),
                max(2.0, s * 0.085),
                Qt.PenStyle.SolidLine,
                Qt.PenCapStyle.RoundCap,
            )
        )
        p.drawLine(centre + QPointF(r * 0.75, r * 0.75), QPointF(s * 0.88, s * 0.88))


def image(size: int) -> QImage:
    """The icon as a transparent ARGB image of ``size`` pixels."""
    img = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    paint(p, size)
    p.end()
    return img


def pngs() -> dict[int, bytes]:
    """The icon at every size, as PNG files' bytes (for the desktop's icon theme); makes
    the Qt application this needs when there is none (off-screen: nothing is shown)."""
    import os

    from PySide6.QtCore import QBuffer, QIODevice
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        pngs.app = QGuiApplication([])  # type: ignore[attr-defined]  # kept alive
    out = {}
    for size in SIZES:
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        if not image(size).save(buffer, "PNG"):  # type: ignore[call-overload]  # (str at run time)
            raise OSError(f"cannot render the {size}×{size} icon")
        out[size] = bytes(buffer.data().data())
    return out


def icon() -> QIcon:
    """The window icon, at every size the icon files have."""
    result = QIcon()
    for size in SIZES:
        result.addPixmap(QPixmap.fromImage(image(size)))
    return result
