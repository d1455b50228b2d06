"""Help for the filter language, with examples a user can copy."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

HELP = """
<h3>The filter language</h3>
<p>A Python-style expression over each record; press <b>Enter</b> to apply, <b>Esc</b> to
clear. Nothing is ever run as Python code.</p>
<ul>
<li>A feature is the list of its values: <code>label</code>, or
<code>f["image/object/class/text"]</code> for keys that are not plain names. A missing
feature is an empty list.</li>
<li>A list compared with a single value compares each element and matches when any
does: <code>label == 3</code> matches <code>[3]</code> and <code>[2, 3]</code>.</li>
<li>Text is written in quotes: <code>f["image/format"] == "png"</code>.</li>
<li><code>and</code>, <code>or</code>, <code>not</code> (not <code>&amp;&amp;</code>,
<code>||</code>, <code>!</code>), <code>in</code>, chained comparisons,
<code>+ - * / %</code>, <code>x[0]</code>, <code>x[-1]</code>.</li>
<li>Functions: <code>len has any all min max sum abs lower contains startswith endswith
match width height</code> (<code>match</code>: a regular-expression search on the text;
<code>width</code>, <code>height</code>: an image's size from its header).</li>
<li>Record fields: <code>index file offset length status</code>
(<code>"ok"</code>, <code>"bad_data_crc"</code>, <code>"bad_length_crc"</code>,
<code>"truncated"</code>).</li>
</ul>
<h4>Examples</h4>
<pre>
label == 3
label in [1, 2] and height > 100
len(f["image/object/bbox/xmin"]) > 10
any(f["image/object/bbox/xmax"] > 1.0)
match(f["image/filename"], "^val_") and not has("label")
status != "ok"
</pre>
<p>Keys that no record has, text without quotes and comparisons of kinds that never
match are warned about under the filter.</p>
"""


class FilterHelp(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Filter language")
        self.text = QTextBrowser(self)
        self.text.setHtml(HELP)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.resize(620, 560)
