"""Message types a user gives: a ``FileDescriptorSet`` (as ``protoc
--descriptor_set_out`` writes it) or ``.proto`` files, compiled by the ``protoc`` that
``grpcio-tools`` ships (the ``proto`` extra; never a parser of our own), held in a
private descriptor pool; and the choice of one type for a file's records when the user
names none.

Every type loaded is given a decoder name of its own (:attr:`MessageType.decoder`,
``message:NAME@N``), by which :func:`bound` finds it again: a file read as a user's
type is decoded by that name (:mod:`.file_payloads`) as any other file by its
decoder's."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import os
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import DecodeError, Message

from ..user_error import UserError

MAX_SET_BYTES = 64 << 20  # a descriptor set larger than this is none
PROTOC_SECONDS = 120  # protoc compiling the files given, at most
_ROOTS_ABOVE = 4  # folders above a .proto file tried as the root of its imports
_WELL_KNOWN = (
    "any",
    "api",
    "duration",
    "empty",
    "field_mask",
    "source_context",
    "struct",
    "timestamp",
    "type",
    "wrappers",
)


@dataclass(frozen=True)
class MessageType:
    """One message type: its full ``name``, its runtime class, and the ``decoder``
    name a file read as it is decoded by."""

    name: str
    cls: type[Message]
    decoder: str
    family: MessageTypes | None = dataclasses.field(default=None, compare=False, repr=False)

    @property
    def descriptor(self) -> Any:
        """The type's descriptor (protobuf's)."""
        return self.cls.DESCRIPTOR

    def parse(self, data: bytes) -> Message:
        """``data`` parsed as this type (protobuf's own parser); ``DecodeError`` when
        the bytes are no such message."""
        message = self.cls()
        message.ParseFromString(data)
        return message


_numbers = itertools.count(1)
_bound: dict[str, MessageType] = {}
_lock = threading.Lock()


class MessageTypes:
    """The message types of a set of ``.proto`` files (``origin`` names where they came
    from, for messages)."""

    def __init__(self, files: descriptor_pb2.FileDescriptorSet, origin: str) -> None:
        self.origin = origin
        self.files = files
        self._pool = descriptor_pool.DescriptorPool()
        _add_files(self._pool, list(files.file), origin)
        self._number = next(_numbers)
        self._names = [
            name
            for f in files.file
            for name in _message_names(self._pool.FindFileByName(f.name).message_types_by_name)
        ]
        self._types: dict[str, MessageType] = {}
        self.public: list[str] | None = None  # the names offered, when not every one

    def names(self) -> list[str]:
        """The full name of every message type the files define (nested ones too, map
        entries not), the files' order."""
        return list(self.public if self.public is not None else self._names)

    def get(self, name: str) -> MessageType:
        """The type named ``name`` (its full name, or a name only one type ends in); a
        :class:`UserError` naming the types there are for any other."""
        names = self.names()
        found = [n for n in names if n == name or n.endswith("." + name)]
        if name in names:
            found = [name]
        if len(found) != 1:
            what = "names no message type" if not found else "names more than one type"
            shown = ", ".join(found or names[:12])
            more = "" if found or len(names) <= 12 else f" and {len(names) - 12} more"
            raise UserError(f"--message {name}: {what} of {self.origin} ({shown}{more})")
        full = found[0]
        if full not in self._types:
            descriptor = self._pool.FindMessageTypeByName(full)
            cls = message_factory.GetMessageClass(descriptor)
            kept = MessageType(full, cls, f"message:{full}@{self._number}", self)
            with _lock:
                _bound[kept.decoder] = kept
            self._types[full] = kept
        return self._types[full]

    def choose(self, samples: list[bytes]) -> tuple[MessageType, str]:
        """The type that reads ``samples`` best (every one parsed strictly by protobuf,
        the fewest fields it does not know, the fewest enum numbers it does not name,
        then the most fields read; the files' order breaks ties), and why, in a
        sentence."""
        if not self._names:
            raise UserError(f"{self.origin} defines no message type")
        scored = sorted(
            ((_score(self.get(n), samples), i, n) for i, n in enumerate(self._names)),
            key=lambda s: (s[0], -s[1]),
            reverse=True,
        )
        (best, _, name), runner_up = scored[0], scored[1] if len(scored) > 1 else None
        chosen = self.get(name)
        why = f"{name}: {_said(best, len(samples))}"
        if runner_up is not None:
            why += f"; the next, {runner_up[2]}: {_said(runner_up[0], len(samples))}"
        return chosen, why


BUILT_IN = (
    "tensorflow.Example",
    "tensorflow.SequenceExample",
    "tensorflow.ExampleListWithContext",
    "tensorflow.TensorProto",
    "tensorflow.Event",
    "tensorflow.serving.PredictionLog",
)  # the messages TensorFlow writes into TFRecords, from the definitions of :mod:`.proto`,
# :mod:`.proto_events` and :mod:`.proto_serving`


def built_in() -> MessageTypes:
    """The messages TensorFlow writes into TFRecords (:data:`BUILT_IN` and the types
    they hold), as written from the public definitions: named with ``--message`` alone,
    read as a user's type is read."""
    global _built_in
    if _built_in is None:
        from . import proto_events, proto_serving
        from .proto import FILE

        files = [FILE, proto_events.build_file(), proto_serving.build_file()]
        _built_in = MessageTypes(descriptor_pb2.FileDescriptorSet(file=files), "the built-in types")
        _built_in.public = [n for n in _built_in.names() if not _private(n)]
    return _built_in


def built_in_type(message: str) -> MessageType | None:
    """The built-in type ``message`` names (its full name, or a name only one ends
    in), or None when it names none."""
    types = built_in()
    names = types.names()
    if message not in names and sum(n.endswith("." + message) for n in names) != 1:
        return None
    return types.get(message)


def _private(name: str) -> bool:
    """The decoders' own helper types of :mod:`.proto`, no message TensorFlow writes."""
    short = name.rpartition(".")[2]
    return short == "RawMessage" or short.startswith(("BytesKeyed", "KeyedFeature"))


_built_in: MessageTypes | None = None


def load(proto: str | None = None, descriptor_set: str | None = None) -> MessageTypes:
    """The types of ``descriptor_set`` (a serialized ``FileDescriptorSet``) or of
    ``proto`` (a ``.proto`` file or a folder of them, imports resolved within that
    folder and among protobuf's well-known types). A :class:`UserError` in one line
    for a file that cannot be read or compiled, or a set that is not one."""
    if (proto is None) == (descriptor_set is None):
        raise UserError("give --proto PATH or --descriptor-set FILE (one of them)")
    if descriptor_set is not None:
        return MessageTypes(_read_set(descriptor_set), descriptor_set)
    assert proto is not None
    return MessageTypes(_compiled(proto), proto)


# what another process reads records as: the set's bytes, where it came from, the type
Spec = tuple[bytes, str, str | None]


def spec_of(chosen: object) -> Spec | None:
    """What another process, here or on another machine, loads ``chosen`` (a dataset's
    ``message_type``) again from (:func:`from_spec`), with nothing but protobuf: the
    definitions themselves, not the files they were read from; None for no type."""
    types = chosen.family if isinstance(chosen, MessageType) else chosen
    if not isinstance(types, MessageTypes):
        return None
    message = chosen.name if isinstance(chosen, MessageType) else None
    return types.files.SerializeToString(deterministic=True), types.origin, message


def worker_setup(chosen: object) -> tuple[Any, tuple[Any, ...]] | None:
    """What a worker process runs first to read records as ``chosen`` (a dataset's
    ``message_type``) too (:func:`~..io.split_pool.pool_each`'s ``setup``); None for
    no type."""
    spec = spec_of(chosen)
    return None if spec is None else (give_spec, (spec,))


def give_spec(spec: Spec) -> None:
    """:func:`give` the type ``spec`` names, loaded in this process."""
    give(from_spec(spec))


def from_spec(spec: Spec) -> MessageType | MessageTypes:
    """The type (or types) ``spec`` names, loaded in this process (once for a set)."""
    data, origin, message = spec
    types = _from_bytes(data, origin)
    return types.get(message) if message is not None else types


@functools.lru_cache(maxsize=4)
def _from_bytes(data: bytes, origin: str) -> MessageTypes:
    return MessageTypes(descriptor_pb2.FileDescriptorSet.FromString(data), origin)


def bound(decoder: str | None) -> MessageType | None:
    """The type whose :attr:`MessageType.decoder` is ``decoder``, or None."""
    if decoder is None or not decoder.startswith("message:"):
        return None
    with _lock:
        return _bound.get(decoder)


def give(chosen: MessageType | MessageTypes | None) -> None:
    """The type (or the types, to choose from per file) every dataset of this process
    is read as unless it names its own (the command line's ``--proto`` or
    ``--descriptor-set`` with ``--message``). None: no more."""
    from ..io import Dataset

    Dataset.message_type = chosen


def _read_set(path: str) -> descriptor_pb2.FileDescriptorSet:
    """The set in the regular file ``path`` (a FIFO or a device is refused before it is
    opened: reading one could wait for ever), at most :data:`MAX_SET_BYTES` of it."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise UserError(f"{path}: not a regular file; give the descriptor set's file")
        with open(path, "rb") as f:
            data = f.read(MAX_SET_BYTES + 1)
    except OSError as exc:
        raise UserError(f"{path}: cannot read the descriptor set ({exc.strerror})") from None
    if len(data) > MAX_SET_BYTES:
        raise UserError(f"{path}: larger than {MAX_SET_BYTES >> 20} MB: no descriptor set")
    files = descriptor_pb2.FileDescriptorSet()
    try:
        files.ParseFromString(data)
    except DecodeError:
        files.Clear()
    if not files.file or not all(f.name for f in files.file):
        raise UserError(
            f"{path}: not a FileDescriptorSet (write one with protoc --include_imports "
            "--descriptor_set_out=FILE, or give the .proto with --proto)"
        )
    return files


def _compiled(proto: str) -> descriptor_pb2.FileDescriptorSet:
    """``proto`` compiled by grpcio-tools' protoc (the ``proto`` extra): a folder's
    files with the folder as the root of their imports; one file with its own folder
    as that root, or the nearest folder above it under which its imports are found
    (``import "drive/common.proto"`` in ``protos/drive/frame.proto``)."""
    try:
        import grpc_tools  # type: ignore[import-untyped]
    except ImportError:
        raise UserError(
            "compiling .proto files needs grpcio-tools: pip install 'tfr-viewer[proto]', "
            "or give a descriptor set (protoc --include_imports --descriptor_set_out=FILE)"
        ) from None
    include = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
    if os.path.isdir(proto):
        root = os.path.abspath(proto)
        files = sorted(
            os.path.relpath(os.path.join(folder, name), root)
            for folder, _, names in os.walk(proto)
            for name in names
            if name.endswith(".proto") and os.path.isfile(os.path.join(folder, name))
        )  # regular files only: protoc would wait on a FIFO
        if not files:
            raise UserError(f"{proto}: the folder holds no .proto file")
        roots = [(root, files)]
    elif os.path.exists(proto) and not os.path.isfile(proto):
        raise UserError(f"{proto}: not a regular file; give a .proto file or a folder of them")
    elif os.path.isfile(proto):
        path = os.path.abspath(proto)
        roots, folder = [], os.path.dirname(path)
        for _ in range(_ROOTS_ABOVE + 1):
            roots.append((folder, [os.path.relpath(path, folder)]))
            if os.path.dirname(folder) == folder:
                break
            folder = os.path.dirname(folder)
    else:
        raise UserError(f"{proto}: no such .proto file or folder")
    first_error = ""
    for root, files in roots:
        found, error = _protoc(root, include, files)
        if found is not None:
            return found
        first_error = first_error or error
    raise UserError(f"{proto}: protoc cannot compile it: {first_error}")


def _protoc(
    root: str, include: str, files: list[str]
) -> tuple[descriptor_pb2.FileDescriptorSet | None, str]:
    """The set protoc makes of ``files`` under ``root``, or None and its first line."""
    with tempfile.TemporaryDirectory(prefix="tfr-viewer-proto-") as folder:
        out = os.path.join(folder, "set.pb")
        try:
            done = subprocess.run(
                [sys.executable, "-m", "grpc_tools.protoc", f"-I{root}", f"-I{include}",
                 "--include_imports", f"--descriptor_set_out={out}", *files],
                capture_output=True, text=True, errors="replace", cwd=folder,
                timeout=PROTOC_SECONDS, stdin=subprocess.DEVNULL,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return None, f"protoc took more than {PROTOC_SECONDS} s"
        if done.returncode != 0 or not os.path.exists(out):
            said = [line for line in done.stderr.splitlines() if line.strip()]
            return None, said[0] if said else f"protoc ended with {done.returncode}"
        return _read_set(out), ""


def _add_files(
    pool: descriptor_pool.DescriptorPool,
    files: list[descriptor_pb2.FileDescriptorProto],
    origin: str,
) -> None:
    """Add ``files`` to ``pool``, each after the files it imports (protobuf's
    well-known types from protobuf itself when the set leaves them out)."""
    known = {f.name: f for f in files}
    added: set[str] = set()

    def add(f: descriptor_pb2.FileDescriptorProto, trail: tuple[str, ...]) -> None:
        if f.name in added:
            return
        if f.name in trail:
            raise UserError(f"{origin}: {f.name} imports itself through {', '.join(trail)}")
        for dep in f.dependency:
            found = known.get(dep) or _well_known(dep)
            if found is None:
                raise UserError(
                    f"{origin}: {f.name} imports {dep}, which the set does not hold "
                    "(write it with protoc --include_imports)"
                )
            add(found, (*trail, f.name))
        try:
            pool.Add(f)
        except (TypeError, ValueError) as exc:
            raise UserError(f"{origin}: {f.name} cannot be loaded: {exc}") from None
        added.add(f.name)

    for f in files:
        add(f, ())


def _well_known(name: str) -> descriptor_pb2.FileDescriptorProto | None:
    """protobuf's own definition of a well-known type's file, or None."""
    import importlib

    stem = name.removeprefix("google/protobuf/").removesuffix(".proto")
    if not name.startswith("google/protobuf/") or stem not in (*_WELL_KNOWN, "descriptor"):
        return None
    module = importlib.import_module(f"google.protobuf.{stem}_pb2")
    return descriptor_pb2.FileDescriptorProto.FromString(module.DESCRIPTOR.serialized_pb)


def _message_names(found: Mapping[str, Any]) -> list[str]:
    out = []
    for d in found.values():
        if d.GetOptions().map_entry:
            continue
        out.append(d.full_name)
        out += _message_names(d.nested_types_by_name)
    return out


def _score(kind: MessageType, samples: list[bytes]) -> tuple[int, int, int, int]:
    """(samples parsed, minus unknown fields, minus enum numbers unnamed, fields
    read) of ``kind`` over ``samples``."""
    parsed = unknown = unnamed = read = 0
    for data in samples:
        try:
            message = kind.parse(data)
        except (DecodeError, RuntimeError, ValueError):
            continue
        parsed += 1
        counts = _counts(message)
        unknown += counts[0]
        unnamed += counts[1]
        read += counts[2]
    return parsed, -unknown, -unnamed, read


def _counts(message: Message) -> tuple[int, int, int]:
    """(unknown fields, enum numbers without a name, fields set) of ``message`` and
    the messages in it."""
    from google.protobuf.unknown_fields import UnknownFieldSet

    unknown = len(UnknownFieldSet(message))
    unnamed = read = 0
    for field, value in message.ListFields():
        read += 1
        values: Iterable[Any] = value if is_repeated(field) else (value,)
        if field.message_type is not None:
            if is_map(field):
                values = _map_values(field, value)
                if field.message_type.fields_by_name["value"].message_type is None:
                    continue
            for item in values:
                u, e, r = _counts(item)
                unknown, unnamed, read = unknown + u, unnamed + e, read + r
        elif field.enum_type is not None:
            names = field.enum_type.values_by_number
            unnamed += sum(1 for v in values if v not in names)
    return unknown, unnamed, read


def unknown_fields(message: Message) -> int:
    """The fields in ``message`` and in the messages it holds that their types do not
    define."""
    return _counts(message)[0]


def enum_value(field: Any, number: int) -> str | int:
    """An enum field's value as every reading shows it: its name, or the number when
    the enum names none (an open enum keeps numbers it does not know)."""
    named = field.enum_type.values_by_number.get(number)
    return named.name if named is not None else int(number)


def is_map(field: Any) -> bool:
    """Whether ``field`` is a map (protobuf writes one as repeated entries of a type of
    its own, marked ``map_entry``)."""
    entry = field.message_type
    return entry is not None and is_repeated(field) and bool(entry.GetOptions().map_entry)


def is_repeated(field: Any) -> bool:
    """Whether ``field`` is repeated (a map too), in every protobuf this runs with."""
    repeated = getattr(field, "is_repeated", None)  # protobuf 5.28 on; ``label`` before
    if repeated is not None:
        return bool(repeated)
    return bool(field.label == FieldDescriptor.LABEL_REPEATED)


def _map_values(field: FieldDescriptor, value: Any) -> list[Any]:
    return list(value.values())


def _said(score: tuple[int, int, int, int], samples: int) -> str:
    parsed, unknown, unnamed, read = score
    text = f"{parsed} of {samples} records sampled parse"
    text += f", {-unknown} unknown field{'s' if unknown != -1 else ''}"
    if unnamed:
        text += f", {-unnamed} enum number{'s' if unnamed != -1 else ''} without a name"
    return text + f", {read} fields read"
