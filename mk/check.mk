# bench-check: what the cheap look for damage that every writing command runs
# first costs, against the time of real writing commands (`label` of one image,
# `import` of a few new photos, `reclassify` of those) on a catalogue of
# CHECK_BENCH_IMAGES images with 12 KB thumbnails (~13 GB at 1,000,000, the
# size of a real one; written once by catalogue-bench and kept in bench/out:
# the commands add a few rows to it each run). The issue's bound: 5%.
CHECK_BENCH_IMAGES ?= 1000000
CHECK_BENCH_ROUNDS ?= 15
CHECK_BENCH_OUT    := bench/out/check
CHECK_BENCH_DB     := $(CHECK_BENCH_OUT)/check-$(CHECK_BENCH_IMAGES).sqlite

.PHONY: bench-check
BENCHES += bench-check

bench-check: deps
	$(SWIFT) build -c release --product wardrobe
	$(SWIFT) build -c release --product catalogue-bench
	$(SWIFT) build -c release --product check-bench
	@mkdir -p $(CHECK_BENCH_OUT)
	@test -f Models/clothing.aimodel || { echo "bench-check: Models/clothing.aimodel is missing; run 'make model'"; exit 1; }
	@test -f $(CHECK_BENCH_DB) || $(RELEASE)/catalogue-bench generate --db $(CHECK_BENCH_DB) \
	  --images $(CHECK_BENCH_IMAGES) --thumbnail-bytes 12288
	$(RELEASE)/check-bench --wardrobe $(WARDROBE) --db $(CHECK_BENCH_DB) --work $(CHECK_BENCH_OUT)/work \
	  --rounds $(CHECK_BENCH_ROUNDS) --json $(CHECK_BENCH_OUT)/check.json
