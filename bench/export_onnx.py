"""Writes an .aimodel's function `main` as an ONNX model, so the Python peer of
bench-import runs onnxruntime on exactly the weights `wardrobe import` uses.

The .aimodel is a safetensors file whose metadata holds the layer graph
(docs/model-format.md); every layer op maps onto one ONNX operator.

    python bench/export_onnx.py MODEL.aimodel OUT.onnx
"""
import json
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from safetensors import safe_open


def export(model_path, out_path):
    with safe_open(model_path, framework="numpy") as f:
        metadata = f.metadata()
        tensors = {name: f.get_tensor(name) for name in f.keys()}
    main = json.loads(metadata["functions"])["main"]
    (source,) = main["inputs"]
    (target,) = main["outputs"]

    nodes, initializers = [], []
    used = set()

    def weight(name):
        if name not in used:
            used.add(name)
            initializers.append(numpy_helper.from_array(tensors[name].astype(np.float32), name))
        return name

    for layer in main["layers"]:
        op, inputs, output = layer["op"], layer["inputs"], layer["output"]
        if op == "conv2d":
            w = tensors[layer["weight"]]
            args = inputs + [weight(layer["weight"])] + ([weight(layer["bias"])] if layer.get("bias") else [])
            pad = layer.get("padding", 0)
            nodes.append(helper.make_node("Conv", args, [output], kernel_shape=list(w.shape[2:]),
                                          strides=[layer.get("stride", 1)] * 2, pads=[pad] * 4))
        elif op == "batchnorm":
            args = inputs + [weight(layer[k]) for k in ("gamma", "beta", "mean", "variance")]
            nodes.append(helper.make_node("BatchNormalization", args, [output], epsilon=layer.get("epsilon", 1e-5)))
        elif op == "relu":
            nodes.append(helper.make_node("Relu", inputs, [output]))
        elif op in ("maxpool", "avgpool"):
            pad = layer.get("padding", 0)
            nodes.append(helper.make_node("MaxPool" if op == "maxpool" else "AveragePool", inputs, [output],
                                          kernel_shape=[layer["kernel"]] * 2,
                                          strides=[layer.get("stride", layer["kernel"])] * 2, pads=[pad] * 4))
        elif op == "globalavgpool":
            nodes.append(helper.make_node("GlobalAveragePool", inputs, [output]))
        elif op == "flatten":
            nodes.append(helper.make_node("Flatten", inputs, [output], axis=1))
        elif op == "dense":
            args = inputs + [weight(layer["weight"])] + ([weight(layer["bias"])] if layer.get("bias") else [])
            # PyTorch's convention, weight [out, in]: y = x W^T + b.
            nodes.append(helper.make_node("Gemm", args, [output], transB=1))
        elif op == "dropout":
            nodes.append(helper.make_node("Identity", inputs, [output]))
        elif op == "add":
            nodes.append(helper.make_node("Add", inputs, [output]))
        else:
            sys.exit(f"export_onnx: no ONNX mapping for layer op {op!r}")

    # The function's output is the last layer's value; name it as the signature does.
    if main["layers"][-1]["output"] != target["name"]:
        nodes.append(helper.make_node("Identity", [main["layers"][-1]["output"]], [target["name"]]))
    shape = lambda s: ["N" if d == -1 else d for d in s]
    graph = helper.make_graph(
        nodes, "main",
        [helper.make_tensor_value_info(source["name"], TensorProto.FLOAT, shape(source["shape"]))],
        [helper.make_tensor_value_info(target["name"], TensorProto.FLOAT, shape(target["shape"]))],
        initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="wardrobe-bench")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, out_path)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: export_onnx.py MODEL.aimodel OUT.onnx")
    export(sys.argv[1], sys.argv[2])
