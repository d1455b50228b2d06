"""Every command over a corpus of hostile inputs, run in-process through the command
line's own ``main``: the fuzz generator's damaged frames, payloads, streams, images and
tensors, the things a user can name instead of a file (a FIFO, a folder of sidecars,
an empty file, a name that is not UTF-8, a link loop, text), and side files and
datasets that lie (:mod:`.lying_files`): as the dataset, the predictions, the label
map, the schema and the index.

A run passes when ``main`` returns (no exception escapes: that would be a traceback)
within its time limit, with an exit code the command may give: 0, 1 only where 1
means "problems found" (``verify``, ``check``, ``compare``), and 2 for anything a user
can cause. ``python -m tests.hostile.commands --inputs N`` runs the full cross product.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from tests.fuzz.cases import case
from tests.hostile.lying_files import lying_inputs

# (argv before the path, exit codes it may give); OUT is replaced by a fresh path
COMMANDS: tuple[tuple[tuple[str, ...], frozenset[int]], ...] = (
    (("info",), frozenset({0, 2})),
    (("info", "--json"), frozenset({0, 2})),
    (("list", "--json"), frozenset({0, 2})),
    (("show", "0"), frozenset({0, 2})),
    (("show", "0", "--json"), frozenset({0, 2})),
    (("cat", "0"), frozenset({0, 1, 2})),
    (("cat", "0", "--key", "image/encoded", "-o", "OUT.bin"), frozenset({0, 1, 2})),
    (("head", "-n", "3", "--json"), frozenset({0, 2})),
    (("verify", "--json"), frozenset({0, 1, 2})),
    (("count",), frozenset({0, 1, 2})),  # 1: a problem found (a frame cut short)
    (("count", "--filter", "label > 0 or length > 10"), frozenset({0, 1, 2})),
    (("schema", "--json"), frozenset({0, 2})),
    (("stats", "--json"), frozenset({0, 2})),
    (("check", "--json"), frozenset({0, 1, 2})),
    (("check", "--json", "--predictions", "features"), frozenset({0, 1, 2})),
    (("check", "SAMPLE", "--predictions", "PATH"), frozenset({0, 1, 2})),  # as predictions
    (("evaluate", "--predictions", "features"), frozenset({0, 2})),
    (("evaluate", "SAMPLE", "--predictions", "PATH"), frozenset({0, 2})),
    (("check", "SAMPLE", "--label-map", "PATH", "--html", "OUT.html"), frozenset({0, 1, 2})),
    (("check", "SAMPLE", "--schema", "PATH"), frozenset({0, 1, 2})),
    (("check", "--html", "OUT.html", "--junit", "OUT.xml"), frozenset({0, 1, 2})),
    (("stats", "--html", "OUT.html"), frozenset({0, 2})),
    (("index", "--check", "PATH", "SAMPLE"), frozenset({0, 1, 2})),  # the input as an index
    (("export", "-o", "OUT.tfrecord"), frozenset({0, 2})),
    (("export", "-o", "OUT.csv", "--format", "csv"), frozenset({0, 2})),
    (("export", "-o", "OUT.arrow", "--format", "arrow"), frozenset({0, 2})),
    (("recover", "-o", "OUT.tfrecord"), frozenset({0, 1, 2})),
    (("compare", "PATH", "--against", "SAMPLE"), frozenset({0, 1, 2})),
    (("index",), frozenset({0, 2})),
    (("convert", "-o", "OUT.tfrecord"), frozenset({0, 2})),  # the input as labels or COCO
    (("convert", "-o", "OUT", "--images", "--boxes", "coco"), frozenset({0, 2})),
    (("convert", "-o", "OUT.tar", "--webdataset"), frozenset({0, 2})),
)
SAMPLE = str(
    Path(__file__).resolve().parents[2] / "resources" / "samples" / "shapes_odapi.tfrecord"
)


class TooSlow(Exception):
    pass


def _alarm(_signum: int, _frame: object) -> None:
    raise TooSlow()


def special_inputs(folder: Path) -> Iterator[tuple[str, str]]:
    """``(name, path)`` of what a user can name that is not a TFRecord file."""
    fifo = folder / "pipe.tfrecord"
    os.mkfifo(fifo)
    yield "a FIFO", str(fifo)
    empty = folder / "empty.tfrecord"
    empty.write_bytes(b"")
    yield "an empty file", str(empty)
    text = folder / "notes.txt"
    text.write_text("not a TFRecord at all\n" * 100)
    yield "a text file", str(text)
    sidecars = folder / "sidecars"
    sidecars.mkdir()
    (sidecars / "a.tfindex").write_text("0 10\n")
    (sidecars / "dataset_info.json").write_text("{}")
    yield "a folder of sidecars", str(sidecars)
    loop = folder / "loop.tfrecord"
    os.symlink(loop, loop)
    yield "a link to itself", str(loop)
    odd = folder / os.fsdecode(b"name-\xff.tfrecord")
    Path(odd).write_bytes(case(5, 0)[1])
    yield "a name that is not UTF-8", str(odd)
    coco = folder / "coco.json"
    coco.write_text(
        '{"images": [{"id": 1, "file_name": "../../x.jpg"}], "annotations": '
        '{"a": null}, "categories": [{"id": Infinity, "name": "a\\nb"}]}'
    )
    yield "a hostile COCO file", str(coco)
    labels = folder / "labels.csv"
    labels.write_text(f"filename,label\n{fifo},cat\n../../x.jpg,=cmd\n{loop},dog\n")
    yield "a labels CSV naming a FIFO, ../ and a link loop", str(labels)
    yield "a missing file", str(folder / "missing.tfrecord")
    yield "a folder", str(folder / "sidecars")
    yield from lying_inputs(folder)


def generated_inputs(folder: Path, seed: int, count: int) -> Iterator[tuple[str, str]]:
    """The fuzz generator's cases as files (each kind in turn)."""
    for index in range(count):
        kind, data = case(seed, index)
        path = folder / f"case-{index}.tfrecord"
        path.write_bytes(data)
        yield f"case {seed}-{index} ({kind})", str(path)


