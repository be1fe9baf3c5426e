# wardrobe: build, test, demo and benchmarks. Every target does its own set-up.
PREFIX   ?= /usr/local
SWIFT    ?= swift
RELEASE  := .build/release
WARDROBE := $(RELEASE)/wardrobe
PHOTOS   ?= ../shared/data/clothing-photos/validation

# Every Debian package the project uses, at build, test or run time.
DEBS := libsqlite3-dev libpng-dev libturbojpeg0-dev libopenblas-dev zlib1g-dev libssl-dev \
        libheif-dev libwebp-dev dataset-fashion-mnist libjpeg-turbo-progs python3-venv \
        libheif-examples webp libmicrohttpd-dev libjansson-dev chromium chromium-driver wrk \
        libpq-dev postgresql

.PHONY: deps build test demo bench model model-fashion-mnist install eval-photos clean

# apt-get update runs only when a package is missing, so this is quick once done.
deps:
	@missing=$$(for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build -c release --product wardrobe

# Tests run against release builds: the numeric code is too slow unoptimised.
test: deps
	$(SWIFT) build -c release --build-tests
	$(SWIFT) test -c release --skip-build
	$(MAKE) test-browser

# The main job on the bundled sample and model, into a fresh catalogue:
# twelve real photos (Fixtures/photos, one folder per kind, never trained on)
# imported with the default recipe, listed, one shown and its wrong label
# corrected as a person would, and all scored against their folders. Some
# labels will be wrong; the scores say how many.
DEMO_DB := $(or $(TMPDIR),/tmp)/wardrobe-demo.sqlite
DEMO_SHOW := Fixtures/photos/outwear/0ad8629f-2e9f-4591-a661-7489d6d49737.jpg
demo: build
	@rm -f $(DEMO_DB) $(DEMO_DB)-wal $(DEMO_DB)-shm
	@echo "== wardrobe classify --sample   (a Fashion-MNIST test image, offline)"
	$(WARDROBE) classify --db $(DEMO_DB) --sample --no-save --top 3
	@echo "== wardrobe import Fixtures/photos   (12 real photos)"
	$(WARDROBE) import --db $(DEMO_DB) Fixtures/photos
	@echo "== wardrobe list"
	$(WARDROBE) list --db $(DEMO_DB)
	@echo "== wardrobe show $(DEMO_SHOW)"
	$(WARDROBE) show --db $(DEMO_DB) $(DEMO_SHOW)
	@echo "== wardrobe label coat $(DEMO_SHOW)   (a person corrects the label)"
	$(WARDROBE) label --db $(DEMO_DB) coat $(DEMO_SHOW)
	$(WARDROBE) history --db $(DEMO_DB) $(DEMO_SHOW)
	@echo "== wardrobe model evaluate --images Fixtures/photos   (how many the model gets right; 'make eval-photos' scores all 290 validation photos)"
	$(WARDROBE) model evaluate --db $(DEMO_DB) --images Fixtures/photos --map bench/clothing-photos.map
	@echo
	@echo "The catalogue is $(DEMO_DB). Run the tool as $(WARDROBE) (or 'make install' to put"
	@echo "'wardrobe' on your PATH under $(PREFIX)), e.g. $(WARDROBE) stats --db $(DEMO_DB)"
	@echo "The loop: correct labels (wardrobe label, or the review page of wardrobe serve), learn"
	@echo "from them (wardrobe model train --corrections --out mine.aimodel fine-tunes the model in use),"
	@echo "adopt the result (wardrobe model use mine.aimodel) and re-run (wardrobe reclassify); see README."

# The bundled model: the Fashion-MNIST-only model (below) fine-tuned on Fashion-MNIST and the
# labelled training photos of ../shared/data/clothing-photos/train (docs/bundled-model.md). The shoes folder says only "shoes": Models/shoe-labels.tsv holds the kind a
# person saw in each of its photos, given as corrections in a scratch catalogue, so the model
# learns a sandal from a boot. Without those photos it stops and says where they come from.
# One stage, 7 epochs at 30% photos with all of Fashion-MNIST, on photo@4. (On photo@1 and
# photo@2 a short photo-heavy second stage followed; on photo@3 it gained one held-out photo
# and took Fashion-MNIST below 0.935: docs/bundled-model.md.)
TRAIN_PHOTOS ?= ../shared/data/clothing-photos/train
# What `make model` learns from and writes; bench-learning's parent sets them (mk/learning.mk).
MODEL_MAP    ?= bench/clothing-photos.map
MODEL_OUT    ?= Models/clothing.aimodel
MODEL_NAME   ?= clothing
SHOE_LABELS  ?= Models/shoe-labels.tsv
MODEL_DB     ?= $(RELEASE)/model-shoe-labels.sqlite
# It also writes the prepared photos it learned from beside the model
# (Models/clothing.rehearsal.safetensors), which fine-tunes rehearse.
model: build
	@if [ ! -d "$(TRAIN_PHOTOS)" ]; then \
	  echo "model: $(TRAIN_PHOTOS) not found: the bundled model learns from the labelled training photos of the clothing dataset (small) (see ../shared/data/clothing-photos/README.md), which must sit beside the checkout; not training without them"; \
	  exit 1; fi
	rm -f $(MODEL_DB) $(MODEL_DB)-wal $(MODEL_DB)-shm
	$(WARDROBE) import --quiet --db $(MODEL_DB) --model Models/fashion-mnist-only.aimodel "$(TRAIN_PHOTOS)/shoes"
	for label in Sandal Sneaker "Ankle boot"; do \
	  awk -F '\t' -v label="$$label" '!/^#/ && $$2 == label { print $$1 }' $(SHOE_LABELS) \
	    | $(WARDROBE) label --quiet --db $(MODEL_DB) "$$label" - || exit 1; done
	$(WARDROBE) model train --from Models/fashion-mnist-only.aimodel --photos "$(TRAIN_PHOTOS)" \
	  --map $(MODEL_MAP) --corrections --db $(MODEL_DB) --prep photo@4 --photo-share 0.3 \
	  --fashion 60000 --epochs 7 --learning-rate 0.02 --seed 1 --name $(MODEL_NAME) --out $(MODEL_OUT)

# The Fashion-MNIST-only model: the parent of the bundled model and the start of bench-learning.
model-fashion-mnist: build
	$(WARDROBE) model train --seed 1 --name clothing --out Models/fashion-mnist-only.aimodel

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/wardrobe
	install -m 755 $(WARDROBE) $(DESTDIR)$(PREFIX)/bin/wardrobe
	install -m 644 Models/clothing.aimodel Models/clothing.rehearsal.safetensors Fixtures/fashion-sample.png \
	  $(DESTDIR)$(PREFIX)/share/wardrobe/
	# Completions and the manual page, written by the binary from its own declarations and help.
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d $(DESTDIR)$(PREFIX)/share/man/man1
	$(WARDROBE) completions bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/wardrobe
	$(WARDROBE) completions zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_wardrobe
	$(WARDROBE) completions fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/wardrobe.fish
	$(WARDROBE) manual > $(DESTDIR)$(PREFIX)/share/man/man1/wardrobe.1

eval-photos: build
	@if [ -d "$(PHOTOS)" ]; then \
	  $(WARDROBE) model evaluate --model Models/clothing.aimodel --images "$(PHOTOS)" --map bench/clothing-photos.map --recipe all; \
	else echo "eval-photos: $(PHOTOS) not found; nothing to evaluate"; fi

# Each area adds its benchmark as bench-<area> in mk/<area>.mk. The Python
# environment comes first: the others name $(PYTHON) as a prerequisite, which
# make expands as it reads each rule.
BENCHES :=
include mk/venv.mk
include $(filter-out mk/venv.mk,$(wildcard mk/*.mk))
bench: $(BENCHES)

clean:
	rm -rf .build bench/.venv
