# The Python environment for benchmark peers and helper scripts (never on the
# product's path). Made once per checkout; `make clean` removes it.
VENV    := bench/.venv
PYTHON  := $(VENV)/bin/python
PY_PKGS := numpy onnx onnxruntime safetensors pillow pillow-heif

$(PYTHON):
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q $(PY_PKGS)

.PHONY: venv
venv: $(PYTHON)