def run_command(argv: list[str], limit_s: float) -> tuple[int | None, str, str]:
    """``(exit code, stdout, stderr)`` of ``main(argv)`` in this process; the code is
    None when an exception escaped (its type and message are in stderr)."""
    from tfr_viewer.cli import main

    out, err = io.StringIO(), io.StringIO()
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit_s)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code: int | None = main(argv)
    except TooSlow:
        return None, out.getvalue(), f"over {limit_s} s"
    except SystemExit as exc:  # argparse's own exits
        code = int(exc.code or 0)
    except BaseException as exc:  # noqa: BLE001 - every escape is a finding
        return None, out.getvalue(), f"{type(exc).__name__}: {exc}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return code, out.getvalue(), err.getvalue()


def _lines(text: str) -> int:
    """The lines of an error, the warnings printed before it left out."""
    return len([line for line in text.strip().splitlines() if not line.startswith("warning:")])


def run(seed: int, inputs: int, every_command: bool = False, limit_s: float = 20.0) -> dict:
    """Each input with the commands (all of them, or each command in turn); returns a
    summary with every failure."""
    failures: list[str] = []
    runs = 0
    t0 = time.monotonic()
    old_env = os.environ.get("TFR_VIEWER_NO_CACHE")
    os.environ["TFR_VIEWER_NO_CACHE"] = "1"
    try:
        with tempfile.TemporaryDirectory(prefix="tfr-hostile-") as tmp:
            folder = Path(tmp)
            listed = [*special_inputs(folder), *generated_inputs(folder, seed, inputs)]
            for n, (name, path) in enumerate(listed):
                chosen = COMMANDS if every_command else [COMMANDS[n % len(COMMANDS)], COMMANDS[0]]
                for k, (words, allowed) in enumerate(chosen):
                    out = str(folder / f"out-{n}-{k}")
                    argv = [w.replace("OUT", out).replace("SAMPLE", SAMPLE) for w in words]
                    argv = [path if w == "PATH" else w for w in argv]
                    code, stdout, err = run_command(
                        argv + ([] if "PATH" in words else [path]), limit_s
                    )
                    runs += 1
                    if code not in allowed:
                        failures.append(f"{name}: {' '.join(words)} -> {code}: {err[-300:]}")
                    elif code == 2 and _lines(err) != 1 and not (_lines(err) == 0 and stdout):
                        failures.append(f"{name}: {' '.join(words)}: not one line: {err[-300:]}")
    finally:
        if old_env is None:
            os.environ.pop("TFR_VIEWER_NO_CACHE", None)
        else:
            os.environ["TFR_VIEWER_NO_CACHE"] = old_env
    return {"runs": runs, "failures": failures, "seconds": round(time.monotonic() - t0, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--inputs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    summary = run(args.seed, args.inputs, every_command=True)
    print(f"{summary['runs']} runs in {summary['seconds']} s")
    for failure in summary["failures"][:50]:
        print("FAIL", failure)
    return 1 if summary["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
