"""Our own message schema for tf.train.Example, SequenceExample and TensorProto.

The descriptors are built at run time from the public field numbers and types, in a
private descriptor pool (so they never clash with TensorFlow's if both are loaded), and
parsed by the protobuf runtime's compiled backend.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_F = descriptor_pb2.FieldDescriptorProto
_PACKAGE = "tensorflow"

# (name, number, type, label, type_name or None, oneof index or None)
_Field = tuple[str, int, int, int, str | None, int | None]
OPT, REP = _F.LABEL_OPTIONAL, _F.LABEL_REPEATED


def add_message(
    fdp: descriptor_pb2.FileDescriptorProto | descriptor_pb2.DescriptorProto,
    name: str,
    fields: list[_Field],
    oneofs: tuple[str, ...] = (),
    map_entry: bool = False,
) -> descriptor_pb2.DescriptorProto:
    """Define message ``name`` in a file or inside a message: ``fields`` as
    ``(name, number, type, label, type_name or None, oneof index or None)``."""
    msg = fdp.message_type.add() if hasattr(fdp, "message_type") else fdp.nested_type.add()
    msg.name = name
    if map_entry:
        msg.options.map_entry = True
    for oneof in oneofs:
        msg.oneof_decl.add().name = oneof
    for fname, number, ftype, label, type_name, oneof_index in fields:
        f = msg.field.add(name=fname, number=number, type=ftype, label=label)
        f.json_name = fname
        if type_name:
            f.type_name = type_name
        if oneof_index is not None:
            f.oneof_index = oneof_index
    return msg


def add_map(parent: descriptor_pb2.DescriptorProto, entry: str, value_type: str) -> None:
    """Define the entry type ``entry`` of a map from text to the message ``value_type``
    inside ``parent``."""
    add_message(
        parent,
        entry,
        [
            ("key", 1, _F.TYPE_STRING, OPT, None, None),
            ("value", 2, _F.TYPE_MESSAGE, OPT, value_type, None),
        ],
        map_entry=True,
    )


# TensorFlow's element types (types.proto), each with its reference type 100 on
_PLAIN_TYPES = (
    "INVALID FLOAT DOUBLE INT32 UINT8 INT16 INT8 STRING COMPLEX64 INT64 BOOL QINT8 QUINT8 "
    "QINT32 BFLOAT16 QINT16 QUINT16 UINT16 COMPLEX128 HALF RESOURCE VARIANT UINT32 UINT64 "
    "FLOAT8_E5M2 FLOAT8_E4M3FN FLOAT8_E4M3FNUZ FLOAT8_E4M3B11FNUZ FLOAT8_E5M2FNUZ INT4 UINT4 "
    "INT2 UINT2 FLOAT4_E2M1FN"
).split()
_DATA_TYPES = {
    **{f"DT_{name}": n for n, name in enumerate(_PLAIN_TYPES)},
    **{f"DT_{name}_REF": 100 + n for n, name in enumerate(_PLAIN_TYPES) if n},
}


def add_example_list_with_context(
    fdp: descriptor_pb2.FileDescriptorProto, example: str
) -> descriptor_pb2.DescriptorProto:
    """Define ``ExampleListWithContext`` in ``fdp``: Examples (1) sharing a context
    Example (2), of the full type name ``example``, as TF-Ranking and TensorFlow
    Serving both write it, each in its own package."""
    return add_message(
        fdp,
        "ExampleListWithContext",
        [
            ("examples", 1, _F.TYPE_MESSAGE, REP, example, None),
            ("context", 2, _F.TYPE_MESSAGE, OPT, example, None),
        ],
    )


def add_enum(
    fdp: descriptor_pb2.FileDescriptorProto | descriptor_pb2.DescriptorProto,
    name: str,
    values: dict[str, int],
) -> None:
    """Define enum ``name`` with ``values`` in a file or inside a message."""
    enum = fdp.enum_type.add(name=name)
    for value, number in values.items():
        enum.value.add(name=value, number=number)


def _build_file() -> descriptor_pb2.FileDescriptorProto:
    fdp = descriptor_pb2.FileDescriptorProto(
        name="tfr_viewer/tf_messages.proto", package=_PACKAGE, syntax="proto3"
    )
    t = f".{_PACKAGE}."
    add_message(fdp, "BytesList", [("value", 1, _F.TYPE_BYTES, REP, None, None)])
    add_message(fdp, "FloatList", [("value", 1, _F.TYPE_FLOAT, REP, None, None)])
    add_message(fdp, "Int64List", [("value", 1, _F.TYPE_INT64, REP, None, None)])
    add_message(
        fdp,
        "Feature",
        [
            ("bytes_list", 1, _F.TYPE_MESSAGE, OPT, t + "BytesList", 0),
            ("float_list", 2, _F.TYPE_MESSAGE, OPT, t + "FloatList", 0),
            ("int64_list", 3, _F.TYPE_MESSAGE, OPT, t + "Int64List", 0),
        ],
        oneofs=("kind",),
    )
    features = add_message(
        fdp, "Features", [("feature", 1, _F.TYPE_MESSAGE, REP, t + "Features.FeatureEntry", None)]
    )
    add_map(features, "FeatureEntry", t + "Feature")
    add_message(fdp, "FeatureList", [("feature", 1, _F.TYPE_MESSAGE, REP, t + "Feature", None)])
    lists = add_message(
        fdp,
        "FeatureLists",
        [("feature_list", 1, _F.TYPE_MESSAGE, REP, t + "FeatureLists.FeatureListEntry", None)],
    )
    add_map(lists, "FeatureListEntry", t + "FeatureList")
    add_message(fdp, "Example", [("features", 1, _F.TYPE_MESSAGE, OPT, t + "Features", None)])
    add_message(
        fdp,
        "SequenceExample",
        [
            ("context", 1, _F.TYPE_MESSAGE, OPT, t + "Features", None),
            ("feature_lists", 2, _F.TYPE_MESSAGE, OPT, t + "FeatureLists", None),
        ],
    )
    # TF-Ranking's list of Examples sharing a context (input_pb2.ExampleListWithContext)
    add_example_list_with_context(fdp, t + "Example")
    add_enum(fdp, "DataType", _DATA_TYPES)
    shape = add_message(
        fdp,
        "TensorShapeProto",
        [
            ("dim", 2, _F.TYPE_MESSAGE, REP, t + "TensorShapeProto.Dim", None),
            ("unknown_rank", 3, _F.TYPE_BOOL, OPT, None, None),
        ],
    )
    add_message(
        shape,
        "Dim",
        [("size", 1, _F.TYPE_INT64, OPT, None, None), ("name", 2, _F.TYPE_STRING, OPT, None, None)],
    )
    add_message(
        fdp,
        "TensorProto",
        [
            ("dtype", 1, _F.TYPE_ENUM, OPT, t + "DataType", None),
            ("tensor_shape", 2, _F.TYPE_MESSAGE, OPT, t + "TensorShapeProto", None),
            ("version_number", 3, _F.TYPE_INT32, OPT, None, None),
            ("tensor_content", 4, _F.TYPE_BYTES, OPT, None, None),
            ("float_val", 5, _F.TYPE_FLOAT, REP, None, None),
            ("double_val", 6, _F.TYPE_DOUBLE, REP, None, None),
            ("int_val", 7, _F.TYPE_INT32, REP, None, None),
            ("string_val", 8, _F.TYPE_BYTES, REP, None, None),
            ("scomplex_val", 9, _F.TYPE_FLOAT, REP, None, None),
            ("int64_val", 10, _F.TYPE_INT64, REP, None, None),
            ("bool_val", 11, _F.TYPE_BOOL, REP, None, None),
            ("dcomplex_val", 12, _F.TYPE_DOUBLE, REP, None, None),
            ("half_val", 13, _F.TYPE_INT32, REP, None, None),
            ("uint32_val", 16, _F.TYPE_UINT32, REP, None, None),
            ("uint64_val", 17, _F.TYPE_UINT64, REP, None, None),
        ],
    )
    add_message(fdp, "RawMessage", [])  # no fields: everything parses as unknown fields
    # The same wire format with the feature keys as bytes: what TensorFlow's own C++
    # parser accepts when a key is not valid UTF-8 (protobuf's string check refuses it).
    add_message(
        fdp,
        "KeyedFeature",
        [
            ("key", 1, _F.TYPE_BYTES, OPT, None, None),
            ("value", 2, _F.TYPE_MESSAGE, OPT, t + "Feature", None),
        ],
    )
    add_message(
        fdp, "BytesKeyedFeatures", [("feature", 1, _F.TYPE_MESSAGE, REP, t + "KeyedFeature", None)]
    )
    add_message(
        fdp,
        "BytesKeyedExample",
        [("features", 1, _F.TYPE_MESSAGE, OPT, t + "BytesKeyedFeatures", None)],
    )
    add_message(
        fdp,
        "KeyedFeatureList",
        [
            ("key", 1, _F.TYPE_BYTES, OPT, None, None),
            ("value", 2, _F.TYPE_MESSAGE, OPT, t + "FeatureList", None),
        ],
    )
    add_message(
        fdp,
        "BytesKeyedFeatureLists",
        [("feature_list", 1, _F.TYPE_MESSAGE, REP, t + "KeyedFeatureList", None)],
    )
    add_message(
        fdp,
        "BytesKeyedSequenceExample",
        [
            ("context", 1, _F.TYPE_MESSAGE, OPT, t + "BytesKeyedFeatures", None),
            ("feature_lists", 2, _F.TYPE_MESSAGE, OPT, t + "BytesKeyedFeatureLists", None),
        ],
    )
    return fdp


FILE = _build_file()  # the definitions, for a pool of their own (message_types.built_in)
_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(FILE)


def _cls(name: str) -> Any:
    return message_factory.GetMessageClass(_POOL.FindMessageTypeByName(f"{_PACKAGE}.{name}"))


BytesList = _cls("BytesList")
FloatList = _cls("FloatList")
Int64List = _cls("Int64List")
Feature = _cls("Feature")
Features = _cls("Features")
FeatureList = _cls("FeatureList")
FeatureLists = _cls("FeatureLists")
Example = _cls("Example")
SequenceExample = _cls("SequenceExample")
ExampleListWithContext = _cls("ExampleListWithContext")
TensorShapeProto = _cls("TensorShapeProto")
TensorProto = _cls("TensorProto")
RawMessage = _cls("RawMessage")
BytesKeyedExample = _cls("BytesKeyedExample")
BytesKeyedSequenceExample = _cls("BytesKeyedSequenceExample")


def backend() -> str:
    """The protobuf runtime in use (``upb`` is the compiled one)."""
    from google.protobuf.internal import api_implementation

    return api_implementation.Type()
