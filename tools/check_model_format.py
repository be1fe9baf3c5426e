"""check-model-format: a model written by Python's safetensors package must
load in our reader and give the outputs numpy computes from the same file.

For two example models (tools/write_aimodel.py), writes the file, runs
`inference-bench run` (our reader and runtime) on random images, runs a numpy
forward pass of the layer list, and compares. Exits non-zero on a mismatch.

    python tools/check_model_format.py --runner .build/release/inference-bench --dir bench/out
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys

import numpy as np
from safetensors import safe_open

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from write_aimodel import LABELS, example_model, write_aimodel  # noqa: E402


def conv2d(x, w, b, stride, padding):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    x = np.pad(x, ((0, 0), (0, 0), (padding, padding), (padding, padding)))
    oh, ow = (h + 2 * padding - kh) // stride + 1, (wd + 2 * padding - kw) // stride + 1
    y = np.zeros((n, o, oh, ow), np.float64)
    for u in range(kh):
        for v in range(kw):
            patch = x[:, :, u:u + stride * oh:stride, v:v + stride * ow:stride]
            y += np.einsum("nchw,oc->nohw", patch, w[:, :, u, v], dtype=np.float64)
    if b is not None:
        y += b[None, :, None, None]
    return y


def pool(x, kernel, stride, padding, is_max):
    n, c, h, w = x.shape
    fill = -np.inf if is_max else 0.0
    x = np.pad(x, ((0, 0), (0, 0), (padding, padding), (padding, padding)), constant_values=fill)
    oh, ow = (h + 2 * padding - kernel) // stride + 1, (w + 2 * padding - kernel) // stride + 1
    windows = [x[:, :, u:u + stride * oh:stride, v:v + stride * ow:stride]
               for u in range(kernel) for v in range(kernel)]
    return np.max(windows, axis=0) if is_max else np.sum(windows, axis=0) / (kernel * kernel)


def forward(function, tensors, image):
    """The layer list in numpy, float64, straight from the file's metadata."""
    values = {"image": image.astype(np.float64)}
    for layer in function["layers"]:
        op = layer["op"]
        x = values[layer["inputs"][0]]
        if op == "conv2d":
            y = conv2d(x, tensors[layer["weight"]], tensors.get(layer.get("bias")),
                       layer.get("stride", 1), layer.get("padding", 0))
        elif op == "batchnorm":
            shape = (1, -1) + (1,) * (x.ndim - 2)
            scale = tensors[layer["gamma"]] / np.sqrt(tensors[layer["variance"]] + layer.get("epsilon", 1e-5))
            y = (x - tensors[layer["mean"]].reshape(shape)) * scale.reshape(shape) + tensors[layer["beta"]].reshape(shape)
        elif op == "relu":
            y = np.maximum(x, 0)
        elif op in ("maxpool", "avgpool"):
            y = pool(x, layer["kernel"], layer.get("stride", layer["kernel"]), layer.get("padding", 0),
                     op == "maxpool")
        elif op == "globalavgpool":
            y = x.mean(axis=(2, 3), keepdims=True)
        elif op == "flatten":
            y = x.reshape(x.shape[0], -1)
        elif op == "dense":
            y = x @ tensors[layer["weight"]].T.astype(np.float64)
            if layer.get("bias"):
                y += tensors[layer["bias"]]
        elif op == "dropout":
            y = x
        elif op == "add":
            y = x + values[layer["inputs"][1]]
        else:
            raise ValueError(f"unknown op {op}")
        values[layer["output"]] = y
    return values["logits"]


def check(runner, directory, pooled):
    path = os.path.join(directory, f"format-check{'-pooled' if pooled else ''}.aimodel")
    layers, tensors = example_model(seed=7, pooled=pooled)
    write_aimodel(path, name="format-check", version="1", labels=LABELS,
                  inputs=[("image", [-1, 1, 28, 28])], outputs=[("logits", [-1, 10])],
                  layers=layers, tensors=tensors, training={"written_by": "tools/check_model_format.py"},
                  # One of the two records what it learned from, as a fine-tune does: bytes beside the weights.
                  learned_images=[hashlib.sha256(b"%d" % i).hexdigest() for i in range(1000)] if pooled else ())

    # Read it back the way any safetensors user would, and run numpy on that.
    with safe_open(path, framework="numpy") as f:
        function = json.loads(f.metadata()["functions"])["main"]
        stored = {k: f.get_tensor(k) for k in f.keys() if k != "learned_images"}
    images = np.random.default_rng(3).random((13, 1, 28, 28), dtype=np.float32)
    expected = forward(function, stored, images)

    source, result = path + ".in.f32", path + ".out.f32"
    images.tofile(source)
    subprocess.run([runner, "run", "--model", path, "--input", source, "--count", str(len(images)),
                    "--output", result], check=True)
    ours = np.fromfile(result, np.float32).reshape(len(images), 10)
    for leftover in (source, result):
        os.remove(leftover)
    error = float(np.abs(ours - expected).max() / max(np.abs(expected).max(), 1e-3))
    ok = error < 1e-5
    print(f"{os.path.basename(path)}: {len(layers)} layers, {len(stored)} tensors; "
          f"largest difference from numpy {error:.1e} of the largest logit: {'ok' if ok else 'MISMATCH'}")
    return ok


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runner", required=True)
    parser.add_argument("--dir", required=True)
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    results = [check(args.runner, args.dir, pooled) for pooled in (False, True)]
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
