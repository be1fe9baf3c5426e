# bench-catalogue: the Catalogue module against Python's sqlite3 on the same
# schema (migrations/*.sql), pragmas and SQL, 1,000,000 images each:
# insert rows/s in batches, median "current top 50 for a label" and "count
# for a label". Two rounds per side, in the order Swift, Python, Python,
# Swift; each side's best round counts (bench/catalogue_report.py). Each
# round's catalogue is deleted and synced away before the next begins.
# Needs ~1 GB in bench/out; set CATALOGUE_BENCH_IMAGES to shrink.
CATALOGUE_BENCH_IMAGES ?= 1000000
CATALOGUE_BENCH_OUT    := bench/out
CATALOGUE_SWIFT_ROUND   = $(RELEASE)/catalogue-bench bench --images $(CATALOGUE_BENCH_IMAGES) \
  --db $(CATALOGUE_BENCH_OUT)/catalogue-swift.sqlite --json $(CATALOGUE_BENCH_OUT)/catalogue-swift-$(1).json \
  && rm -f $(CATALOGUE_BENCH_OUT)/catalogue-swift.sqlite* && sync
CATALOGUE_PYTHON_ROUND  = python3 bench/catalogue_peer.py --images $(CATALOGUE_BENCH_IMAGES) \
  --db $(CATALOGUE_BENCH_OUT)/catalogue-python.sqlite --json $(CATALOGUE_BENCH_OUT)/catalogue-python-$(1).json \
  && rm -f $(CATALOGUE_BENCH_OUT)/catalogue-python.sqlite* && sync

.PHONY: bench-catalogue
BENCHES += bench-catalogue

bench-catalogue: deps
	$(SWIFT) build -c release --product catalogue-bench
	@mkdir -p $(CATALOGUE_BENCH_OUT)
	rm -f $(CATALOGUE_BENCH_OUT)/catalogue-*.sqlite* $(CATALOGUE_BENCH_OUT)/catalogue-*.json && sync
	$(call CATALOGUE_SWIFT_ROUND,1)
	$(call CATALOGUE_PYTHON_ROUND,1)
	$(call CATALOGUE_PYTHON_ROUND,2)
	$(call CATALOGUE_SWIFT_ROUND,2)
	python3 bench/catalogue_report.py \
	  --swift $(CATALOGUE_BENCH_OUT)/catalogue-swift-1.json $(CATALOGUE_BENCH_OUT)/catalogue-swift-2.json \
	  --python $(CATALOGUE_BENCH_OUT)/catalogue-python-1.json $(CATALOGUE_BENCH_OUT)/catalogue-python-2.json
