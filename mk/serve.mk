# wardrobe serve: the real-browser test (part of `make test`) and bench-serve.

# test-browser: headless Chromium (Debian) driven by Selenium (PyPI, in its own
# small venv) through the gallery, an image page and review, on the twelve
# photos of Fixtures/photos; screenshots at 1280 and 375 px land in $(SCREENSHOTS).
BROWSER_VENV := .build/browser-venv
SCREENSHOTS  ?= .build/screenshots

$(BROWSER_VENV)/bin/python:
	python3 -m venv $(BROWSER_VENV)
	$(BROWSER_VENV)/bin/pip install -q --disable-pip-version-check selenium

.PHONY: test-browser
test-browser: deps $(BROWSER_VENV)/bin/python
	$(SWIFT) build -c release --product wardrobe
	$(BROWSER_VENV)/bin/python Tests/Browser/serve_browser_test.py $(WARDROBE) Fixtures/photos $(SCREENSHOTS)

# bench-serve: requests/s and p99 (wrk, 8 connections) of a gallery page, page
# 5,000, an image page and a thumbnail, beside Datasette (PyPI) serving the same
# file; a catalogue of SERVE_BENCH_IMAGES images with 12 KB thumbnails written
# by catalogue-bench (kept in bench/out between runs; ~13 GB at 1,000,000).
# Then the server's CPU time per request of the stats page: the first one
# counts the whole catalogue, the next ones reuse those counts.
SERVE_BENCH_IMAGES ?= 1000000
SERVE_BENCH_OUT    := bench/out/serve
SERVE_BENCH_DB     := $(SERVE_BENCH_OUT)/serve-$(SERVE_BENCH_IMAGES).sqlite

.PHONY: bench-serve
BENCHES += bench-serve

bench-serve: deps $(PYTHON)
	$(SWIFT) build -c release --product wardrobe
	$(SWIFT) build -c release --product catalogue-bench
	@mkdir -p $(SERVE_BENCH_OUT)
	@test -x $(VENV)/bin/datasette || $(VENV)/bin/pip install -q datasette
	@test -f $(SERVE_BENCH_DB) || $(RELEASE)/catalogue-bench generate --db $(SERVE_BENCH_DB) \
	  --images $(SERVE_BENCH_IMAGES) --thumbnail-bytes 12288
	$(PYTHON) bench/serve_bench.py --wardrobe $(WARDROBE) --datasette $(VENV)/bin/datasette \
	  --db $(SERVE_BENCH_DB) --json $(SERVE_BENCH_OUT)/serve.json
	$(PYTHON) bench/serve_cpu.py --wardrobe $(WARDROBE) --db $(SERVE_BENCH_DB) --path /stats --requests 500
