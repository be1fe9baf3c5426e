"""The Python peer of `wardrobe import` for bench-import: the same work in one
process, written the way a Python developer would with the usual libraries.

Per file: read and SHA-256; skip content the catalogue holds; Pillow decode
with `draft` (JPEG DCT scaling to the thumbnail's size), EXIF transpose, a
256-pixel JPEG thumbnail (quality 85), the 28x28 grayscale tensor (area
average, bytes / 255). Per batch of 64: onnxruntime on the same weights, then
one sqlite3 transaction inserting images, paths and classifications into the
catalogue's schema (migrations/*.sql) with the Catalogue module's pragmas.

Timed from the walk of the folders to the last commit, as `wardrobe import`
times itself; interpreter start, imports and model loading are not counted.

    python bench/import_peer.py --model MODEL.onnx --db OUT.sqlite DIR...
"""
import argparse
import glob
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
THUMBNAIL_SIDE = 256
BATCH = 64

INSERT_IMAGE = """INSERT INTO images (sha256, byte_size, width, height, format, thumbnail, first_imported)
VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING"""
INSERT_PATH = """INSERT INTO image_paths (path, image_id, size, mtime_ns, last_seen) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (path) DO UPDATE SET image_id = excluded.image_id, size = excluded.size,
    mtime_ns = excluded.mtime_ns, last_seen = excluded.last_seen"""
INSERT_CLASSIFICATION = """INSERT INTO classifications
    (image_id, run_id, model_id, recipe_name, recipe_version, logits, label, confidence, classified_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (image_id, run_id) DO NOTHING"""


def open_catalogue(path):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA cache_size = -65536")
    for number, file in enumerate(sorted(glob.glob(os.path.join(ROOT, "migrations", "*.sql"))), start=1):
        db.execute("BEGIN IMMEDIATE")
        statement = ""
        for line in open(file).read().splitlines(keepends=True):
            statement += line
            if sqlite3.complete_statement(statement):
                db.execute(statement)
                statement = ""
        db.execute(f"PRAGMA user_version = {number}")
        db.execute("COMMIT")
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


def process(data):
    """Thumbnail JPEG bytes, full upright size and the 28x28 tensor of one image."""
    image = Image.open(io.BytesIO(data))
    stored = image.size
    image.draft("RGB", (THUMBNAIL_SIDE, THUMBNAIL_SIDE))
    image = ImageOps.exif_transpose(image).convert("RGB")
    swapped = image.size[0] < image.size[1] and stored[0] > stored[1] or \
        image.size[0] > image.size[1] and stored[0] < stored[1]
    size = (stored[1], stored[0]) if swapped else stored
    image.thumbnail((THUMBNAIL_SIDE, THUMBNAIL_SIDE))
    thumbnail = io.BytesIO()
    image.save(thumbnail, "JPEG", quality=85)
    tensor = np.asarray(image.convert("L").resize((28, 28), Image.Resampling.BOX), dtype=np.float32) / 255
    return thumbnail.getvalue(), size, tensor


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
        for (path, digest, data_size, stat, thumbnail, (width, height), _), row, p in zip(batch, logits, probabilities):
            cursor = db.execute(INSERT_IMAGE, (digest, data_size, width, height, "jpeg", thumbnail, now))
            image_id = cursor.lastrowid if cursor.rowcount == 1 else \
                db.execute("SELECT id FROM images WHERE sha256 = ?", (digest,)).fetchone()[0]
            db.execute(INSERT_PATH, (path, image_id, stat.st_size, stat.st_mtime_ns, now))
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
            thumbnail, size, tensor = process(data)
        except Exception as error:  # a bad file is counted, as the import records it
            print(f"{path}: {error}", file=sys.stderr)
            failed += 1
            continue
        pending.append((path, digest, len(data), stat, thumbnail, size, tensor))
        if len(pending) == BATCH:
            commit(pending)
            stored += len(pending)
            pending = []
    if pending:
        commit(pending)
        stored += len(pending)
    seconds = time.perf_counter() - start
    print(json.dumps({"new_images": stored, "known": known, "failed": failed, "seconds": round(seconds, 3),
                      "images_per_second": round((stored + known) / seconds, 1)}))


if __name__ == "__main__":
    main()
