"""Checks of splits, finished together, equal the checks of the whole dataset: the
planted faults of every kind, images stored twice across files and splits, damaged and
empty files, with a label map and a schema; and the pickled parts a worker sends back
give the same answer."""

from __future__ import annotations

import json
import pickle
import shutil
from collections import defaultdict

import pytest

from tests.planted_faults import planted_dataset
from tfr_viewer.core.analyze import anomalies
from tfr_viewer.core.analyze.check_merge import Copies, copies_of, finish_check
from tfr_viewer.core.analyze.checks import check_dataset
from tfr_viewer.core.analyze.split_check import ref_check, settled_part
from tfr_viewer.core.analyze.stats import dataset_stats
from tfr_viewer.core.analyze.survey import Survey
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.splits import apply_statuses, mark_verified, plan_refs

NAMES = ("damaged.tfrecord", "empty.tfrecord", "small.tfrecord.gz")


@pytest.fixture(scope="module")
def paths(tmp_path_factory, remote_root):
    folder = tmp_path_factory.mktemp("check-merge")
    faulty = folder / "faulty-00000-of-00002"
    planted_dataset(faulty)
    twin = folder / "faulty-00001-of-00002"
    shutil.copy(faulty, twin)  # every image of the twin is a copy of one in the first
    return [str(faulty), str(twin), *(str(remote_root / n) for n in NAMES)]


def _options(paths):
    with Dataset(paths[:1]) as ds:
        ds.index()
        schema = anomalies.infer(dataset_stats(ds))
    schema["features"].pop("image/format", None)  # found as unexpected in every record
    return {"label_map": {1: "cat", 3: "dog"}, "schema": schema}


def _findings(findings):
    return json.dumps([f.to_json() for f in findings])


@pytest.mark.parametrize("limits", [{"max_records": 7}, {"max_records": 1 << 20}])
def test_split_checks_finish_as_the_whole_dataset_does(paths, no_cache, limits):
    options = _options(paths)
    with Dataset(paths) as ds:
        ds.index(verify=True)
        local = check_dataset(ds, **options)
    kinds = {f.kind for f in local}
    assert {"duplicate_image", "damaged_record", "empty_shard", "label_not_in_map"} <= kinds
    assert any(k.startswith("schema_") for k in kinds)
    crossing = [f for f in local if f.kind == "duplicate_image" and f.file == paths[1]]
    assert crossing, "the twin's images are copies of the first file's"

    with Dataset(paths) as ds:
        ds.index(verify=False)
        refs = plan_refs(ds, **limits)
        checked = []
        known = Survey()
        for ref in refs:  # one read each: statuses, survey, and a check by its own plan
            item = pickle.loads(pickle.dumps(ref_check(ref, options)))
            apply_statuses(ds, ref.key, item.statuses)
            checked.append(item)
            known.merge(item.survey)
        mark_verified(ds)
        parts, places = [], defaultdict(list)
        for item in reversed(checked):  # in any order: the finish puts them in place
            part = pickle.loads(pickle.dumps(settled_part(item, known, options)))
            for digest, found in part.copies.items():
                places[digest].append(found)
            parts.append(part)
        rechecked = sum(item.plan != known.plan() for item in checked)
        copies = Copies()
        for digest, lists in places.items():  # as the shuffle on the digest groups them
            copies.merge(copies_of(digest, [p for found in lists for p in found]))
        far = finish_check(ds, parts, known, copies=copies)
    assert _findings(far) == _findings(local)
    if limits["max_records"] == 7:
        assert len(refs) > 10 and rechecked > 0  # some splits lack keys others have
