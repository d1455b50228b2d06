"""``tensorflow.serving.PredictionLog``, built in: prediction logs of the three common
kinds (classify with Examples, regress with a shared context, predict with tensors),
made by the module ``protoc`` generates from a ``.proto`` shaped like TensorFlow
Serving's that imports TensorFlow's own Example and tensor definitions, read by field
name as that module parses them, no field unknown; the kinds the built-in definitions
leave out read as unknown fields, never a failure."""

from __future__ import annotations

import importlib
import sys

import pytest
from google.protobuf import descriptor_pb2

from tests.core.decode.payloads.test_message import _dict, same
from tests.tf_oracle import tf, tf_write
from tests.user_protos import _protoc
from tfr_viewer.core.decode import message_types
from tfr_viewer.core.decode.file_payloads import decode_record
from tfr_viewer.core.decode.payloads import payload_json
from tfr_viewer.core.io import Dataset

SERVING = """
syntax = "proto3";
package tensorflow.serving;
import "google/protobuf/wrappers.proto";
import "tensorflow/core/example/example.proto";
import "tensorflow/core/framework/tensor.proto";

message ModelSpec {
  string name = 1;
  oneof version_choice {
    google.protobuf.Int64Value version = 2;
    string version_label = 4;
  }
  string signature_name = 3;
}
message SamplingConfig { double sampling_rate = 1; }
message LogMetadata {
  ModelSpec model_spec = 1;
  SamplingConfig sampling_config = 2;
  repeated string saved_model_tags = 3;
}
message ExampleList { repeated tensorflow.Example examples = 1; }
message ExampleListWithContext {
  repeated tensorflow.Example examples = 1;
  tensorflow.Example context = 2;
}
message Input {
  oneof kind {
    ExampleList example_list = 1;
    ExampleListWithContext example_list_with_context = 2;
  }
}
message Class { string label = 1; float score = 2; }
message Classifications { repeated Class classes = 1; }
message ClassificationResult { repeated Classifications classifications = 1; }
message ClassificationRequest { ModelSpec model_spec = 1; Input input = 2; }
message ClassificationResponse { ModelSpec model_spec = 2; ClassificationResult result = 1; }
message Regression { float value = 1; }
message RegressionResult { repeated Regression regressions = 1; }
message RegressionRequest { ModelSpec model_spec = 1; Input input = 2; }
message RegressionResponse { ModelSpec model_spec = 2; RegressionResult result = 1; }
message PredictRequest {
  ModelSpec model_spec = 1;
  map<string, tensorflow.TensorProto> inputs = 2;
  repeated string output_filter = 3;
}
message PredictResponse {
  ModelSpec model_spec = 2;
  map<string, tensorflow.TensorProto> outputs = 1;
}
message ClassifyLog { ClassificationRequest request = 1; ClassificationResponse response = 2; }
message RegressLog { RegressionRequest request = 1; RegressionResponse response = 2; }
message PredictLog { PredictRequest request = 1; PredictResponse response = 2; }
message SessionRunLog { bytes request = 1; bytes response = 2; }
message PredictionLog {
  LogMetadata log_metadata = 1;
  oneof log_type {
    ClassifyLog classify_log = 2;
    RegressLog regress_log = 3;
    PredictLog predict_log = 6;
    SessionRunLog session_run_log = 5;
  }
}
"""


def _tensorflows_files():
    """TensorFlow's own Example and tensor definitions (and what they import), as the
    set ``protoc`` reads imports from."""
    from tensorflow.core.example import example_pb2
    from tensorflow.core.framework import tensor_pb2

    found: dict[str, descriptor_pb2.FileDescriptorProto] = {}

    def add(fd):
        if fd.name in found:
            return
        for dep in fd.dependencies:
            add(dep)
        proto = descriptor_pb2.FileDescriptorProto()
        fd.CopyToProto(proto)
        found[fd.name] = proto

    add(example_pb2.DESCRIPTOR)
    add(tensor_pb2.DESCRIPTOR)
    from google.protobuf import wrappers_pb2

    add(wrappers_pb2.DESCRIPTOR)
    return descriptor_pb2.FileDescriptorSet(file=list(found.values()))


