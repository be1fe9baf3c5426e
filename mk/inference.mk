# bench-inference: the Inference runtime against ONNX Runtime (Python, one
# thread) on the same weights: batch-1 latency, batch-256 throughput, ratios,
# GFLOP/s against the core's measured peak. INFERENCE_MODEL picks the model
# (default: the reference architecture of issue 2 with random weights), e.g.
#   make bench-inference INFERENCE_MODEL=Models/clothing.aimodel
# check-model-format: tools/write_aimodel.py writes an .aimodel with the Python
# safetensors package; our reader runs it; outputs are compared with numpy.
INFERENCE_OUT     := bench/out
INFERENCE_MODEL   ?= $(INFERENCE_OUT)/reference.aimodel
INFERENCE_SECONDS ?= 3
INFERENCE_BENCH   := $(RELEASE)/inference-bench

.PHONY: bench-inference check-model-format
BENCHES += bench-inference

bench-inference: deps $(PYTHON)
	$(SWIFT) build -c release --product inference-bench
	@mkdir -p $(INFERENCE_OUT)
	@if [ "$(INFERENCE_MODEL)" = "$(INFERENCE_OUT)/reference.aimodel" ]; then \
	  $(INFERENCE_BENCH) reference --out $(INFERENCE_MODEL); fi
	$(INFERENCE_BENCH) bench --model $(INFERENCE_MODEL) --seconds $(INFERENCE_SECONDS) \
	  --json $(INFERENCE_OUT)/inference-wardrobe.json
	$(PYTHON) bench/inference_peer.py --model $(INFERENCE_MODEL) --ours $(INFERENCE_OUT)/inference-wardrobe.json \
	  --onnx $(INFERENCE_OUT)/inference.onnx --seconds $(INFERENCE_SECONDS) --runner $(INFERENCE_BENCH)

check-model-format: deps $(PYTHON)
	$(SWIFT) build -c release --product inference-bench
	@mkdir -p $(INFERENCE_OUT)
	$(PYTHON) tools/check_model_format.py --runner $(INFERENCE_BENCH) --dir $(INFERENCE_OUT)
