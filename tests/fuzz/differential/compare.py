"""Run payloads through the compiled extractor and through upb and list every row
where they disagree."""

from __future__ import annotations

import numpy as np

from tfr_viewer.core import fast
from tfr_viewer.core.analyze.schema import Schema, add_block
from tfr_viewer.core.io.payload_block import PayloadBlock
from tfr_viewer.core.query import extract as ex, extract_lists as exl

from .encoding import ASKED, case


def _same_values(a: np.ndarray, b: np.ndarray) -> bool:
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype == object:
        return all(
            type(x) is type(y) and (x == y or (x != x and y != y))
            for x, y in zip(a, b, strict=True)
        )
    return bool(np.array_equal(a, b, equal_nan=a.dtype.kind == "f"))


def mismatches(payloads: list[bytes]) -> tuple[list[str], int]:
    """Descriptions of the rows where the paths differ, and how many rows the compiled
    extractor left to upb (those are not compared: upb decides them)."""
    block = PayloadBlock.of(payloads)
    assert fast.native() is not None
    status, columns = ex._extract_compiled(block, ASKED)
    want_status, want = ex._extract_python(block, ASKED)
    left = np.flatnonzero(status == ex.ROW_UPB)
    problems = []
    keep = status != ex.ROW_UPB
    if not np.array_equal(status[keep], want_status[keep]):
        for r in np.flatnonzero(keep & (status != want_status)).tolist():
            problems.append(f"row {r}: status {status[r]} but upb {want_status[r]}")
    for key in ASKED:
        got, exp = columns[key], want[key]
        for name in ("present", "kinds"):
            a, b = getattr(got, name)[keep], getattr(exp, name)[keep]
            for r in np.flatnonzero(keep)[np.flatnonzero(a != b)].tolist():
                problems.append(f"row {r} key {key!r}: {name} differs")
        if left.size:
            continue  # values are compared on blocks that upb did not have to finish
        if not np.array_equal(got.rag.splits, exp.rag.splits):
            problems.append(f"key {key!r}: splits differ")
        elif not _same_values(got.rag.values, exp.rag.values):
            problems.append(
                f"key {key!r}: values differ ({got.rag.values.dtype} vs {exp.rag.values.dtype})"
            )
    return problems, int(left.size)


def list_mismatches(payloads: list[bytes]) -> list[str]:
    """Where the feature-list columns differ between the compiled core and upb (rows the
    compiled core leaves to upb are decided by upb and not compared)."""
    block = PayloadBlock.of(payloads)
    assert fast.native() is not None
    status, columns = exl._compiled(block, ASKED)
    if (status == ex.ROW_UPB).any():
        return []
    want_status, want = exl._python(block, ASKED)
    problems = [
        f"row {r}: sequence status {status[r]} but upb {want_status[r]}"
        for r in np.flatnonzero(status != want_status).tolist()
    ]
    for key in ASKED:
        got, exp = columns[key], want[key]
        for name in ("present", "steps", "kinds"):
            if not np.array_equal(getattr(got, name), getattr(exp, name)):
                problems.append(f"key {key!r}: feature-list {name} differ")
        if not np.array_equal(got.values.splits, exp.values.splits):
            problems.append(f"key {key!r}: feature-list value splits differ")
        elif not _same_values(got.values.values, exp.values.values):
            problems.append(f"key {key!r}: feature-list values differ")
    return problems


def schema_mismatch(payloads: list[bytes]) -> str | None:
    """Where key discovery (``schema``) differs between the paths, if anywhere."""
    block = PayloadBlock.of(payloads)
    got, want = Schema(), Schema()
    before = fast.native() is not None
    try:
        fast.use(True)
        add_block(got, block)
        fast.use(False)
        add_block(want, block)
    finally:
        fast.use(before)
    a, b = got.to_json(), want.to_json()
    if a != b:
        diff = sorted(k for k in a if a.get(k) != b.get(k))
        return f"schema differs in {diff}"
    return None


def run(seed: int, cases: int, batch: int = 256) -> dict:
    """Compare ``cases`` generated payloads in batches; return failing cases' numbers."""
    failures: list[tuple[int, str]] = []
    left = 0
    for lo in range(0, cases, batch):
        numbers = range(lo, min(lo + batch, cases))
        payloads = [case(seed, n) for n in numbers]
        problems, punted = mismatches(payloads)
        problems += list_mismatches(payloads)
        left += punted
        schema = schema_mismatch(payloads)
        if schema:
            problems.append(schema)
        if problems:
            # narrow down to single cases
            for n, p in zip(numbers, payloads, strict=True):
                one, _ = mismatches([p])
                one += list_mismatches([p])
                one += [m for m in [schema_mismatch([p])] if m]
                if one:
                    failures.append((n, one[0]))
    return {"cases": cases, "failures": failures, "left_to_upb": left}
