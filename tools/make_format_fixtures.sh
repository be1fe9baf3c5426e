#!/bin/sh
# make fixtures: Fixtures/formats, the HEIF, AVIF and WebP test files, made by the project's
# tools. imaging-tools writes the sources and the oriented HEIF/AVIF files (irot/imir and
# EXIF, as phones write them); heif-enc (libheif-examples), cwebp and img2webp (webp) make
# the rest. The sources are build inputs only and are removed at the end.
set -eu
TOOL=${1:?usage: make_format_fixtures.sh IMAGING-TOOLS [OUT]}
OUT=${2:-Fixtures/formats}
rm -rf "$OUT"
"$TOOL" format-fixtures --out "$OUT" >/dev/null
S=$OUT/sources
mkdir -p "$OUT/features" "$OUT/bad"

# WebP in each orientation: the JPEG's pixels as stored, its EXIF copied.
for tag in 1 2 3 4 5 6 7 8; do
  cwebp -quiet -q 90 -metadata exif "$OUT/orientation/jpeg-$tag.jpg" -o "$OUT/orientation/webp-$tag.webp"
done

F=$OUT/features
heif-enc -q 90 "$S/gray.png" -o "$F/gray.heic"
heif-enc -q 90 -A "$S/gray.png" -o "$F/gray.avif"
cwebp -quiet -q 90 "$S/gray.png" -o "$F/gray.webp"
heif-enc -q 90 "$S/alpha.png" -o "$F/alpha.heic"
heif-enc -q 90 -A "$S/alpha.png" -o "$F/alpha.avif"
cwebp -quiet -q 90 "$S/alpha.png" -o "$F/alpha-lossy.webp"
cwebp -quiet -lossless "$S/alpha.png" -o "$F/alpha-lossless.webp"
heif-enc -q 90 -b 10 "$S/deep.png" -o "$F/ten-bit.heic"
# aom 3.6 asserts on 10-bit 4:2:0 and 4:4:4 here; 4:2:2 encodes.
heif-enc -q 90 -b 10 -A -p chroma=422 "$S/deep.png" -o "$F/ten-bit.avif"
img2webp -q 90 -lossy "$S/frame-1.png" "$S/frame-2.png" -o "$F/animated.webp" >/dev/null
heif-enc -q 90 "$S/frame-1.png" "$S/frame-2.png" -o "$F/two-images.heic"
# 640x480 with a 320-pixel thumbnail inside, as phones store one.
heif-enc -q 60 -t 320 "$S/large.jpg" -o "$F/with-thumbnail.heic"
cwebp -quiet -q 60 "$S/large.jpg" -o "$F/large.webp"

# Bad files: the first half of a good one; and a good one whose structure is damaged
# (HEIF: the primary item's type renamed; WebP: the VP8 frame's start code broken).
B=$OUT/bad
for f in orientation/heic-6.heic orientation/avif-6.avif orientation/webp-6.webp; do
  ext=${f##*.}
  size=$(wc -c < "$OUT/$f")
  head -c $((size / 2)) "$OUT/$f" > "$B/truncated.$ext"
done
python3 - "$OUT" <<'PY'
import sys
out = sys.argv[1]
for name, ext, old, new in [("heic-6", "heic", b"hvc1", b"hvcX"), ("avif-6", "avif", b"av01", b"av0X"),
                            ("webp-6", "webp", b"\x9d\x01\x2a", b"\x9d\x01\x2b")]:
    data = open(f"{out}/orientation/{name}.{ext}", "rb").read()
    # The first occurrence after the ftyp box: the item's type in iinf (HEIF), the start code (WebP).
    at = data.index(old, 12)
    open(f"{out}/bad/corrupt.{ext}", "wb").write(data[:at] + new + data[at + len(old):])
PY
rm -rf "$S"
du -sh "$OUT"
