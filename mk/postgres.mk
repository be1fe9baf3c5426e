# bench-postgres: `wardrobe list --label L --limit 50` and `wardrobe stats`, whole
# process, median wall time on a catalogue of 1,000,000 images in PostgreSQL
# beside the same catalogue in SQLite, in one run, round by round in turn
# (bench/postgres_bench.py). The SQLite catalogue is bench-queries' (written by
# catalogue-bench, kept in bench/out/queries between runs; ~380 MB); the
# PostgreSQL one is `wardrobe copy` of it, timed, on a throwaway server the
# script starts in a temporary folder (Unix socket only) and stops.
# POSTGRES_BENCH_IMAGES shrinks the catalogue, POSTGRES_BENCH_ROUNDS the runs.
POSTGRES_BENCH_IMAGES ?= 1000000
POSTGRES_BENCH_ROUNDS ?= 15
POSTGRES_BENCH_OUT    := bench/out/queries
POSTGRES_BENCH_DB     := $(POSTGRES_BENCH_OUT)/list-$(POSTGRES_BENCH_IMAGES).sqlite

.PHONY: bench-postgres
BENCHES += bench-postgres

bench-postgres: deps
	$(SWIFT) build -c release --product wardrobe
	$(SWIFT) build -c release --product catalogue-bench
	@mkdir -p $(POSTGRES_BENCH_OUT)
	@test -f $(POSTGRES_BENCH_DB) || $(RELEASE)/catalogue-bench generate --db $(POSTGRES_BENCH_DB) --images $(POSTGRES_BENCH_IMAGES)
	$(RELEASE)/catalogue-bench correct --db $(POSTGRES_BENCH_DB) --every 0
	python3 bench/postgres_bench.py --wardrobe $(WARDROBE) --sqlite $(POSTGRES_BENCH_DB) \
	  --rounds $(POSTGRES_BENCH_ROUNDS) --json $(POSTGRES_BENCH_OUT)/postgres.json
