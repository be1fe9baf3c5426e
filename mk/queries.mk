# bench-queries: `wardrobe reclassify` images/s on imported photo sets (2,000
# Fashion-MNIST PNGs, 300 synthetic 800x600 JPEG photos, and the real photos in
# $(PHOTOS) when present), with the share of labels a same-model re-run from
# thumbnails reproduces; and the median wall time of `wardrobe list --label`
# on a catalogue of 1,000,000 images written by catalogue-bench (kept in
# bench/out between runs; ~300 MB). QUERIES_BENCH_IMAGES shrinks it.
QUERIES_BENCH_IMAGES ?= 1000000
QUERIES_BENCH_OUT    := bench/out/queries
QUERIES_MILLION_DB   := $(QUERIES_BENCH_OUT)/list-$(QUERIES_BENCH_IMAGES).sqlite
# The same catalogue with every tenth image given a person's label.
QUERIES_CORRECTED_DB := $(QUERIES_BENCH_OUT)/list-$(QUERIES_BENCH_IMAGES)-corrected.sqlite

.PHONY: bench-queries
BENCHES += bench-queries

bench-queries: deps
	$(SWIFT) build -c release --product wardrobe
	$(SWIFT) build -c release --product queries-bench
	$(SWIFT) build -c release --product catalogue-bench
	@mkdir -p $(QUERIES_BENCH_OUT)
	@test -f Models/clothing.aimodel || { echo "bench-queries: Models/clothing.aimodel is missing; run 'make model'"; exit 1; }
	@test -f $(QUERIES_MILLION_DB) || $(RELEASE)/catalogue-bench generate --db $(QUERIES_MILLION_DB) --images $(QUERIES_BENCH_IMAGES)
	$(RELEASE)/catalogue-bench correct --db $(QUERIES_MILLION_DB) --every 0
	@test -f $(QUERIES_CORRECTED_DB) || { cp $(QUERIES_MILLION_DB) $(QUERIES_CORRECTED_DB) && \
	  $(RELEASE)/catalogue-bench correct --db $(QUERIES_CORRECTED_DB) --every 10; }
	$(RELEASE)/queries-bench --wardrobe $(WARDROBE) --work $(QUERIES_BENCH_OUT) --validation $(abspath $(PHOTOS)) \
	  --million-db $(QUERIES_MILLION_DB) --corrected-db $(QUERIES_CORRECTED_DB) --json $(QUERIES_BENCH_OUT)/queries.json
