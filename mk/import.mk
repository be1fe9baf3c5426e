# bench-import: `wardrobe import` images/s beside a Python peer doing the same work
# (bench/import_peer.py: Pillow, onnxruntime on the same weights, sqlite3) and the
# decode-bound limit (TurboJPEG at the thumbnail's DCT scale + SHA-256 on both cores),
# with peak RSS, on the validation photos (when present) and 200 generated 12-megapixel
# JPEGs; then HEIC and WebP made from the generated JPEGs (12-megapixel and small, see
# bench/make_format_photos.sh), beside the same peer with pillow-heif and Pillow's WebP and
# each library's own decode-bound limit, and real photos made WebP (the training photos, when
# present); then the per-file cost into a catalogue of 100,000
# images against an empty one. Generated files stay in bench/out/import between runs
# (about 2 GB); the HEIC/WebP counts below are part of their folder names.
IMPORT_BENCH_OUT     ?= bench/out/import
# The picture bench/BenchSupport/PhotoLike.swift draws. Files kept in IMPORT_BENCH_OUT by
# another version are made again (2: light wall and floor; 1 drew them black by mistake, so
# the photo recipe took every generated photo for a Fashion-MNIST image and never segmented).
PHOTO_LIKE_VERSION   := 2
IMPORT_BENCH_REPEATS ?= 3
IMPORT_BENCH_MODEL   ?= Models/clothing.aimodel
# HEIC and WebP files per set (0 leaves the set out). A 12-megapixel HEIC takes x265 about
# 8 CPU seconds to make, once (files of a smaller count already made are reused). The 12 MP
# HEIC set holds 100: with 30, each side's run lasted 0.13-0.2 s, so the import's fixed cost
# per run (walk, run opened and closed, the last file of each worker) weighed several per cent
# against a limit that has none, and a few ms of scheduling moved the row by as much.
IMPORT_BENCH_HEIC_LARGE ?= 100
IMPORT_BENCH_HEIC_SMALL ?= 300
IMPORT_BENCH_WEBP_LARGE ?= 40
IMPORT_BENCH_WEBP_SMALL ?= 300
# Real photos made WebP: the first of the labelled training photos by file name (a mix of
# every kind, about 400x533, 26 KB each), so the verdict covers garments on real backgrounds,
# which the photo recipe segments, and not only generated pictures. Skipped, in one line,
# where TRAIN_PHOTOS (Makefile) is absent.
IMPORT_BENCH_WEBP_REAL  ?= 300
import_real_photos = $(if $(wildcard $(TRAIN_PHOTOS)),$(IMPORT_BENCH_WEBP_REAL),0)
# IMPORT_BENCH_FORMATS_ONLY=1 measures only the HEIC and WebP rows (no JPEG rows, no
# catalogue scaling): a few minutes instead of about twelve, for a short quiet window.
IMPORT_BENCH_FORMATS_ONLY ?=
# A format set: its folder (make_format_photos.sh FORMAT COUNT SOURCE) and the bench's
# --set option, or nothing when COUNT is 0.
import_set_dir = $(IMPORT_BENCH_OUT)/$(1)-$(2)
import_set = $(if $(filter-out 0,$(3)),--set "$(1)=$(call import_set_dir,$(2),$(3))")

.PHONY: bench-import
BENCHES += bench-import

bench-import: deps $(PYTHON)
	$(SWIFT) build -c release --product wardrobe
	$(SWIFT) build -c release --product import-bench
	$(SWIFT) build -c release --product catalogue-bench
	@mkdir -p $(IMPORT_BENCH_OUT)
	@[ "$$(cat $(IMPORT_BENCH_OUT)/.photo-like-version 2>/dev/null)" = $(PHOTO_LIKE_VERSION) ] || { \
	  echo "bench-import: generated photos of another version in $(IMPORT_BENCH_OUT); making them again"; \
	  rm -rf $(IMPORT_BENCH_OUT)/photos-* $(IMPORT_BENCH_OUT)/heic-* $(IMPORT_BENCH_OUT)/webp-*; \
	  echo $(PHOTO_LIKE_VERSION) > $(IMPORT_BENCH_OUT)/.photo-like-version; }
	@test -f $(IMPORT_BENCH_OUT)/photos-12mp/.done || { \
	  $(RELEASE)/import-bench photos --out $(IMPORT_BENCH_OUT)/photos-12mp --count 200 --width 4000 --height 3000 && \
	  touch $(IMPORT_BENCH_OUT)/photos-12mp/.done; }
	@test -f $(IMPORT_BENCH_OUT)/photos-small/.done || { \
	  $(RELEASE)/import-bench photos --out $(IMPORT_BENCH_OUT)/photos-small --count 1000 --width 400 --height 533 && \
	  touch $(IMPORT_BENCH_OUT)/photos-small/.done; }
	@$(PYTHON) -c 'import pillow_heif' 2>/dev/null || $(VENV)/bin/pip install -q pillow-heif
	@for set in "heic-thumbnail heic-12mp $(IMPORT_BENCH_HEIC_LARGE) photos-12mp" "heic heic-small $(IMPORT_BENCH_HEIC_SMALL) photos-small" \
	            "webp webp-12mp $(IMPORT_BENCH_WEBP_LARGE) photos-12mp" "webp webp-small $(IMPORT_BENCH_WEBP_SMALL) photos-small" \
	            "webp webp-real $(call import_real_photos) $(abspath $(TRAIN_PHOTOS))"; do \
	  set -- $$set; \
	  case $$4 in /*) source=$$4 ;; *) source=$(IMPORT_BENCH_OUT)/$$4 ;; esac; \
	  [ "$$3" = 0 ] || [ -d "$(IMPORT_BENCH_OUT)/$$2-$$3" ] || \
	    sh bench/make_format_photos.sh $$1 $$3 $$source $(IMPORT_BENCH_OUT)/$$2-$$3 || exit 1; \
	done
	@[ -d "$(TRAIN_PHOTOS)" ] || echo "bench-import: $(TRAIN_PHOTOS) not found; the WebP real-photo row is skipped"
	$(PYTHON) bench/export_onnx.py $(IMPORT_BENCH_MODEL) $(IMPORT_BENCH_OUT)/model.onnx
	$(PYTHON) bench/import_bench.py --repeats $(IMPORT_BENCH_REPEATS) \
	  --wardrobe $(WARDROBE) --import-bench $(RELEASE)/import-bench --catalogue-bench $(RELEASE)/catalogue-bench \
	  --model $(IMPORT_BENCH_MODEL) --onnx $(IMPORT_BENCH_OUT)/model.onnx \
	  --peer bench/import_peer.py --python $(PYTHON) --out $(IMPORT_BENCH_OUT) \
	  $(if $(IMPORT_BENCH_FORMATS_ONLY),,--photos $(PHOTOS) --large $(IMPORT_BENCH_OUT)/photos-12mp --scaling $(IMPORT_BENCH_OUT)/photos-small) \
	  $(call import_set,HEIC 12 MP,heic-12mp,$(IMPORT_BENCH_HEIC_LARGE)) \
	  $(call import_set,HEIC small,heic-small,$(IMPORT_BENCH_HEIC_SMALL)) \
	  $(call import_set,WebP 12 MP,webp-12mp,$(IMPORT_BENCH_WEBP_LARGE)) \
	  $(call import_set,WebP small,webp-small,$(IMPORT_BENCH_WEBP_SMALL)) \
	  $(call import_set,WebP real,webp-real,$(call import_real_photos))
