"""A project's own protobufs, as its own code writes them into TFRecords: ``.proto``
files shaped like the real ones (a driving frame with camera pictures as bytes, laser
returns as packed floats, enums, maps, a nested message, a well-known type; a note
sequence; a genomic variant with doubles and repeated calls), the ``_pb2`` modules
``protoc`` (grpcio-tools) generates from them at test time, records made with those
modules and written by TensorFlow's writer, and ``protoc --decode`` of a record.
Generated modules are never kept in the repository."""

from __future__ import annotations

import functools
import importlib
import io
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

PROTOS = {
    "drive/common.proto": """
syntax = "proto3";
package drive;
enum CameraName { UNKNOWN = 0; FRONT = 1; FRONT_LEFT = 2; SIDE_LEFT = 3; REAR = 4; }
""",
    "drive/frame.proto": """
syntax = "proto3";
package drive;
import "google/protobuf/timestamp.proto";
import "drive/common.proto";

message CameraImage {
  CameraName name = 1;
  bytes image = 2;
  double pose_timestamp = 3;
}
message Laser {
  CameraName name = 1;
  repeated float ranges = 2;
  repeated sint32 intensities = 3;
}
message Frame {
  message Context {
    string name = 1;
    map<string, double> stats = 2;
  }
  Context context = 1;
  int64 timestamp_micros = 2;
  repeated CameraImage images = 3;
  repeated Laser lasers = 4;
  google.protobuf.Timestamp taken = 5;
  map<int32, string> labels = 6;
  fixed64 seed = 7;
  bool night = 8;
}
""",
    "music/notes.proto": """
syntax = "proto3";
package music;
message Note {
  int32 pitch = 1;
  int32 velocity = 2;
  double start_time = 3;
  double end_time = 4;
  int32 instrument = 5;
  bool is_drum = 6;
}
message NoteSequence {
  string id = 1;
  string filename = 2;
  repeated Note notes = 3;
  double total_time = 4;
  float tempo_qpm = 5;
}
""",
    "genomics/variant.proto": """
syntax = "proto3";
package genomics;
message Call {
  string call_set_name = 1;
  repeated int32 genotype = 2;
  repeated double genotype_likelihood = 3;
}
message Variant {
  string reference_name = 1;
  int64 start = 2;
  int64 end = 3;
  string reference_bases = 4;
  repeated string alternate_bases = 5;
  double quality = 6;
  repeated Call calls = 7;
  map<string, string> info = 8;
}
""",
}

# the frame's type as a later version of the project writes it: fields the first
# version does not know (read with the first version's types, they are unknown fields)
FRAME_V2 = """
syntax = "proto3";
package drivev2;
message Frame {
  message Context { string name = 1; int32 weather = 3; }
  Context context = 1;
  int64 timestamp_micros = 2;
  string driver = 9;
  repeated uint64 tags = 10;
}
"""


def proto_folder(root: Path) -> Path:
    """The ``.proto`` files written under ``root/protos``."""
    folder = root / "protos"
    for name, text in PROTOS.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.lstrip())
    return folder


def _protoc(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> bytes:
    """``protoc`` (grpcio-tools), in a process of its own; its standard output."""
    import grpc_tools

    include = Path(grpc_tools.__file__).parent / "_proto"
    done = subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{include}", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
    )
    if done.returncode != 0:
        raise RuntimeError(f"protoc {' '.join(args)}: {done.stderr.decode()}")
    return done.stdout


@functools.cache
def generated() -> SimpleNamespace:
    """The generated modules of :data:`PROTOS` and :data:`FRAME_V2` (made once a
    process: protobuf registers a type once): ``frame``, ``common``, ``notes``,
    ``variant``, ``frame_v2``."""
    folder = Path(tempfile.mkdtemp(prefix="tfr-viewer-user-protos-"))
    protos = proto_folder(folder)
    (protos / "drivev2").mkdir()
    (protos / "drivev2" / "frame.proto").write_text(FRAME_V2.lstrip())
    out = folder / "gen"
    out.mkdir()
    names = [*PROTOS, "drivev2/frame.proto"]
    _protoc(f"-I{protos}", f"--python_out={out}", *names)
    sys.path.insert(0, str(out))
    try:
        modules = {
            "frame": importlib.import_module("drive.frame_pb2"),
            "common": importlib.import_module("drive.common_pb2"),
            "notes": importlib.import_module("music.notes_pb2"),
            "variant": importlib.import_module("genomics.variant_pb2"),
            "frame_v2": importlib.import_module("drivev2.frame_pb2"),
        }
    finally:
        sys.path.remove(str(out))
    return SimpleNamespace(**modules)


def protoc_decode(protos: Path, type_name: str, data: bytes) -> str:
    """``protoc --decode=TYPE`` of ``data``: the message in protobuf's text format."""
    files = [str(p.relative_to(protos)) for p in sorted(protos.rglob("*.proto"))]
    return _protoc(f"-I{protos}", f"--decode={type_name}", *files, stdin=data).decode()


def descriptor_set(protos: Path, out: Path) -> Path:
    """``protoc --include_imports --descriptor_set_out`` of every file of ``protos``."""
    files = [str(p.relative_to(protos)) for p in sorted(protos.rglob("*.proto"))]
    _protoc(f"-I{protos}", "--include_imports", f"--descriptor_set_out={out}", *files)
    return out


def _jpeg(seed: int) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (24 + seed % 5, 16), (seed * 37 % 256, 90, 200)).save(out, "JPEG")
    return out.getvalue()


def frames(count: int) -> list[Any]:
    """Driving frames: two or three cameras' pictures, laser returns, labels, stats."""
    g = generated()
    out = []
    for i in range(count):
        f = g.frame.Frame()
        f.context.name = f"segment-{i // 4}"
        f.context.stats["speed"] = 1.5 * i
        if i % 3 == 0:
            f.context.stats["yaw"] = -0.25 * i
        f.timestamp_micros = 1_700_000_000_000_000 + 100_000 * i
        for k in range(2 + i % 2):
            f.images.add(name=k + 1, image=_jpeg(i * 3 + k), pose_timestamp=i / 10)
        laser = f.lasers.add(name=g.common.SIDE_LEFT)
        laser.ranges.extend([0.5, 1.25, float(i), 1e-3 * i])
        laser.intensities.extend([-i, i, 7])
        f.taken.seconds = 1_700_000_000 + i
        f.taken.nanos = 1000 * i
        f.labels[i] = "car" if i % 2 else "pedestrian"
        f.seed = 2**63 + i
        f.night = i % 5 == 0
        out.append(f)
    return out


def note_sequences(count: int) -> list[Any]:
    g = generated()
    out = []
    for i in range(count):
        s = g.notes.NoteSequence(id=f"seq-{i}", filename=f"song{i}.mid", tempo_qpm=120.5)
        for n in range(3 + i % 4):
            s.notes.add(pitch=60 + n, velocity=80, start_time=n * 0.5, end_time=n * 0.5 + 0.4)
        s.total_time = s.notes[-1].end_time
        out.append(s)
    return out


def variants(count: int) -> list[Any]:
    g = generated()
    out = []
    for i in range(count):
        v = g.variant.Variant(reference_name="chr20", start=10_000 + i, end=10_001 + i)
        v.reference_bases = "A"
        v.alternate_bases.extend(["G", "T"][: 1 + i % 2])
        v.quality = 29.5 + i / 3
        for who in ("NA12878", "NA12891"):
            v.calls.add(call_set_name=who, genotype=[0, 1], genotype_likelihood=[-0.1, -2.5])
        v.info["DP"] = str(20 + i)
        out.append(v)
    return out
