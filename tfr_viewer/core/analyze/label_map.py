"""The Object Detection API's label map (``label_map.pbtxt``): ``item { id: 1 name: 'cat' }``
blocks in protobuf text format, read and written here and nowhere else.

Reading is one linear pass of a tokenizer over the text: strings in either quote with
protobuf's escapes (``\\n``, ``\\'``, ``\\x41``, octal), adjacent strings joined,
``#`` comments, ``:`` optional before a message, ``{}`` or ``<>`` around one, nested
messages and other fields skipped. Only an item's ``id``, ``name`` and
``display_name`` are kept. Writing escapes what a name holds, so every name reads back
as itself; the one-name-a-line files (``labels.txt``, YOLO's ``classes.txt``) escape
line breaks the same way.
"""

from __future__ import annotations

import re

from ..user_error import UserError

MAX_DEPTH = 100  # messages nested deeper than this are refused
_TOKEN = re.compile(
    r"""\s+|\#[^\n]*|(?P<str>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
    r"""|(?P<word>[A-Za-z_][\w.]*)|(?P<num>[-+]?[\w.]+)|(?P<punct>[{}<>:;,\[\]])""",
)
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{1,2}|[0-7]{1,3}|.)", re.S)
_SIMPLE = {"n": b"\n", "t": b"\t", "r": b"\r", "a": b"\a", "b": b"\b", "f": b"\f", "v": b"\v"}


class LabelMapError(UserError, ValueError):
    """A label map that cannot be read."""


def _unescape(body: str) -> bytes:
    """A text-format string literal's bytes (its quotes removed)."""

    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if code[0] == "x":
            return chr(int(code[1:], 16))
        if code[0] in "01234567":
            return chr(int(code, 8) & 0xFF)
        return _SIMPLE.get(code, code.encode("latin-1")).decode("latin-1")

    # characters stand for their UTF-8 bytes, escapes for one byte each
    latin = body.encode("utf-8").decode("latin-1")
    return _ESCAPE.sub(one, latin).encode("latin-1")


def _tokens(text: str, where: str) -> list[tuple[str, str, int]]:
    """``(kind, text, line)`` of every token: ``str`` (unescaped), ``word``, ``num``,
    ``punct``."""
    out: list[tuple[str, str, int]] = []
    pos, line = 0, 1
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            shown = text[pos : pos + 12].encode("unicode_escape").decode("ascii")
            raise LabelMapError(f"{where}: line {line}: cannot read `{shown}`")
        kind = m.lastgroup
        if kind == "str":
            try:
                value = _unescape(m.group("str")[1:-1]).decode("utf-8")
            except UnicodeDecodeError:
                raise LabelMapError(f"{where}: line {line}: a name is not UTF-8") from None
            if out and out[-1][0] == "str":  # "a" "b" is "ab"
                out[-1] = ("str", out[-1][1] + value, out[-1][2])
            else:
                out.append(("str", value, line))
        elif kind is not None:
            out.append((kind, m.group(kind), line))
        line += text.count("\n", pos, m.end())
        pos = m.end()
    return out


class _Parser:
    def __init__(self, tokens: list[tuple[str, str, int]], where: str) -> None:
        self.tokens, self.where, self.i = tokens, where, 0

    def fail(self, what: str) -> LabelMapError:
        line = self.tokens[min(self.i, len(self.tokens) - 1)][2] if self.tokens else 1
        return LabelMapError(f"{self.where}: line {line}: {what}")

    def peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> tuple[str, str, int]:
        token = self.peek()
        if token is None:
            raise self.fail("the text ends inside an item")
        self.i += 1
        return token

    def fields(self) -> list[tuple[str, object]]:
        """The top-level fields; a message's value is its list of fields, a scalar's
        ``(kind, text)``. Nesting is followed with an explicit stack, not recursion."""
        root: list[tuple[str, object]] = []
        stack: list[tuple[str | None, list[tuple[str, object]], str]] = [(None, root, "")]
        while True:
            closing, fields, name = stack[-1]
            token = self.peek()
            if token is None:
                if closing is not None:
                    raise self.fail("an item is not closed")
                return root
            if token[0] == "punct" and closing is not None and token[1] == closing:
                self.i += 1
                stack.pop()
                stack[-1][1].append((name, fields))
                continue
            if token[0] == "punct" and token[1] in ";,":
                self.i += 1
                continue
            kind, field, _ = self.take()
            if kind != "word":
                raise self.fail(f"expected a field name, found `{field}`")
            token = self.take()
            if token[1] == ":" and token[0] == "punct":
                token = self.take()
            if token[0] == "punct" and token[1] in "{<":
                if len(stack) > MAX_DEPTH:
                    raise self.fail(f"messages nest deeper than {MAX_DEPTH}")
                stack.append(("}" if token[1] == "{" else ">", [], field))
            elif token[0] == "punct" and token[1] == "[":  # a list of scalars: skipped
                while self.take()[1] != "]":
                    pass
            elif token[0] == "punct":
                raise self.fail(f"expected a value for {field}, found `{token[1]}`")
            else:
                fields.append((field, (token[0], token[1])))


def parse_label_map(text: str, where: str = "label map") -> dict[int, str]:
    """``{id: name}`` (``display_name`` when there is no ``name``). Raises
    :class:`LabelMapError` for text that is not a label map, an item without a numeric
    id, or a file with no items. Time is linear in the text."""
    tokens = _tokens(text, where)
    if not any(kind == "word" and word == "item" for kind, word, _ in tokens):
        raise LabelMapError(f"{where}: no `item {{ id: ... name: ... }}` entries found")
    top = _Parser(tokens, where).fields()
    out: dict[int, str] = {}
    for n, value in enumerate((v for f, v in top if f == "item"), start=1):
        if not isinstance(value, list):
            raise LabelMapError(f"{where}: item {n} is not a message")
        kept: dict[str, tuple[str, str]] = {}
        for name, scalar in value:
            if isinstance(scalar, tuple):
                kept.setdefault(name, scalar)
        kind, ident = kept.get("id", ("", ""))
        if kind != "num" or not re.fullmatch(r"[-+]?\d+", ident):
            raise LabelMapError(f"{where}: item {n} has no numeric id")
        names = [kept.get(k) for k in ("name", "display_name")]
        out[int(ident)] = next((v for k, v in (s for s in names if s) if k == "str"), "")
    if not out:
        raise LabelMapError(f"{where}: no `item {{ id: ... name: ... }}` entries found")
    return out


def read_label_map(path: str) -> dict[int, str]:
    """:func:`parse_label_map` of a file; unreadable files raise :class:`LabelMapError`."""
    from ..io.side_files import SideFileError, read_side_file

    try:
        text = read_side_file(path, "label map").decode("utf-8")
    except SideFileError as exc:
        raise LabelMapError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise LabelMapError(f"cannot read the label map {path}: {exc}") from None
    return parse_label_map(text, path)


def quoted(name: str) -> str:
    """``name`` as a text-format string literal that reads back as ``name``."""
    out = []
    for ch in name:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ch == "\x7f":
            out.append(f"\\{ord(ch):03o}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def label_map_text(classes: dict[int, str]) -> str:
    """A ``label_map.pbtxt`` of ``{id: name}``, in id order."""
    return "".join(
        f"item {{\n  id: {i}\n  name: {quoted(name)}\n}}\n" for i, name in sorted(classes.items())
    )


def name_line(name: str) -> str:
    """A name as one line of ``labels.txt`` or ``classes.txt``: line breaks (and the
    backslash) escaped, so that line N is always class N."""
    return name.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r") + "\n"
