"""The common parts of the prediction logs TensorFlow Serving writes into TFRecords
(its request logging, and the warm-up records of a SavedModel), defined from the public
field numbers and types of TensorFlow Serving's ``prediction_log.proto`` and the
messages it holds (package ``tensorflow.serving``): ``PredictionLog`` with its metadata
(the model's name, version and signature) and the classify, regress and predict logs,
each a request and its response. Built in (:func:`~.message_types.built_in`):
``--message tensorflow.serving.PredictionLog`` reads them by field name; the multi-
inference and session-run logs are not defined here (read, they are unknown fields)."""

from __future__ import annotations

from google.protobuf import descriptor_pb2

from .proto import OPT, REP, add_example_list_with_context, add_map, add_message

_F = descriptor_pb2.FieldDescriptorProto
_S = ".tensorflow.serving."
_TF = ".tensorflow."


def _request_response(fdp: descriptor_pb2.FileDescriptorProto, log: str, kind: str) -> None:
    """``<log>`` holding a ``<kind>Request`` (1) and a ``<kind>Response`` (2)."""
    add_message(
        fdp,
        log,
        [
            ("request", 1, _F.TYPE_MESSAGE, OPT, f"{_S}{kind}Request", None),
            ("response", 2, _F.TYPE_MESSAGE, OPT, f"{_S}{kind}Response", None),
        ],
    )


def build_file() -> descriptor_pb2.FileDescriptorProto:
    """The definitions, as a file that imports the Example and tensor definitions and
    protobuf's wrappers."""
    fdp = descriptor_pb2.FileDescriptorProto(
        name="tfr_viewer/tf_serving.proto",
        package="tensorflow.serving",
        syntax="proto3",
        dependency=["tfr_viewer/tf_messages.proto", "google/protobuf/wrappers.proto"],
    )
    add_message(
        fdp,
        "ModelSpec",
        [
            ("name", 1, _F.TYPE_STRING, OPT, None, None),
            ("version", 2, _F.TYPE_MESSAGE, OPT, ".google.protobuf.Int64Value", 0),
            ("signature_name", 3, _F.TYPE_STRING, OPT, None, None),
            ("version_label", 4, _F.TYPE_STRING, OPT, None, 0),
        ],
        oneofs=("version_choice",),
    )
    add_message(fdp, "SamplingConfig", [("sampling_rate", 1, _F.TYPE_DOUBLE, OPT, None, None)])
    add_message(
        fdp,
        "LogMetadata",
        [
            ("model_spec", 1, _F.TYPE_MESSAGE, OPT, _S + "ModelSpec", None),
            ("sampling_config", 2, _F.TYPE_MESSAGE, OPT, _S + "SamplingConfig", None),
            ("saved_model_tags", 3, _F.TYPE_STRING, REP, None, None),
        ],
    )
    add_message(fdp, "ExampleList", [("examples", 1, _F.TYPE_MESSAGE, REP, _TF + "Example", None)])
    add_example_list_with_context(fdp, _TF + "Example")
    add_message(
        fdp,
        "Input",
        [
            ("example_list", 1, _F.TYPE_MESSAGE, OPT, _S + "ExampleList", 0),
            (
                "example_list_with_context",
                2,
                _F.TYPE_MESSAGE,
                OPT,
                _S + "ExampleListWithContext",
                0,
            ),
        ],
        oneofs=("kind",),
    )
    add_message(
        fdp,
        "Class",
        [
            ("label", 1, _F.TYPE_STRING, OPT, None, None),
            ("score", 2, _F.TYPE_FLOAT, OPT, None, None),
        ],
    )
    add_message(fdp, "Classifications", [("classes", 1, _F.TYPE_MESSAGE, REP, _S + "Class", None)])
    add_message(
        fdp,
        "ClassificationResult",
        [("classifications", 1, _F.TYPE_MESSAGE, REP, _S + "Classifications", None)],
    )
    add_message(fdp, "Regression", [("value", 1, _F.TYPE_FLOAT, OPT, None, None)])
    add_message(
        fdp, "RegressionResult", [("regressions", 1, _F.TYPE_MESSAGE, REP, _S + "Regression", None)]
    )
    for kind, result in (
        ("Classification", "ClassificationResult"),
        ("Regression", "RegressionResult"),
    ):
        add_message(
            fdp,
            f"{kind}Request",
            [
                ("model_spec", 1, _F.TYPE_MESSAGE, OPT, _S + "ModelSpec", None),
                ("input", 2, _F.TYPE_MESSAGE, OPT, _S + "Input", None),
            ],
        )
        add_message(
            fdp,
            f"{kind}Response",
            [
                ("result", 1, _F.TYPE_MESSAGE, OPT, _S + result, None),
                ("model_spec", 2, _F.TYPE_MESSAGE, OPT, _S + "ModelSpec", None),
            ],
        )
    request = add_message(
        fdp,
        "PredictRequest",
        [
            ("model_spec", 1, _F.TYPE_MESSAGE, OPT, _S + "ModelSpec", None),
            ("inputs", 2, _F.TYPE_MESSAGE, REP, _S + "PredictRequest.InputsEntry", None),
            ("output_filter", 3, _F.TYPE_STRING, REP, None, None),
        ],
    )
    add_map(request, "InputsEntry", _TF + "TensorProto")
    response = add_message(
        fdp,
        "PredictResponse",
        [
            ("outputs", 1, _F.TYPE_MESSAGE, REP, _S + "PredictResponse.OutputsEntry", None),
            ("model_spec", 2, _F.TYPE_MESSAGE, OPT, _S + "ModelSpec", None),
        ],
    )
    add_map(response, "OutputsEntry", _TF + "TensorProto")
    _request_response(fdp, "ClassifyLog", "Classification")
    _request_response(fdp, "RegressLog", "Regression")
    _request_response(fdp, "PredictLog", "Predict")
    add_message(
        fdp,
        "PredictionLog",
        [
            ("log_metadata", 1, _F.TYPE_MESSAGE, OPT, _S + "LogMetadata", None),
            ("classify_log", 2, _F.TYPE_MESSAGE, OPT, _S + "ClassifyLog", 0),
            ("regress_log", 3, _F.TYPE_MESSAGE, OPT, _S + "RegressLog", 0),
            ("predict_log", 6, _F.TYPE_MESSAGE, OPT, _S + "PredictLog", 0),
        ],
        oneofs=("log_type",),
    )
    return fdp
