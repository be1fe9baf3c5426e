# bench-similar: the median wall time of the whole process `wardrobe similar ID` (the ten
# nearest) over 50 images spread over a catalogue of SIMILAR_BENCH_IMAGES images, and of
# `wardrobe duplicates --json` (three runs). The catalogue is catalogue-bench's, each image
# with synthetic fingerprints and colours (every tenth a copy of the one before) and a
# 10 KB thumbnail (`catalogue-bench lookalikes`; kept in bench/out between runs, ~1 GB).
SIMILAR_BENCH_IMAGES ?= 100000
SIMILAR_BENCH_OUT    := bench/out/similar
SIMILAR_BENCH_DB     := $(SIMILAR_BENCH_OUT)/lookalikes-$(SIMILAR_BENCH_IMAGES).sqlite

.PHONY: bench-similar
BENCHES += bench-similar

bench-similar: deps
	$(SWIFT) build -c release --product wardrobe
	$(SWIFT) build -c release --product catalogue-bench
	@mkdir -p $(SIMILAR_BENCH_OUT)
	@test -f $(SIMILAR_BENCH_DB) || $(RELEASE)/catalogue-bench lookalikes --db $(SIMILAR_BENCH_DB) --images $(SIMILAR_BENCH_IMAGES)
	$(RELEASE)/catalogue-bench similar --db $(SIMILAR_BENCH_DB) --wardrobe $(WARDROBE) --queries 50
