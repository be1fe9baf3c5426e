"""Write a wardrobe .aimodel from numpy arrays with the Python safetensors package.

An .aimodel is a plain safetensors file: float32 tensors (and the bytes of
`learned_images`, when given) plus a `__metadata__` map of strings describing
the model (docs/model-format.md).
Use it as a library:

    from write_aimodel import write_aimodel, layer
    write_aimodel("m.aimodel", name="mine", version="1", labels=[...],
                  inputs=[("image", [-1, 1, 28, 28])], outputs=[("logits", [-1, 10])],
                  layers=[layer("conv2d", "c1", ["image"], "c1", weight="c1.w", padding=1), ...],
                  tensors={"c1.w": np.ndarray, ...})

or from the command line, to write a small example CNN with random weights:

    python tools/write_aimodel.py OUT.aimodel [--seed N]
"""
import argparse
import json

import numpy as np
from safetensors.numpy import save_file

FORMAT = "wardrobe.aimodel"
FORMAT_VERSION = 1
LABELS = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
          "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]
OPERATIONS = {"conv2d", "batchnorm", "relu", "maxpool", "avgpool", "globalavgpool",
              "flatten", "dense", "dropout", "add"}


def layer(op, name, inputs, output, **fields):
    """One layer of the graph; fields are weight, bias, gamma, beta, mean,
    variance, epsilon, kernel, stride, padding, rate (see docs/model-format.md)."""
    if op not in OPERATIONS:
        raise ValueError(f"unknown operation {op!r}")
    entry = {"op": op, "name": name, "inputs": list(inputs), "output": output}
    entry.update({k: v for k, v in fields.items() if v is not None})
    return entry


def write_aimodel(path, *, name, version, labels, inputs, outputs, layers, tensors, training=None,
                  function="main", learned_images=()):
    """`learned_images`: SHA-256 hex strings of the catalogue images the model learned from,
    stored as the U8 tensor `learned_images` [N, 32] (docs/model-format.md)."""
    def signatures(pairs):
        return [{"name": n, "shape": list(shape)} for n, shape in pairs]

    metadata = {
        "format": FORMAT,
        "format_version": str(FORMAT_VERSION),
        "name": name,
        "version": version,
        "labels": json.dumps(list(labels)),
        "functions": json.dumps({function: {"inputs": signatures(inputs), "outputs": signatures(outputs),
                                            "layers": layers}}),
        "training": json.dumps(training or {}),
    }
    arrays = {key: np.ascontiguousarray(value, dtype=np.float32) for key, value in tensors.items()}
    for key, value in arrays.items():
        if not np.isfinite(value).all():
            raise ValueError(f"tensor {key!r} holds NaN or infinite values")
    if learned_images:
        digests = b"".join(bytes.fromhex(h) for h in sorted(set(learned_images)))
        arrays["learned_images"] = np.frombuffer(digests, np.uint8).reshape(-1, 32)
    save_file(arrays, path, metadata=metadata)


def example_model(seed=1, pooled=False):
    """A small CNN using every operation; `pooled` ends in global average pooling."""
    rng = np.random.default_rng(seed)

    def uniform(*shape, scale=0.5):
        return rng.uniform(-scale, scale, shape).astype(np.float32)

    t = {
        "c1.w": uniform(8, 1, 3, 3), "c1.b": uniform(8, scale=0.1),
        "bn1.g": 1 + uniform(8, scale=0.2), "bn1.b": uniform(8, scale=0.1),
        "bn1.m": uniform(8, scale=0.1), "bn1.v": 1 + uniform(8, scale=0.3),
        "c2.w": uniform(8, 8, 3, 3, scale=0.2),
        "c3.w": uniform(16, 8, 3, 3, scale=0.2), "c3.b": uniform(16, scale=0.1),
        "bn3.g": 1 + uniform(16, scale=0.2), "bn3.b": uniform(16, scale=0.1),
        "bn3.m": uniform(16, scale=0.1), "bn3.v": 1 + uniform(16, scale=0.3),
    }
    layers = [
        layer("conv2d", "c1", ["image"], "c1", weight="c1.w", bias="c1.b", stride=1, padding=1),
        layer("batchnorm", "bn1", ["c1"], "bn1", gamma="bn1.g", beta="bn1.b", mean="bn1.m", variance="bn1.v",
              epsilon=1e-5),
        layer("relu", "r1", ["bn1"], "r1"),
        layer("maxpool", "p1", ["r1"], "p1", kernel=2, stride=2),
        layer("conv2d", "c2", ["p1"], "c2", weight="c2.w", padding=1),
        layer("add", "res", ["c2", "p1"], "res"),
        layer("relu", "r2", ["res"], "r2"),
        layer("avgpool", "p2", ["r2"], "p2", kernel=2, stride=2),
        layer("conv2d", "c3", ["p2"], "c3", weight="c3.w", bias="c3.b", stride=2, padding=1),
        layer("batchnorm", "bn3", ["c3"], "bn3", gamma="bn3.g", beta="bn3.b", mean="bn3.m", variance="bn3.v",
              epsilon=1e-3),
        layer("relu", "r3", ["bn3"], "r3"),
    ]
    if pooled:
        t.update({"fc.w": uniform(10, 16), "fc.b": uniform(10, scale=0.1)})
        layers += [layer("globalavgpool", "gap", ["r3"], "gap"),
                   layer("flatten", "flat", ["gap"], "flat"),
                   layer("dense", "fc", ["flat"], "logits", weight="fc.w", bias="fc.b")]
    else:
        t.update({"fc1.w": uniform(32, 16 * 4 * 4, scale=0.1), "fc1.b": uniform(32, scale=0.1),
                  "fc2.w": uniform(10, 32, scale=0.3), "fc2.b": uniform(10, scale=0.1)})
        layers += [layer("flatten", "flat", ["r3"], "flat"),
                   layer("dense", "fc1", ["flat"], "fc1", weight="fc1.w", bias="fc1.b"),
                   layer("relu", "r4", ["fc1"], "r4"),
                   layer("dropout", "drop", ["r4"], "drop", rate=0.5),
                   layer("dense", "fc2", ["drop"], "logits", weight="fc2.w", bias="fc2.b")]
    return layers, t


def main():
    parser = argparse.ArgumentParser(description="write an example .aimodel with random weights")
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pooled", action="store_true", help="end in global average pooling")
    args = parser.parse_args()
    layers, tensors = example_model(args.seed, args.pooled)
    write_aimodel(args.out, name="example-cnn", version=f"seed-{args.seed}", labels=LABELS,
                  inputs=[("image", [-1, 1, 28, 28])], outputs=[("logits", [-1, 10])],
                  layers=layers, tensors=tensors, training={"written_by": "tools/write_aimodel.py"})


if __name__ == "__main__":
    main()
