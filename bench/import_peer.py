"""The Python peer of `wardrobe import` for bench-import: the same work in one
process, written the way a Python developer would with the usual libraries.

Per file: read and SHA-256; skip content the catalogue holds; Pillow decode
with `draft` asking for the thumbnail's size (the stored image fitted into
256x256, as `wardrobe import` asks its decoders: JPEG then decodes at a DCT
scale, HEIF/HEIC through pillow-heif from an embedded thumbnail at least that
large, WebP in full, as Pillow has no scaled WebP decoding), EXIF transpose,
a 256-pixel JPEG thumbnail (quality 85), the 28x28 grayscale tensor (area
average, bytes / 255). Per batch of 64: onnxruntime on the same weights, then
one sqlite3 transaction inserting images, paths and classifications into the
catalogue's schema (migrations/*.sql) with the Catalogue module's pragmas.

Timed from the walk of the folders to the last commit, as `wardrobe import`
times itself; interpreter start, imports and model loading are not counted.

    python bench/import_peer.py --model MODEL.onnx --db OUT.sqlite DIR...
"""
import argparse
import collections
import hashlib
import io
import json
import os
import sqlite3
import sys
import time

import numpy as np
import onnxruntime
from PIL import Image, ImageOps
from pillow_heif import register_heif_opener

import catalogue_peer  # beside this file

THUMBNAIL_SIDE = 256
BATCH = 64

register_heif_opener()  # HEIF/HEIC and AVIF through pillow-heif (libheif)

# The Catalogue module's statements, as bench-catalogue's peer spells them.
INSERT_IMAGE = catalogue_peer.INSERT_IMAGE
INSERT_PATH = catalogue_peer.INSERT_PATH
INSERT_CLASSIFICATION = catalogue_peer.INSERT_CLASSIFICATION


def open_catalogue(path):
    """A fresh catalogue with the Catalogue module's schema and pragmas (bench-catalogue's
    peer sets them up), plus the model and run rows an import adds first."""
    db = catalogue_peer.open_catalogue(path)
    now = int(time.time() * 1000)
    labels = json.dumps(["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                         "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"])
    model = db.execute("INSERT INTO models (name, version, sha256, labels, parameter_count, registered_at) "
                       "VALUES ('peer', '1', ?, ?, 0, ?)", (bytes(32), labels, now)).lastrowid
    run = db.execute("INSERT INTO runs (command, model_id, recipe_name, recipe_version, started_at) "
                     "VALUES ('import', ?, 'fashion-mnist', 1, ?)", (model, now)).lastrowid
    return db, model, run


def files_under(roots):
    for root in roots:
        for folder, folders, names in os.walk(root):
            folders[:] = sorted(name for name in folders if not name.startswith("."))
            for name in sorted(names):
                if not name.startswith("."):
                    yield os.path.abspath(os.path.join(folder, name))


DECODED = collections.Counter()  # what each decode read, for the report


def describe(kind, stored, decoded):
    """What Pillow decodes of an image stored at `stored` after draft: its size and how."""
    name = {"jpeg": "JPEG", "heif": "HEIF", "avif": "AVIF", "webp": "WebP", "png": "PNG"}.get(kind, kind)
    if decoded == stored:
        return f"{name} whole {decoded[0]}x{decoded[1]}" if kind != "jpeg" else "JPEG whole"
    if kind == "jpeg":
        return f"JPEG at DCT scale 1/{round(stored[0] / decoded[0])}"
    return f"{name} embedded thumbnail {decoded[0]}x{decoded[1]}"


def fitted(size):
    """`size` scaled so that its longest side is THUMBNAIL_SIDE: what the thumbnail needs."""
    scale = THUMBNAIL_SIDE / max(size)
    return tuple(min(side, max(1, round(side * scale))) for side in size)


def process(data):
    """Thumbnail JPEG bytes, full upright size, format and the 28x28 tensor of one image."""
    image = Image.open(io.BytesIO(data))
    stored = image.size
    kind = (image.format or "unknown").lower()
    # The smallest decode that still covers the thumbnail (draft keeps both sides at least this).
    image.draft("RGB", fitted(stored))
    DECODED[describe(kind, stored, image.size)] += 1
    image = ImageOps.exif_transpose(image).convert("RGB")
    swapped = image.size[0] < image.size[1] and stored[0] > stored[1] or \
        image.size[0] > image.size[1] and stored[0] < stored[1]
    size = (stored[1], stored[0]) if swapped else stored
    image.thumbnail((THUMBNAIL_SIDE, THUMBNAIL_SIDE))
    thumbnail = io.BytesIO()
    image.save(thumbnail, "JPEG", quality=85)
    tensor = np.asarray(image.convert("L").resize((28, 28), Image.Resampling.BOX), dtype=np.float32) / 255
    return thumbnail.getvalue(), size, kind, tensor


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True, help="the bundled model exported to ONNX")
    parser.add_argument("--db", required=True)
    parser.add_argument("folders", nargs="+")
    args = parser.parse_args()

    options = onnxruntime.SessionOptions()
    session = onnxruntime.InferenceSession(args.model, options, providers=["CPUExecutionProvider"])
    db, model, run = open_catalogue(args.db)

    start = time.perf_counter()
    pending, failed, stored, known = [], 0, 0, 0
    seen = set()

    def commit(batch):
        logits = session.run(["logits"], {"image": np.stack([item[-1] for item in batch])[:, None]})[0]
        shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
        probabilities = shifted / shifted.sum(axis=1, keepdims=True)
        now = int(time.time() * 1000)
        db.execute("BEGIN IMMEDIATE")
        for (path, digest, data_size, stat, thumbnail, (width, height), kind, _), row, p in zip(batch, logits, probabilities):
            cursor = db.execute(INSERT_IMAGE, (digest, data_size, width, height, kind, thumbnail, now))
            image_id = cursor.lastrowid if cursor.rowcount == 1 else \
                db.execute("SELECT id FROM images WHERE sha256 = ?", (digest,)).fetchone()[0]
            db.execute(INSERT_PATH, (catalogue_peer.MACHINE, path, image_id, stat.st_size, stat.st_mtime_ns, now))
            label = int(row.argmax())
            db.execute(INSERT_CLASSIFICATION, (image_id, run, model, "fashion-mnist", 1,
                                               row.astype("<f4").tobytes(), label, float(p[label]), now))
        db.execute("COMMIT")

    for path in files_under(args.folders):
        stat = os.stat(path)
        with open(path, "rb") as f:
            data = f.read()
        digest = hashlib.sha256(data).digest()
        if digest in seen or db.execute("SELECT 1 FROM images WHERE sha256 = ?", (digest,)).fetchone():
            known += 1
            continue
        seen.add(digest)
        try:
            thumbnail, size, kind, tensor = process(data)
        except Exception as error:  # a bad file is counted, as the import records it
            print(f"{path}: {error}", file=sys.stderr)
            failed += 1
            continue
        pending.append((path, digest, len(data), stat, thumbnail, size, kind, tensor))
        if len(pending) == BATCH:
            commit(pending)
            stored += len(pending)
            pending = []
    if pending:
        commit(pending)
        stored += len(pending)
    seconds = time.perf_counter() - start
    print(json.dumps({"new_images": stored, "known": known, "failed": failed, "seconds": round(seconds, 3),
                      "images_per_second": round((stored + known) / seconds, 1), "decoded": dict(DECODED)}))


if __name__ == "__main__":
    main()
