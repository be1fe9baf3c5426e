#!/bin/sh
# bench-import's HEIC and WebP photos: the first COUNT JPEGs under SRC by file name (the ones
# import-bench made, or real photos in folders of their kind, ../shared/data/clothing-photos/
# train, whose names are random so the first few hundred mix every kind), re-encoded into DST
# by heif-enc (libheif-examples) or cwebp (webp), two at a time.
#   heic-thumbnail: HEVC with a 320-pixel embedded thumbnail, as phones store one
#   heic:           HEVC without one (heif-enc's default)
#   webp:           lossy WebP, the JPEG's EXIF (orientation) kept
# x265's ultrafast preset keeps a 12-megapixel encode to seconds; what is measured is decoding.
# A file already made for another count of the same set (DST's siblings named alike but for
# the count, e.g. heic-12mp-30 beside heic-12mp-100) is copied, not encoded again: the same
# source and settings make the same file, and a 12-megapixel HEIC costs x265 about 8 s.
set -eu
FORMAT=${1:?usage: make_format_photos.sh heic|heic-thumbnail|webp COUNT SRC DST}
COUNT=${2:?}
SRC=${3:?}
DST=${4:?}
rm -rf "$DST.partial"
mkdir -p "$DST.partial"
case $FORMAT in
  heic) ENCODE='heif-enc -q 60 -p preset=ultrafast "$0" -o "$1"'; EXT=heic ;;
  heic-thumbnail) ENCODE='heif-enc -q 60 -t 320 -p preset=ultrafast "$0" -o "$1"'; EXT=heic ;;
  webp) ENCODE='cwebp -quiet -q 80 -metadata exif "$0" -o "$1"'; EXT=webp ;;
  *) echo "make_format_photos.sh: unknown format $FORMAT" >&2; exit 64 ;;
esac
SET=${DST%-*}
find "$SRC" -name '*.jpg' | awk -F/ '{ print $NF "\t" $0 }' | sort | head -n "$COUNT" | cut -f2 | while read -r path; do
  name=${path##*/}
  out=${name%.jpg}.$EXT
  made=$(ls -d "$SET"-[0-9]* 2>/dev/null | while read -r sibling; do
    case $sibling in "$DST"|*.partial) continue ;; esac
    [ -f "$sibling/$out" ] && { echo "$sibling/$out"; break; }; done)
  if [ -n "$made" ]; then cp "$made" "$DST.partial/$out"; else printf '%s\n%s\n' "$path" "$DST.partial/$out"; fi
done | xargs -r -d '\n' -n 2 -P 2 sh -c "$ENCODE >/dev/null"
test "$(ls "$DST.partial" | wc -l)" -eq "$COUNT" || { echo "make_format_photos.sh: fewer than $COUNT files in $SRC" >&2; exit 1; }
rm -rf "$DST"
mv "$DST.partial" "$DST"
echo "wrote $COUNT $FORMAT photos to $DST ($(du -sh "$DST" | cut -f1))"
