# bench-catalogue: the Catalogue module against Python's sqlite3 on the same
# schema (migrations/*.sql), pragmas and SQL, 1,000,000 images each:
# insert rows/s in batches, median "current top 50 for a label" and "count
# for a label". Needs ~1 GB in bench/out; set CATALOGUE_BENCH_IMAGES to shrink.
CATALOGUE_BENCH_IMAGES ?= 1000000
CATALOGUE_BENCH_OUT    := bench/out

.PHONY: bench-catalogue
BENCHES += bench-catalogue

bench-catalogue: deps
	$(SWIFT) build -c release --product catalogue-bench
	@mkdir -p $(CATALOGUE_BENCH_OUT)
	$(RELEASE)/catalogue-bench bench --images $(CATALOGUE_BENCH_IMAGES) \
	  --db $(CATALOGUE_BENCH_OUT)/catalogue-swift.sqlite --json $(CATALOGUE_BENCH_OUT)/catalogue-swift.json
	python3 bench/catalogue_peer.py --images $(CATALOGUE_BENCH_IMAGES) \
	  --db $(CATALOGUE_BENCH_OUT)/catalogue-python.sqlite --swift $(CATALOGUE_BENCH_OUT)/catalogue-swift.json
	@rm -f $(CATALOGUE_BENCH_OUT)/catalogue-swift.sqlite* $(CATALOGUE_BENCH_OUT)/catalogue-python.sqlite*
