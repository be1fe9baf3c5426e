# bench-import: `wardrobe import` images/s beside a Python peer doing the same work
# (bench/import_peer.py: Pillow, onnxruntime on the same weights, sqlite3) and the
# decode-bound limit (TurboJPEG at the thumbnail's DCT scale + SHA-256 on both cores),
# with peak RSS, on the validation photos (when present) and 200 generated 12-megapixel
# JPEGs; then the per-file cost into a catalogue of 100,000 images against an empty one.
# Generated files stay in bench/out/import between runs (about 1.8 GB).
IMPORT_BENCH_OUT     ?= bench/out/import
IMPORT_BENCH_REPEATS ?= 3
IMPORT_BENCH_MODEL   ?= Models/clothing.aimodel

.PHONY: bench-import
BENCHES += bench-import

bench-import: deps $(PYTHON)
	$(SWIFT) build -c release --product wardrobe
	$(SWIFT) build -c release --product import-bench
	$(SWIFT) build -c release --product catalogue-bench
	@mkdir -p $(IMPORT_BENCH_OUT)
	@test -f $(IMPORT_BENCH_OUT)/photos-12mp/.done || { \
	  $(RELEASE)/import-bench photos --out $(IMPORT_BENCH_OUT)/photos-12mp --count 200 --width 4000 --height 3000 && \
	  touch $(IMPORT_BENCH_OUT)/photos-12mp/.done; }
	@test -f $(IMPORT_BENCH_OUT)/photos-small/.done || { \
	  $(RELEASE)/import-bench photos --out $(IMPORT_BENCH_OUT)/photos-small --count 1000 --width 400 --height 533 && \
	  touch $(IMPORT_BENCH_OUT)/photos-small/.done; }
	$(PYTHON) bench/export_onnx.py $(IMPORT_BENCH_MODEL) $(IMPORT_BENCH_OUT)/model.onnx
	$(PYTHON) bench/import_bench.py --repeats $(IMPORT_BENCH_REPEATS) \
	  --wardrobe $(WARDROBE) --import-bench $(RELEASE)/import-bench --catalogue-bench $(RELEASE)/catalogue-bench \
	  --model $(IMPORT_BENCH_MODEL) --onnx $(IMPORT_BENCH_OUT)/model.onnx \
	  --peer bench/import_peer.py --python $(PYTHON) --out $(IMPORT_BENCH_OUT) \
	  --photos $(PHOTOS) --large $(IMPORT_BENCH_OUT)/photos-12mp --scaling $(IMPORT_BENCH_OUT)/photos-small
