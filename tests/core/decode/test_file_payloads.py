"""A file's payload type is decided from its records: one message type is read as one
type, whichever of its records also happen to be readable text."""

from __future__ import annotations

import json

from tests.program import program
from tests.protoc_modules import FASTQ, compile_proto, fastq_records
from tests.tf_oracle import tf_write
from tfr_viewer.core.decode.file_payloads import decode_record, file_decoder
from tfr_viewer.core.decode.payloads import choose
from tfr_viewer.core.io import Dataset


def _fastq_file(tmp_path, lengths):
    module = compile_proto(FASTQ)
    payloads = fastq_records(module, lengths)
    return tf_write(tmp_path / "reads.tfrecord", payloads), payloads, module


def test_every_record_of_a_protobuf_file_is_read_as_protobuf(tmp_path):
    path, payloads, module = _fastq_file(tmp_path, [150, 60, 90, 200])
    # the trap: alone, the short reads look like text
    assert [choose(p).NAME for p in payloads] == ["protobuf", "text", "text", "protobuf"]
    with Dataset([str(path)]) as ds:
        ds.index()
        assert file_decoder(ds, 0) == "protobuf"
        assert [decode_record(ds, i).payload.type for i in range(4)] == ["protobuf"] * 4
    for i, payload in enumerate(payloads):
        shown = json.loads(program("show", "--json", str(i), str(path)).stdout)
        assert shown["type"] == "protobuf"
        message = module.FastqRecord.FromString(payload)  # the generated module's reading
        by_number = {f["number"]: f["value"] for f in shown["fields"]}
        assert by_number[3]["text"] == message.sequence


def test_a_second_show_from_the_cache_reads_the_record_as_its_file(tmp_path):
    path, _, _ = _fastq_file(tmp_path, [150, 60])
    first = program("show", "--json", "1", str(path))
    second = program("show", "--json", "1", str(path))  # the index is cached now
    assert json.loads(first.stdout) == json.loads(second.stdout)
    assert json.loads(second.stdout)["type"] == "protobuf"


def test_schema_counts_the_records_it_looked_at_each_as_its_file(tmp_path):
    path, _, _ = _fastq_file(tmp_path, [150, 60, 90, 200])
    done = program("schema", str(path))
    assert done.returncode == 2
    assert "of 4 records looked at, the payloads are: 4 protobuf" in done.stderr


def test_a_record_that_cannot_be_read_as_its_files_type_is_read_as_it_is(tmp_path):
    path, payloads, _ = _fastq_file(tmp_path, [150, 200, 180])
    odd = tf_write(tmp_path / "odd.tfrecord", [*payloads, b"\xff\xfe not a message"])
    with Dataset([str(odd)]) as ds:
        ds.index()
        assert file_decoder(ds, 0) == "protobuf"
        assert decode_record(ds, 3).payload.type == "bytes"
