"""Protobuf messages as a project's own code makes them: a ``.proto`` compiled by
``protoc`` (grpcio-tools) at test time into a generated module, imported from a
temporary folder. Generated modules are never kept in the repository."""

from __future__ import annotations

import importlib
import itertools
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

_made = itertools.count()
_modules: dict[str, ModuleType] = {}


def compile_proto(text: str) -> ModuleType:
    """The ``_pb2`` module protoc generates from the ``.proto`` source ``text`` (once a
    process: a message type is registered in protobuf's default pool once)."""
    if text in _modules:
        return _modules[text]
    folder = Path(tempfile.mkdtemp(prefix="tfr-viewer-protoc-"))
    name = f"made_{next(_made)}"
    (folder / f"{name}.proto").write_text(text)
    # in a process of its own: protoc's C++ runtime and TensorFlow's clash in one process
    run = [sys.executable, "-m", "grpc_tools.protoc", f"-I{folder}", f"--python_out={folder}"]
    done = subprocess.run([*run, f"{name}.proto"], capture_output=True, text=True, cwd=folder)
    if done.returncode != 0:
        raise RuntimeError(f"protoc failed on {name}.proto: {done.stderr}")
    sys.path.insert(0, str(folder))
    try:
        module = _modules[text] = importlib.import_module(f"{name}_pb2")
    finally:
        sys.path.remove(str(folder))
    return module


FASTQ = """
syntax = "proto3";
package genomics;
message FastqRecord {
  string id = 1;
  string description = 2;
  string sequence = 3;
  string quality = 4;
}
"""


def fastq_records(module: ModuleType, lengths: list[int]) -> list[bytes]:
    """Serialized FASTQ-like records whose reads have the given lengths: those under
    128 bases are printable text through and through, longer ones are not."""
    import random

    rng = random.Random(1)
    out = []
    for i, n in enumerate(lengths):
        record = module.FastqRecord(
            id=f"read_{i:04d}",
            sequence="".join(rng.choice("ACGT") for _ in range(n)),
            quality="".join(rng.choice("#+5?I") for _ in range(n)),
        )
        out.append(record.SerializeToString())
    return out
