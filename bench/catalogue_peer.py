#!/usr/bin/env python3
"""The catalogue benchmark's Python peer: the same schema (applied from
migrations/*.sql), the same pragmas and the same SQL as the Catalogue module,
driven by Python's sqlite3. It prints (and with --json writes) the summary
that `catalogue-bench bench` gives; bench/catalogue_report.py sets the two
side by side.

    python3 bench/catalogue_peer.py --db bench/out/peer.sqlite --images 1000000 \
        [--batch 1000] [--repeats 500] [--json bench/out/catalogue-python-1.json]
"""
import argparse, glob, json, math, os, random, socket, sqlite3, statistics, struct, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

INSERT_IMAGE = """INSERT INTO images (sha256, byte_size, width, height, format, thumbnail, first_imported)
VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING"""
SELECT_IMAGE = "SELECT id FROM images WHERE sha256 = ?"
# A path is kept with the machine it was seen on (schema step 22), as the import keeps it:
# WARDROBE_MACHINE, else the host's name.
MACHINE = os.environ.get("WARDROBE_MACHINE") or socket.gethostname()
INSERT_PATH = """INSERT INTO image_paths (machine, path, image_id, size, mtime_ns, last_seen) VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (machine, path) DO UPDATE SET image_id = excluded.image_id, size = excluded.size,
    mtime_ns = excluded.mtime_ns, last_seen = excluded.last_seen, missing = 0"""
INSERT_CLASSIFICATION = """INSERT INTO classifications
    (image_id, run_id, model_id, recipe_name, recipe_version, logits, label, confidence, classified_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (image_id, run_id) DO NOTHING"""
# The Catalogue module's listing and count for a label (ClassificationQuery(label:, limit: 50)).
TOP50 = """SELECT c.image_id, i.sha256, c.classification_id, c.model_id, c.label, c.confidence,
       c.classified_at, i.first_imported, i.taken_at, i.taken_offset, i.colour, i.colours, i.colour_on_garment,
       i.person_colour,
       i.width, i.height, i.format,
       (SELECT path FROM image_paths WHERE image_id = c.image_id
        ORDER BY missing, last_seen DESC, path DESC LIMIT 1) AS path,
       (SELECT machine FROM image_paths WHERE image_id = c.image_id
        ORDER BY missing, last_seen DESC, path DESC LIMIT 1) AS path_machine,
       (SELECT min(missing) FROM image_paths WHERE image_id = c.image_id) AS path_missing,
       c.corrected_label, k.recipe_name, k.recipe_version
FROM current_classifications AS c CROSS JOIN images AS i ON i.id = c.image_id
CROSS JOIN classifications AS k ON k.id = c.classification_id
WHERE c.effective_label = ?
ORDER BY c.confidence DESC, c.image_id DESC LIMIT ? OFFSET ?"""
COUNT = "SELECT coalesce((SELECT images FROM label_counts WHERE label = ?), 0)"


def open_catalogue(path):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    db = sqlite3.connect(path, isolation_level=None)  # explicit BEGIN/COMMIT, as the Swift side
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA cache_size = -65536")
    db.execute("PRAGMA wal_autocheckpoint = 10000")
    for number, file in enumerate(sorted(glob.glob(os.path.join(ROOT, "migrations", "*.sql"))), start=1):
        db.execute("BEGIN IMMEDIATE")
        for statement in split_sql(open(file).read()):
            db.execute(statement)
        db.execute(f"PRAGMA user_version = {number}")
        db.execute("COMMIT")
    return db


def split_sql(script):
    """Statements of a script, keeping trigger bodies whole (executescript would commit)."""
    statements, current = [], ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            if current.strip():
                statements.append(current)
            current = ""
    return statements


def synthetic(rng, number):
    """An image as the Swift generator makes one: random hash, path, 10 logits."""
    logits = [rng.randrange(10000) / 1000 - 5 for _ in range(10)]
    label = max(range(10), key=logits.__getitem__)
    top = logits[label]
    confidence = 1 / sum(math.exp(v - top) for v in logits)
    return (rng.getrandbits(256).to_bytes(32, "big"), 100000 + number % 5000, 3000 + number % 100, 4000,
            "png" if number % 3 == 0 else "jpeg", f"/photos/{number:07d}.jpg",
            1700000000000000000 + number, struct.pack("<10f", *logits), label, confidence)


def insert(db, count, batch):
    now = int(time.time() * 1000)
    db.execute("BEGIN IMMEDIATE")
    db.execute("INSERT INTO models (name, version, sha256, labels, parameter_count, registered_at) VALUES (?,?,?,?,?,?)",
               ("clothing", "1.1", bytes(32), "[]", 1, now))
    db.execute("INSERT INTO runs (command, model_id, recipe_name, recipe_version, started_at) VALUES (?,?,?,?,?)",
               ("import", 1, "fashion-mnist", 1, now))
    db.execute("COMMIT")
    rng = random.Random(1)
    spent, cpu_spent, done = 0.0, 0.0, 0
    while done < count:
        items = [synthetic(rng, n) for n in range(done, min(count, done + batch))]
        start, cpu_start = time.perf_counter(), time.process_time()
        cur = db.cursor()
        cur.execute("BEGIN IMMEDIATE")
        run = cur.execute("SELECT model_id, recipe_name, recipe_version FROM runs WHERE id = ?", (1,)).fetchone()
        now = int(time.time() * 1000)
        for sha, size, width, height, fmt, path, mtime, logits, label, confidence in items:
            cur.execute(INSERT_IMAGE, (sha, size, width, height, fmt, None, now))
            image = cur.lastrowid if cur.rowcount == 1 else cur.execute(SELECT_IMAGE, (sha,)).fetchone()[0]
            cur.execute(INSERT_PATH, (MACHINE, path, image, size, mtime, now))
            cur.execute(INSERT_CLASSIFICATION, (image, 1, run[0], run[1], run[2], logits, label, confidence, now))
        cur.execute("COMMIT")
        spent += time.perf_counter() - start
        cpu_spent += time.process_time() - cpu_start
        done += len(items)
    return count / spent, count / cpu_spent


def median_time(repeats, body):
    for label in range(10):
        body(label)
    samples = []
    for index in range(repeats):
        start = time.perf_counter()
        body(index % 10)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--images", type=int, default=1_000_000)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=500)
    parser.add_argument("--json", help="also write the summary to this file")
    args = parser.parse_args()

    db = open_catalogue(args.db)
    rate, cpu_rate = insert(db, args.images, args.batch)
    db.execute("ANALYZE")

    def top50(label):
        rows = db.execute(TOP50, (label, 50, 0)).fetchall()
        assert len(rows) == 50

    def count(label):
        assert db.execute(COUNT, (label,)).fetchone()[0] > 0

    python = {"images": args.images, "batch": args.batch, "insert_rows_per_s": int(rate), "insert_rows_per_cpu_s": int(cpu_rate),
              "top50_median_ms": median_time(args.repeats, top50) * 1000,
              "count_median_ms": median_time(args.repeats, count) * 1000}
    summary = json.dumps(python)
    print(summary)
    if args.json:
        with open(args.json, "w") as file:
            file.write(summary)


if __name__ == "__main__":
    main()
