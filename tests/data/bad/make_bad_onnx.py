#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the broken and edge-case ONNX files that tests/model/test_onnx_import.cpp loads.

Run from anywhere: python3 make_bad_onnx.py [path/to/light_squeezenet.onnx]
The generated files are committed; rerun only to change them.
"""
import os
import random
import sys

import onnx
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
SQUEEZENET = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    HERE, "../../../../shared/data/onnx/light/light_squeezenet.onnx")


def save(model, name):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(model.SerializeToString())


def image_model(nodes, opset, extra_inputs=(), outputs=None):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])
    outs = outputs or [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)]
    graph = helper.make_graph(nodes, "bad", [x, *extra_inputs], outs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def main():
    with open(SQUEEZENET, "rb") as f:
        real = f.read()
    with open(os.path.join(HERE, "truncated.onnx"), "wb") as f:
        f.write(real[: len(real) // 2])

    rng = random.Random(20261121)
    with open(os.path.join(HERE, "random_bytes.onnx"), "wb") as f:
        f.write(bytes([0x08]) + bytes(rng.randrange(256) for _ in range(511)))

    open(os.path.join(HERE, "empty.onnx"), "wb").close()

    save(image_model([helper.make_node("Conv", ["x"], ["y"], name="conv_no_weight")], 13),
         "conv_missing_weight.onnx")
    save(image_model([helper.make_node("MaxPool", ["x"], ["y"], name="pool_no_kernel")], 13),
         "pool_missing_kernel.onnx")
    save(image_model([helper.make_node("Add", ["x", "ghost"], ["y"], name="add_ghost")], 13),
         "undefined_input.onnx")
    save(image_model([helper.make_node("Dropout", ["x"], ["d", "mask"], name="drop"),
                      helper.make_node("Cast", ["mask"], ["y"], name="use_mask", to=TensorProto.FLOAT)], 13),
         "dropout_mask_used.onnx")
    save(image_model([helper.make_node("Relu", ["x"], ["r"], name="relu"),
                      helper.make_node("Add", ["r", "x"], ["y"], name="add")], 18,
                     outputs=[helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 8, 8])]),
         "opset18_known_ops.onnx")

    dyn = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3, None])
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu")], "dynamic", [dyn],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), "dynamic_dims.onnx")
    save(image_model([helper.make_node("Relu", ["x"], ["y"], name="relu")], 13,
                     outputs=[helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 8, 9])]),
         "wrong_output_shape.onnx")

    # Names and string attributes that are not UTF-8 (protobuf does not check them in ONNX's proto2 schema):
    # placeholders of the same length are swapped for invalid bytes after serialising.
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu_@@"),
             helper.make_node("FancyOp", ["r"], ["y"], name="fancy", domain="com.example", mode="##")]
    data = image_model(nodes, 13).SerializeToString()
    data = data.replace(b"relu_@@", b"relu_\xff\xfe").replace(b"##", b"\xc3(")
    with open(os.path.join(HERE, "invalid_utf8.onnx"), "wb") as f:
        f.write(data)

    # A graph input declared twice (found by fuzz_onnx_import): libonnx 1.12's shape inference of an opset-6 Gemm
    # reading it crashes, so the importer refuses such a model before inference.
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 3])
    b = helper.make_tensor_value_info("b", TensorProto.FLOAT, [3, 4])
    b_again = helper.make_tensor_value_info("b", TensorProto.FLOAT, [4])
    graph = helper.make_graph([helper.make_node("Gemm", ["a", "b", "b"], ["y"], name="gemm")], "bad", [a, b, b_again],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 6)])
    model.ir_version = 3
    save(model, "duplicate_graph_input.onnx")

    # Gemm (opset 6) with a 1-D B (found by fuzz_onnx_import): libonnx 1.12's inference of it reads past B's dims
    # and crashes; the importer guards it with a rank check.
    b_1d = helper.make_tensor_value_info("b", TensorProto.FLOAT, [4])
    graph = helper.make_graph([helper.make_node("Gemm", ["a", "b", "b"], ["y"], name="gemm")], "bad", [a, b_1d],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 6)])
    model.ir_version = 3
    save(model, "gemm6_rank1_b.onnx")


if __name__ == "__main__":
    main()
