"""ONNX Runtime peer for bench-inference.

Exports an .aimodel (its layer graph and safetensors weights) to ONNX, times
it with onnxruntime on one thread exactly as inference-bench times our runtime
(batch-1 latency, batch-256 throughput, CPU time), and prints both side by
side with the ratios and the effective GFLOP/s against the measured peak.

    python bench/inference_peer.py --model M.aimodel --ours ours.json [--onnx out.onnx] [--seconds S]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from safetensors import safe_open


def load_aimodel(path):
    with safe_open(path, framework="numpy") as f:
        metadata = f.metadata()
        tensors = {name: f.get_tensor(name) for name in f.keys()}
    functions = json.loads(metadata["functions"])
    return metadata, functions["main"], tensors


def export_onnx(function, tensors):
    """The layer list as ONNX nodes; dropout is left out (identity at inference)."""
    nodes, initializers, alias = [], {}, {}

    def resolve(name):
        while name in alias:
            name = alias[name]
        return name

    def weight(name):
        if name not in initializers:
            initializers[name] = numpy_helper.from_array(tensors[name].astype(np.float32), name)
        return name

    for layer in function["layers"]:
        op, out = layer["op"], layer["output"]
        ins = [resolve(i) for i in layer["inputs"]]
        if op == "dropout":
            alias[out] = ins[0]
            continue
        if op == "conv2d":
            w = tensors[layer["weight"]]
            p, s = layer.get("padding", 0) or 0, layer.get("stride", 1) or 1
            args = ins + [weight(layer["weight"])] + ([weight(layer["bias"])] if layer.get("bias") else [])
            nodes.append(helper.make_node("Conv", args, [out], kernel_shape=list(w.shape[2:]),
                                          pads=[p, p, p, p], strides=[s, s]))
        elif op == "batchnorm":
            c = tensors[layer["mean"]].shape[0]
            for key, default in (("gamma", 1.0), ("beta", 0.0)):
                if not layer.get(key):
                    name = f"{layer['name']}.{key}"
                    tensors[name] = np.full(c, default, np.float32)
                    layer[key] = name
            nodes.append(helper.make_node(
                "BatchNormalization",
                ins + [weight(layer["gamma"]), weight(layer["beta"]), weight(layer["mean"]), weight(layer["variance"])],
                [out], epsilon=float(layer.get("epsilon") or 1e-5)))
        elif op == "relu":
            nodes.append(helper.make_node("Relu", ins, [out]))
        elif op in ("maxpool", "avgpool"):
            k = layer["kernel"]
            s, p = layer.get("stride") or k, layer.get("padding", 0) or 0
            extra = {"count_include_pad": 1} if op == "avgpool" else {}
            nodes.append(helper.make_node("MaxPool" if op == "maxpool" else "AveragePool", ins, [out],
                                          kernel_shape=[k, k], strides=[s, s], pads=[p, p, p, p], **extra))
        elif op == "globalavgpool":
            nodes.append(helper.make_node("GlobalAveragePool", ins, [out]))
        elif op == "flatten":
            nodes.append(helper.make_node("Flatten", ins, [out], axis=1))
        elif op == "dense":
            args = ins + [weight(layer["weight"])] + ([weight(layer["bias"])] if layer.get("bias") else [])
            nodes.append(helper.make_node("Gemm", args, [out], transB=1))
        elif op == "add":
            nodes.append(helper.make_node("Add", ins, [out]))
        else:
            sys.exit(f"inference_peer: unknown op {op}")

    def value_info(signature):
        shape = ["N" if d == -1 else d for d in signature["shape"]]
        return helper.make_tensor_value_info(signature["name"], TensorProto.FLOAT, shape)

    outputs = function["outputs"]
    for o in outputs:
        if resolve(o["name"]) != o["name"]:
            nodes.append(helper.make_node("Identity", [resolve(o["name"])], [o["name"]]))
    graph = helper.make_graph(nodes, "main", [value_info(i) for i in function["inputs"]],
                              [value_info(o) for o in outputs], list(initializers.values()))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def measure(seconds, body):
    """Median CPU (process) and wall seconds per call, as inference-bench does."""
    end = time.process_time() + min(0.2, seconds / 5)
    while time.process_time() < end:
        body()
    per_round = 1
    while True:
        start = time.process_time()
        for _ in range(per_round):
            body()
        if time.process_time() - start >= 0.002:
            break
        per_round *= 2
    cpu, wall = [], []
    end = time.process_time() + seconds
    while time.process_time() < end or len(cpu) < 5:
        c0, w0 = time.process_time(), time.perf_counter()
        for _ in range(per_round):
            body()
        cpu.append((time.process_time() - c0) / per_round)
        wall.append((time.perf_counter() - w0) / per_round)
    return statistics.median(cpu), statistics.median(wall)


def check_same_logits(runner, model, session):
    """Both runtimes on the same 64 images must agree, or the timings compare different work."""
    images = np.random.default_rng(2).random((64, 1, 28, 28), dtype=np.float32)
    expected = session.run(["logits"], {"image": images})[0]
    with tempfile.TemporaryDirectory() as directory:
        source, result = os.path.join(directory, "in.f32"), os.path.join(directory, "out.f32")
        images.tofile(source)
        subprocess.run([runner, "run", "--model", model, "--input", source, "--count", "64", "--output", result],
                       check=True, stdout=subprocess.DEVNULL)
        ours = np.fromfile(result, np.float32).reshape(64, 10)
    error = float(np.abs(ours - expected).max() / max(np.abs(expected).max(), 1e-3))
    status = "agree" if error < 1e-4 else "DISAGREE"
    print(f"logits of 64 images: wardrobe and onnxruntime {status} (largest difference {error:.1e} of the largest logit)")
    if error >= 1e-4:
        sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    parser.add_argument("--ours", required=True, help="JSON written by inference-bench bench --json")
    parser.add_argument("--onnx", help="where to save the exported ONNX model")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--runner", help="inference-bench binary, to check both runtimes give the same logits")
    args = parser.parse_args()

    _, function, tensors = load_aimodel(args.model)
    model = export_onnx(function, tensors)
    if args.onnx:
        onnx.save(model, args.onnx)
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])

    rng = np.random.default_rng(1)
    timings = {}
    for batch in (1, 256):
        images = rng.random((batch, 1, 28, 28), dtype=np.float32)
        logits = np.empty((batch, 10), np.float32)
        # IO binding to preallocated arrays: the lowest-overhead way to call ORT from Python.
        binding = session.io_binding()
        binding.bind_cpu_input("image", images)
        binding.bind_output("logits", "cpu", 0, np.float32, list(logits.shape), logits.ctypes.data)
        timings[batch] = measure(args.seconds, lambda: session.run_with_iobinding(binding))

    if args.runner:
        check_same_logits(args.runner, args.model, session)
    ours = json.load(open(args.ours))
    flops = ours["flops_per_image"]
    peak = ours["peak_gflops"]
    ort1, ort1_wall = timings[1][0] * 1e6, timings[1][1] * 1e6
    ort256, ort256_wall = 256 / timings[256][0], 256 / timings[256][1]
    us1, us256 = ours["batch1_us"], ours["batch256_images_per_s"]

    def gf(images_per_s):
        return flops * images_per_s * 1e-9

    print()
    print(f"bench-inference: {args.model}  ({flops / 1e6:.1f} MFLOP/image, one thread, CPU time;"
          f" peak {peak:.1f} GFLOP/s measured by an FMA loop, {ours['vector_width']}-wide vectors;"
          f" our kernels {ours.get('kernel_vector_width', '?')}-wide)")
    print(f"onnxruntime {ort.__version__}, graph optimisation ALL, intra/inter-op threads 1, IO binding")
    print()
    print(f"{'':28} {'wardrobe':>12} {'onnxruntime':>12} {'ratio':>8}")
    print(f"{'batch 1, us/image':28} {us1:12.1f} {ort1:12.1f} {ort1 / us1:7.2f}x   (ORT time / ours; >= 1 meets the target)")
    print(f"{'batch 256, images/s':28} {us256:12.0f} {ort256:12.0f} {us256 / ort256:7.2f}x   (ours / ORT; >= 0.8 meets the target)")
    print(f"{'batch 1, GFLOP/s':28} {gf(1e6 / us1):12.1f} {gf(1e6 / ort1):12.1f}")
    print(f"{'batch 256, GFLOP/s':28} {gf(us256):12.1f} {gf(ort256):12.1f}")
    print(f"{'batch 1, % of peak':28} {100 * gf(1e6 / us1) / peak:11.0f}% {100 * gf(1e6 / ort1) / peak:11.0f}%")
    print(f"{'batch 256, % of peak':28} {100 * gf(us256) / peak:11.0f}% {100 * gf(ort256) / peak:11.0f}%")
    print(f"{'wall: batch 1, us/image':28} {ours['batch1_wall_us']:12.1f} {ort1_wall:12.1f}   (wall clock: includes time other processes held the core)")
    print(f"{'wall: batch 256, images/s':28} {ours['batch256_wall_images_per_s']:12.0f} {ort256_wall:12.0f}")
    met1, met256 = us1 <= ort1, us256 >= 0.8 * ort256
    print()
    print(f"targets: batch-1 latency <= ORT: {'met' if met1 else 'NOT met'}; "
          f"batch-256 throughput >= 0.8x ORT: {'met' if met256 else 'NOT met'}")


if __name__ == "__main__":
    main()
