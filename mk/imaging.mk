# Imaging: decode-and-prep throughput beside the TurboJPEG decode-bound limit.
BENCHES += bench-imaging

.PHONY: bench-imaging contact-sheet fixtures

bench-imaging: deps
	$(SWIFT) build -c release --product ImagingBench
	$(RELEASE)/ImagingBench --photos $(PHOTOS)

# Photos beside their prepped tensors (every recipe), to look at before tuning a recipe.
CONTACT_SHEET ?= contact-sheet.png
contact-sheet: deps
	$(SWIFT) build -c release --product ImagingTools
	@if [ -d "$(PHOTOS)" ]; then \
	  $(RELEASE)/ImagingTools contact-sheet --per-folder 3 --out $(CONTACT_SHEET) $(PHOTOS); \
	else $(RELEASE)/ImagingTools contact-sheet --out $(CONTACT_SHEET) Fixtures/samples; fi

# Fixtures/fashion-sample.png and Fixtures/samples/, from the Debian Fashion-MNIST test set;
# Fixtures/formats/ (HEIF, AVIF and WebP files, committed, small) with imaging-tools and the
# Debian tools heif-enc, cwebp and img2webp, needed at this step only.
fixtures: deps
	$(SWIFT) build -c release --product ImagingTools
	$(RELEASE)/ImagingTools fixtures --root .
	sh tools/make_format_fixtures.sh $(RELEASE)/ImagingTools Fixtures/formats
