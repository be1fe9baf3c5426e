# bench-postgres: `wardrobe list --label L --limit 50` and `wardrobe stats`, whole
# process, median wall time on a catalogue of 1,000,000 images in PostgreSQL
# beside the same catalogue in SQLite, in one run, round by round in turn
# (bench/postgres_bench.py). The SQLite catalogue is bench-queries' (written by
# catalogue-bench, kept in bench/out/queries between runs; ~380 MB); the
# PostgreSQL one is `wardrobe copy` of it, timed, on a throwaway server the
# script starts in a temporary folder (Unix socket only) and stops.
# Before those, in the same run: 1, 2 and 4 `wardrobe import` processes with --jobs 1
# each on the validation photos ($(PHOTOS)) into PostgreSQL beside one into SQLite
# (images/s, CPU per image, the server's CPU per image; the median of five rounds), beside the server's CPU per
# image to load the rows one importer stored by psql COPY in one transaction (a bulk load, no importer's work
# around it), and batch inserts through the storage protocol beside psql running the same multi-row
# INSERT ... ON CONFLICT.
# `make bench-postgres-import` runs those two parts alone (under two minutes).
# POSTGRES_BENCH_IMAGES shrinks the catalogue, POSTGRES_BENCH_ROUNDS the runs.
POSTGRES_BENCH_IMAGES ?= 1000000
POSTGRES_BENCH_ROUNDS ?= 15
POSTGRES_BENCH_OUT    := bench/out/queries
POSTGRES_BENCH_DB     := $(POSTGRES_BENCH_OUT)/list-$(POSTGRES_BENCH_IMAGES).sqlite

POSTGRES_BENCH_PARTS   = --photos $(abspath $(PHOTOS)) --catalogue-bench $(RELEASE)/catalogue-bench

.PHONY: bench-postgres bench-postgres-import
BENCHES += bench-postgres

bench-postgres: deps
	$(SWIFT) build -c release --product wardrobe
	$(SWIFT) build -c release --product catalogue-bench
	@mkdir -p $(POSTGRES_BENCH_OUT)
	@test -f $(POSTGRES_BENCH_DB) || $(RELEASE)/catalogue-bench generate --db $(POSTGRES_BENCH_DB) --images $(POSTGRES_BENCH_IMAGES)
	$(RELEASE)/catalogue-bench correct --db $(POSTGRES_BENCH_DB) --every 0
	python3 bench/postgres_bench.py --wardrobe $(WARDROBE) --sqlite $(POSTGRES_BENCH_DB) $(POSTGRES_BENCH_PARTS) \
	  --rounds $(POSTGRES_BENCH_ROUNDS) --json $(POSTGRES_BENCH_OUT)/postgres.json

bench-postgres-import: deps
	$(SWIFT) build -c release --product wardrobe
	$(SWIFT) build -c release --product catalogue-bench
	@mkdir -p $(POSTGRES_BENCH_OUT)
	python3 bench/postgres_bench.py --wardrobe $(WARDROBE) $(POSTGRES_BENCH_PARTS) --json $(POSTGRES_BENCH_OUT)/postgres-import.json
