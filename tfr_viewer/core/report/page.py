"""The frame of every HTML report: escaping, inline pictures, the style sheet, and a
small script that says when a picture could not be shown."""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Iterable

import numpy as np

STYLE = """
body{font-family:system-ui,sans-serif;margin:24px;color:#1d2939;max-width:1200px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #eaecf0}
table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 10px;text-align:left;
vertical-align:top;font-size:13px;border-bottom:1px solid #f2f4f7}th{background:#f9fafb}
.error{color:#b42318}.warning{color:#b54708}.info{color:#175cd3}
.hint{color:#475467;font-style:italic}.mono{font-family:monospace}
.cards{display:flex;flex-wrap:wrap;gap:12px}
.card{border:1px solid #eaecf0;border-radius:6px;padding:10px;width:380px;overflow-x:auto}
.card h3{font-size:14px;margin:0 0 6px 0;word-break:break-all}
#pictures-problem{display:none;background:#fef3f2;color:#b42318;padding:8px}
img{max-width:100%}
"""

SCRIPT = """
window.addEventListener("load", function () {
  var pictures = document.images, shown = 0, broken = 0;
  for (var i = 0; i < pictures.length; i++) {
    if (pictures[i].complete && pictures[i].naturalWidth > 0) { shown++; } else { broken++; }
  }
  document.body.setAttribute("data-pictures", shown + " shown, " + broken + " broken");
  if (broken) {
    var note = document.getElementById("pictures-problem");
    note.textContent = broken + " of the report's pictures could not be shown.";
    note.style.display = "block";
  }
});
"""


def readable(text: str) -> str:
    """``text`` with the bytes of a name that is not UTF-8 (kept by Python as lone
    surrogates) shown as U+FFFD, so the report is valid UTF-8."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def esc(text: object) -> str:
    return html.escape(readable(str(text)))


def as_bytes(document: str) -> bytes:
    """The report's bytes (UTF-8, whatever names it quotes)."""
    return readable(document).encode("utf-8")


def png_url(rgba: np.ndarray) -> str:
    """A ``data:`` URL of pixels as PNG."""
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(rgba).save(out, "PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii")


def table(head: Iterable[str], rows: Iterable[Iterable[str]]) -> str:
    """A table of cells already in HTML."""
    top = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{top}</tr>{body}</table>"


def page(title: str, body: str) -> str:
    """The whole document."""
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{esc(title)}</title><style>{STYLE}</style><script>{SCRIPT}</script></head>"
        f'<body><div id="pictures-problem"></div><h1>{esc(title)}</h1>{body}'
        '<p class="hint">Made by tfr-viewer.</p></body></html>'
    )
