"""Writes an .aimodel's function `main` as an ONNX file, so the Python peer of
bench-import runs onnxruntime on exactly the weights `wardrobe import` uses.
The mapping of layers to ONNX operators is bench-inference's (inference_peer.py).

    python bench/export_onnx.py MODEL.aimodel OUT.onnx
"""
import sys

import onnx

from inference_peer import export_onnx, load_aimodel  # beside this file

if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: export_onnx.py MODEL.aimodel OUT.onnx")
    _, main, tensors = load_aimodel(sys.argv[1])
    onnx.save(export_onnx(main, tensors), sys.argv[2])
