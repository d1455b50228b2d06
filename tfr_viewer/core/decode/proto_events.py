"""The messages TensorBoard's event files hold, defined from the public field numbers
and types of TensorFlow's ``event.proto``, ``summary.proto`` and ``histogram.proto``
(package ``tensorflow``): ``Event``, its ``Summary`` of tagged values (scalars,
pictures, histograms, audio, tensors with their plugin's metadata), log messages and
session statuses. Built in (:func:`~.message_types.built_in`): ``--message
tensorflow.Event`` reads an event file by field name as a user's type is read; the
``event`` decoder (:mod:`.payloads.event`) reads the same fields for the run view."""

from __future__ import annotations

from google.protobuf import descriptor_pb2

from .proto import OPT, REP, add_enum, add_message

_F = descriptor_pb2.FieldDescriptorProto
_T = ".tensorflow."


def build_file() -> descriptor_pb2.FileDescriptorProto:
    """The definitions, as a file that imports the Example and tensor definitions."""
    fdp = descriptor_pb2.FileDescriptorProto(
        name="tfr_viewer/tf_events.proto",
        package="tensorflow",
        syntax="proto3",
        dependency=["tfr_viewer/tf_messages.proto"],
    )
    add_message(
        fdp,
        "HistogramProto",
        [
            ("min", 1, _F.TYPE_DOUBLE, OPT, None, None),
            ("max", 2, _F.TYPE_DOUBLE, OPT, None, None),
            ("num", 3, _F.TYPE_DOUBLE, OPT, None, None),
            ("sum", 4, _F.TYPE_DOUBLE, OPT, None, None),
            ("sum_squares", 5, _F.TYPE_DOUBLE, OPT, None, None),
            ("bucket_limit", 6, _F.TYPE_DOUBLE, REP, None, None),
            ("bucket", 7, _F.TYPE_DOUBLE, REP, None, None),
        ],
    )
    add_enum(
        fdp,
        "DataClass",
        {
            "DATA_CLASS_UNKNOWN": 0,
            "DATA_CLASS_SCALAR": 1,
            "DATA_CLASS_TENSOR": 2,
            "DATA_CLASS_BLOB_SEQUENCE": 3,
        },
    )
    metadata = add_message(
        fdp,
        "SummaryMetadata",
        [
            ("plugin_data", 1, _F.TYPE_MESSAGE, OPT, _T + "SummaryMetadata.PluginData", None),
            ("display_name", 2, _F.TYPE_STRING, OPT, None, None),
            ("summary_description", 3, _F.TYPE_STRING, OPT, None, None),
            ("data_class", 4, _F.TYPE_ENUM, OPT, _T + "DataClass", None),
        ],
    )
    add_message(
        metadata,
        "PluginData",
        [
            ("plugin_name", 1, _F.TYPE_STRING, OPT, None, None),
            ("content", 2, _F.TYPE_BYTES, OPT, None, None),
        ],
    )
    summary = add_message(
        fdp, "Summary", [("value", 1, _F.TYPE_MESSAGE, REP, _T + "Summary.Value", None)]
    )
    add_message(
        summary,
        "Image",
        [
            ("height", 1, _F.TYPE_INT32, OPT, None, None),
            ("width", 2, _F.TYPE_INT32, OPT, None, None),
            ("colorspace", 3, _F.TYPE_INT32, OPT, None, None),
            ("encoded_image_string", 4, _F.TYPE_BYTES, OPT, None, None),
        ],
    )
    add_message(
        summary,
        "Audio",
        [
            ("sample_rate", 1, _F.TYPE_FLOAT, OPT, None, None),
            ("num_channels", 2, _F.TYPE_INT64, OPT, None, None),
            ("length_frames", 3, _F.TYPE_INT64, OPT, None, None),
            ("encoded_audio_string", 4, _F.TYPE_BYTES, OPT, None, None),
            ("content_type", 5, _F.TYPE_STRING, OPT, None, None),
        ],
    )
    add_message(
        summary,
        "Value",
        [
            ("tag", 1, _F.TYPE_STRING, OPT, None, None),
            ("simple_value", 2, _F.TYPE_FLOAT, OPT, None, 0),
            ("obsolete_old_style_histogram", 3, _F.TYPE_BYTES, OPT, None, 0),
            ("image", 4, _F.TYPE_MESSAGE, OPT, _T + "Summary.Image", 0),
            ("histo", 5, _F.TYPE_MESSAGE, OPT, _T + "HistogramProto", 0),
            ("audio", 6, _F.TYPE_MESSAGE, OPT, _T + "Summary.Audio", 0),
            ("node_name", 7, _F.TYPE_STRING, OPT, None, None),
            ("tensor", 8, _F.TYPE_MESSAGE, OPT, _T + "TensorProto", 0),
            ("metadata", 9, _F.TYPE_MESSAGE, OPT, _T + "SummaryMetadata", None),
        ],
        oneofs=("value",),
    )
    log = add_message(
        fdp,
        "LogMessage",
        [
            ("level", 1, _F.TYPE_ENUM, OPT, _T + "LogMessage.Level", None),
            ("message", 2, _F.TYPE_STRING, OPT, None, None),
        ],
    )
    add_enum(
        log,
        "Level",
        {"UNKNOWN": 0, "DEBUGGING": 10, "INFO": 20, "WARN": 30, "ERROR": 40, "FATAL": 50},
    )
    session = add_message(
        fdp,
        "SessionLog",
        [
            ("status", 1, _F.TYPE_ENUM, OPT, _T + "SessionLog.SessionStatus", None),
            ("checkpoint_path", 2, _F.TYPE_STRING, OPT, None, None),
            ("msg", 3, _F.TYPE_STRING, OPT, None, None),
        ],
    )
    add_enum(
        session,
        "SessionStatus",
        {"STATUS_UNSPECIFIED": 0, "START": 1, "STOP": 2, "CHECKPOINT": 3},
    )
    add_message(
        fdp,
        "TaggedRunMetadata",
        [
            ("tag", 1, _F.TYPE_STRING, OPT, None, None),
            ("run_metadata", 2, _F.TYPE_BYTES, OPT, None, None),
        ],
    )
    add_message(fdp, "SourceMetadata", [("writer", 1, _F.TYPE_STRING, OPT, None, None)])
    add_message(
        fdp,
        "Event",
        [
            ("wall_time", 1, _F.TYPE_DOUBLE, OPT, None, None),
            ("step", 2, _F.TYPE_INT64, OPT, None, None),
            ("file_version", 3, _F.TYPE_STRING, OPT, None, 0),
            ("graph_def", 4, _F.TYPE_BYTES, OPT, None, 0),
            ("summary", 5, _F.TYPE_MESSAGE, OPT, _T + "Summary", 0),
            ("log_message", 6, _F.TYPE_MESSAGE, OPT, _T + "LogMessage", 0),
            ("session_log", 7, _F.TYPE_MESSAGE, OPT, _T + "SessionLog", 0),
            ("tagged_run_metadata", 8, _F.TYPE_MESSAGE, OPT, _T + "TaggedRunMetadata", 0),
            ("meta_graph_def", 9, _F.TYPE_BYTES, OPT, None, 0),
            ("source_metadata", 10, _F.TYPE_MESSAGE, OPT, _T + "SourceMetadata", None),
        ],
        oneofs=("what",),
    )
    return fdp