@pytest.fixture(scope="module")
def serving(tmp_path_factory):
    tf()  # TensorFlow's own modules, which the generated one imports
    root = tmp_path_factory.mktemp("serving")
    (root / "protos" / "serving").mkdir(parents=True)
    (root / "protos" / "serving" / "prediction_log.proto").write_text(SERVING)
    imported = root / "tensorflow.pb"
    imported.write_bytes(_tensorflows_files().SerializeToString())
    out = root / "gen"
    out.mkdir()
    _protoc(f"--descriptor_set_in={imported}", f"-I{root / 'protos'}", f"--python_out={out}",
            "serving/prediction_log.proto")  # fmt: skip
    sys.path.insert(0, str(out))
    try:
        return importlib.import_module("serving.prediction_log_pb2")
    finally:
        sys.path.remove(str(out))


def _logs(module):
    t = tf()

    def example(i):
        return t.train.Example(features=t.train.Features(feature={
            "age": t.train.Feature(int64_list=t.train.Int64List(value=[30 + i])),
            "city": t.train.Feature(bytes_list=t.train.BytesList(value=[b"Oslo"])),
        }))  # fmt: skip

    def spec(version):
        m = module.ModelSpec(name="ranker", signature_name="serving_default")
        m.version.value = version
        return m

    logs = []
    for i in range(3):
        log = module.PredictionLog()
        log.log_metadata.model_spec.CopyFrom(spec(7 + i))
        log.log_metadata.saved_model_tags.append("serve")
        request = log.classify_log.request
        request.model_spec.CopyFrom(spec(7 + i))
        request.input.example_list.examples.extend([example(i), example(i + 1)])
        result = log.classify_log.response.result.classifications.add()
        result.classes.add(label="buy", score=0.25 * i)
        result.classes.add(label="skip", score=1 - 0.25 * i)
        logs.append(log)
    regress = module.PredictionLog()
    regress.log_metadata.model_spec.version_label = "stable"
    shared = regress.regress_log.request.input.example_list_with_context
    shared.context.CopyFrom(example(9))
    shared.examples.extend([example(1), example(2)])
    regress.regress_log.response.result.regressions.add(value=2.5)
    logs.append(regress)
    predict = module.PredictionLog()
    inputs = predict.predict_log.request.inputs
    inputs["x"].CopyFrom(t.make_tensor_proto([[1.5, 2.0], [3.0, -1.0]], dtype=t.float32))
    inputs["ids"].CopyFrom(t.make_tensor_proto([4, 5, 6], dtype=t.int64))
    predict.predict_log.request.output_filter.append("probabilities")
    predict.predict_log.response.outputs["probabilities"].CopyFrom(
        t.make_tensor_proto([0.1, 0.9], dtype=t.float32)
    )
    logs.append(predict)
    return logs


def test_every_log_reads_as_the_generated_module_reads_it(serving, tmp_path):
    logs = _logs(serving)
    path = tmp_path / "prediction_log.tfrecord"
    tf_write(path, [log.SerializeToString() for log in logs])
    kind = message_types.built_in().get("tensorflow.serving.PredictionLog")
    with Dataset([str(path)]) as ds:
        ds.index(verify=True)
        ds.message_type = kind
        for r in range(len(logs)):
            record = payload_json(decode_record(ds, r))
            assert record["message"] == "tensorflow.serving.PredictionLog"
            assert "unknown_fields" not in record, r
            same(record["fields"], _dict(serving.PredictionLog.FromString(ds.read(r))), f"{r}")
        shown = payload_json(decode_record(ds, 4))["fields"]["predict_log"]["request"]
        assert shown["inputs"]["x"]["dtype"] == "DT_FLOAT"


def test_a_kind_left_out_is_unknown_fields_never_a_failure(serving, tmp_path):
    from tests.program import program

    log = serving.PredictionLog()
    log.log_metadata.model_spec.name = "ranker"
    log.session_run_log.request = b"\x0a\x01x"
    path = tmp_path / "session.tfrecord"
    tf_write(path, [log.SerializeToString()])
    done = program("show", "--json", "0", str(path), "--message", "PredictionLog")
    assert done.returncode == 0, done.stderr
    import json

    shown = json.loads(done.stdout)
    assert shown["fields"]["log_metadata"]["model_spec"]["name"] == "ranker"
    assert shown["unknown_fields"] == 1
