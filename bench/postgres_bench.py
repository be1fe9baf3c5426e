#!/usr/bin/env python3
"""bench-postgres: whole-process median wall time of `wardrobe list --label L --limit 50`
and `wardrobe stats` on one catalogue in PostgreSQL and in SQLite, in the same run,
alternating round by round so that whatever else the machine does weighs on both.

With --photos: 1, 2 and 4 `wardrobe import` processes (--importers), each with --jobs 1,
on one folder into a new PostgreSQL catalogue each, beside one into a new SQLite file:
images/s, the importers' CPU per image and the server's (its postmaster, the backends it
reaped and those running), and what their reports say they read; beside them, the server's
CPU per image to load the rows one importer stored by psql COPY in one transaction (a bulk
load: what storing those rows costs the server with no importer's work around it). With --catalogue-bench:
batch inserts (an image, its path and its classification per row) through wardrobe's
storage protocol into PostgreSQL, beside psql running the same multi-row INSERT ... ON
CONFLICT statements with the same batch size, one transaction per batch, in the same run.

The SQLite catalogue is given (catalogue-bench writes it); the PostgreSQL one is made
from it by `wardrobe copy` (timed) on a throwaway server this script starts in a
temporary folder, listening only on a Unix socket there, and stops at the end, as the
tests' TestPostgres does (as the `postgres` user when run as root: initdb refuses root).
Standard library only."""
import argparse
import glob
import hashlib
import json
import os
import pwd
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

LABELS = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]


def note(message):
    print(message, file=sys.stderr, flush=True)


class Server:
    """A cluster in a temporary folder; `stop` removes it."""

    def __init__(self):
        versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
        if not versions:
            sys.exit("bench-postgres: PostgreSQL is not installed (make deps installs it)")
        self.bin = os.path.dirname(versions[-1])
        self.folder = tempfile.mkdtemp(prefix="wardrobe-pg-bench-")
        self.as_root = os.getuid() == 0
        if self.as_root:
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        os.chmod(self.folder, 0o755)
        self.run("initdb", "-D", self.folder + "/data", "-A", "trust", "-U", "postgres", "-E", "UTF8",
                 "--locale=C.UTF-8", "--no-instructions")
        self.run("pg_ctl", "-D", self.folder + "/data", "-l", self.folder + "/server.log", "-w", "-t", "60", "start",
                 "-o", f"-k {self.folder} -c listen_addresses=''")

    def run(self, program, *arguments, as_server=True):
        command = [self.bin + "/" + program, *arguments]
        if as_server and self.as_root:
            command = ["/usr/sbin/runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def new_database(self, name):
        self.run("createdb", "-h", self.folder, "-U", "postgres", name, as_server=False)
        return "postgresql://postgres@" + self.folder.replace("/", "%2F") + "/" + name

    def stop(self):
        try:
            self.run("pg_ctl", "-D", self.folder + "/data", "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def timed(arguments):
    started = time.perf_counter()
    result = subprocess.run(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"bench-postgres: {' '.join(arguments)} failed: {result.stderr.decode(errors='replace').strip()}")
    return seconds


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pid, with_children=False):
    """CPU seconds of `pid` from /proc (with those of its children it has waited for)."""
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    # fields[0] is state (field 3): utime, stime, cutime, cstime are fields 14..17.
    ticks = int(fields[11]) + int(fields[12])
    if with_children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / CLOCK_TICKS


def server_cpu(server):
    """CPU seconds the server has spent: the postmaster, the backends it has reaped (its
    children's time) and those still running, and its background processes."""
    with open(server.folder + "/data/postmaster.pid") as file:
        postmaster = int(file.readline())
    total = process_cpu(postmaster, with_children=True)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as file:
                parent = int(file.read().rsplit(")", 1)[1].split()[1])
            if parent == postmaster:
                total += process_cpu(int(entry))
        except (OSError, ValueError, IndexError):
            pass  # ended meanwhile
    return total


def simultaneous_imports(wardrobe, location, photos, count):
    """`count` imports of `photos` into `location` started together, each with --jobs 1:
    the wall time from the first start to the last end, their CPU seconds, and what each
    report says it read."""
    command = [wardrobe, "import", "--db", location, "--jobs", "1", "--json", photos]
    started = time.perf_counter()
    children = []
    for _ in range(count):
        output = tempfile.TemporaryFile()
        children.append((subprocess.Popen(command, stdout=output, stderr=subprocess.PIPE), output))
    cpu, reports = 0.0, []
    for child, output in children:
        errors = child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
        cpu += usage.ru_utime + usage.ru_stime
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"bench-postgres: {' '.join(command)} failed: {errors.decode(errors='replace').strip()}")
        output.seek(0)
        reports.append(json.loads(output.read()))
    return time.perf_counter() - started, cpu, reports


def measure_importers(server, wardrobe, photos, counts, rounds):
    """1, 2 and 4 importers into a new PostgreSQL catalogue each, and one into a new SQLite file,
    `rounds` times in turn (a new catalogue each time); each figure the median of its rounds. A
    run of the validation photos lasts under a second, so one round moves by a few hundredths."""
    empty = tempfile.mkdtemp(prefix="wardrobe-empty-")
    work = tempfile.mkdtemp(prefix="wardrobe-import-bench-")
    measured, one_importers = {}, None
    try:
        for round in range(rounds):
            contenders = [("SQLite", 1, os.path.join(work, f"one-{round}.sqlite"))]
            contenders += [("PostgreSQL", count, server.new_database(f"import{count}r{round}")) for count in counts]
            if round == 0 and 1 in counts:
                one_importers = contenders[1 + counts.index(1)][2]
            for engine, count, location in contenders:
                timed([wardrobe, "import", "--quiet", "--db", location, empty])  # the schema, before the race
                server_before = server_cpu(server)
                seconds, cpu, reports = simultaneous_imports(wardrobe, location, photos, count)
                server_spent = server_cpu(server) - server_before if engine == "PostgreSQL" else None
                images = sum(report["new_images"] + report["new_paths"] for report in reports)
                read = sum(report["files_read"] for report in reports)
                measured.setdefault((engine, count), []).append((seconds, cpu, server_spent, images, read))
                note(f"round {round + 1}: {count} importer(s) into {engine}: {images} files in {seconds:.2f} s, {read} read")
    finally:
        shutil.rmtree(empty, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    rows = []
    for (engine, count), runs in measured.items():
        images, read = runs[-1][3], runs[-1][4]
        seconds = statistics.median(run[0] for run in runs)
        cpu = statistics.median(run[1] for run in runs)
        server_spent = None if engine == "SQLite" else statistics.median(run[2] for run in runs)
        rows.append({"engine": engine, "importers": count, "files": images, "files_read": read, "rounds": len(runs),
                     "seconds": seconds, "images_per_second": images / seconds, "cpu_ms_per_image": cpu * 1000 / images,
                     "server_cpu_ms_per_image": None if server_spent is None else server_spent * 1000 / images})
    return rows, one_importers


# Tables the catalogue's triggers keep: a load of the others fills them as an import does.
KEPT_BY_TRIGGERS = ["current_classifications", "label_counts", "catalogue_counts", "colour_counts"]


def measure_storing_floor(server, source, images, rounds):
    """The server's CPU per image to store what one importer stored, by a bulk load: psql
    loading `source`'s rows with COPY (text, as pg_dump writes it), in one transaction and one
    connection, into a new database of the same schema, its triggers and indexes doing their
    work; the mean of `rounds` loads (the server's CPU is counted in 10 ms ticks). No
    importer's connections, batches' commits, leases or look-ups are in it. (COPY's binary
    format measured 0.167 against text's 0.176 ms per image once, 10 loads each.)"""
    def dump(*arguments):
        return subprocess.run([server.bin + "/pg_dump", "-h", server.folder, "-U", "postgres", *arguments,
                               source.rsplit("/", 1)[1]], capture_output=True, check=True).stdout
    schema = dump("--schema-only")
    # pg_dump empties search_path while it loads; the triggers' functions name their tables unqualified.
    rows = b"\n".join(line for line in dump("--data-only", *[f"--exclude-table={t}" for t in KEPT_BY_TRIGGERS]).split(b"\n")
                      if b"set_config('search_path'" not in line)
    spent = []
    for round in range(rounds):
        name = server.new_database(f"floor{round}").rsplit("/", 1)[1]
        psql = [server.bin + "/psql", "-q", "-X", "-v", "ON_ERROR_STOP=1", "-h", server.folder, "-U", "postgres", "-d", name]
        subprocess.run(psql, input=schema, capture_output=True, check=True)
        before = server_cpu(server)
        subprocess.run([*psql, "--single-transaction"], input=rows, capture_output=True, check=True)
        spent.append(server_cpu(server) - before)
    return {"images": images, "rounds": rounds, "server_cpu_ms_per_image": statistics.mean(spent) * 1000 / images}


def print_importers(rows, floor):
    print(f"importers: the median of {rows[0]['rounds']} rounds")
    print("| importers (--jobs 1 each) | engine | files | read | seconds | images/s | importer CPU ms/image | server CPU ms/image |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        server = "-" if r["server_cpu_ms_per_image"] is None else f"{r['server_cpu_ms_per_image']:.2f}"
        print(f"| {r['importers']} | {r['engine']} | {r['files']} | {r['files_read']} | {r['seconds']:.2f} "
              f"| {r['images_per_second']:.1f} | {r['cpu_ms_per_image']:.2f} | {server} |")
    if floor:
        print(f"| - | the same rows by psql COPY, one transaction (mean of {floor['rounds']}) | {floor['images']} | - | - | - "
              f"| - | {floor['server_cpu_ms_per_image']:.2f} |")
    by_count = {r["importers"]: r for r in rows if r["engine"] == "PostgreSQL"}
    checks = []
    if 1 in by_count and 2 in by_count:
        one, two = by_count[1], by_count[2]
        checks.append(("2 importers' images/s over 1's", two["images_per_second"] / one["images_per_second"], ">= 1.6"))
        checks.append(("2 importers' time over 1's", two["seconds"] / one["seconds"], "<= 0.6"))
    if 2 in by_count and 4 in by_count:
        checks.append(("4 importers' images/s over 2's",
                       by_count[4]["images_per_second"] / by_count[2]["images_per_second"], ">= 0.9"))
    for count, r in sorted(by_count.items()):
        checks.append((f"server CPU over importer CPU per image, {count} importer(s)",
                       r["server_cpu_ms_per_image"] / r["cpu_ms_per_image"], "<= 0.10"))
    if floor and 1 in by_count:
        # Not a target: the least the server can spend storing those rows, against the same importer CPU.
        checks.append(("server CPU of the COPY load over one importer's CPU per image",
                       floor["server_cpu_ms_per_image"] / by_count[1]["cpu_ms_per_image"], "(the floor)"))
    print()
    print("| ratio | measured | target |")
    print("|---|---:|---|")
    for name, value, target in checks:
        print(f"| {name} | {value:.2f} | {target} |")
    return checks

def insert_script(images, batch, machine="bench"):
    """What `psql` runs as the peer of `catalogue-bench insert`: per batch of `batch` images one
    transaction of three multi-row INSERT ... ON CONFLICT statements, images, their paths and
    their classifications, as an import's batch writes them (without its look-ups first)."""
    lines = ["\\set ON_ERROR_STOP on",
             "INSERT INTO models (name, version, sha256, labels, parameter_count, registered_at) "
             "VALUES ('peer', '1', sha256('peer'::bytea), '[]', 1, 0) RETURNING id AS model \\gset",
             "INSERT INTO runs (command, model_id, recipe_name, recipe_version, started_at) "
             "VALUES ('import', :model, 'fashion-mnist', 1, 0) RETURNING id AS run \\gset"]
    logits = "\\x" + "00" * 40
    for start in range(0, images, batch):
        numbers = range(start, min(images, start + batch))
        digest = {n: hashlib.sha256(f"peer {n}".encode()).hexdigest() for n in numbers}
        lines.append("BEGIN;")
        lines.append("INSERT INTO images (sha256, byte_size, width, height, format, thumbnail, first_imported) VALUES "
                     + ", ".join(f"('\\x{digest[n]}', {100000 + n % 5000}, 3000, 4000, 'jpeg', NULL, 0)" for n in numbers)
                     + " ON CONFLICT (sha256) DO NOTHING;")
        lines.append("INSERT INTO image_paths AS p (machine, path, image_id, size, mtime_ns, last_seen) "
                     "SELECT v.machine, v.path, i.id, v.size, v.mtime, 0 FROM (VALUES "
                     + ", ".join(f"('{machine}', '/photos/{n:07d}.jpg', '\\x{digest[n]}'::bytea, {100000 + n % 5000}, {n})"
                                 for n in numbers)
                     + ") AS v(machine, path, sha, size, mtime) JOIN images AS i ON i.sha256 = v.sha "
                     "ON CONFLICT (machine, path) DO UPDATE SET image_id = excluded.image_id, size = excluded.size, "
                     "mtime_ns = excluded.mtime_ns, last_seen = excluded.last_seen, missing = 0;")
        lines.append("INSERT INTO classifications (image_id, run_id, model_id, recipe_name, recipe_version, logits, "
                     "label, confidence, classified_at) SELECT i.id, :run, :model, 'fashion-mnist', 1, v.logits, v.label, "
                     "0.5, 0 FROM (VALUES "
                     + ", ".join(f"('\\x{digest[n]}'::bytea, '{logits}'::bytea, {n % 10})" for n in numbers)
                     + ") AS v(sha, logits, label) JOIN images AS i ON i.sha256 = v.sha "
                     "ON CONFLICT (image_id, run_id) DO NOTHING;")
        lines.append("COMMIT;")
    return "\n".join(lines) + "\n"


def measure_inserts(server, wardrobe, catalogue_bench, images, batch):
    """Rows (images, each with its path and classification) per second: wardrobe's batches
    through the storage protocol (`catalogue-bench insert`) beside psql running the peer
    script, each into a new catalogue on the same server, in the same run."""
    empty = tempfile.mkdtemp(prefix="wardrobe-empty-")
    try:
        ours = server.new_database("insertwardrobe")
        result = subprocess.run([catalogue_bench, "insert", "--db", ours, "--images", str(images), "--batch", str(batch)],
                                capture_output=True, check=True)
        wardrobe_rate = json.loads(result.stdout)["insert_rows_per_s"]
        theirs = server.new_database("insertpsql")
        timed([wardrobe, "import", "--quiet", "--db", theirs, empty])  # the same schema, made by wardrobe
        script = os.path.join(empty, "peer.sql")
        with open(script, "w") as file:
            file.write(insert_script(images, batch))
        seconds = timed([server.bin + "/psql", "-q", "-X", "-h", server.folder, "-U", "postgres", "-d",
                         theirs.rsplit("/", 1)[1], "-f", script])
    finally:
        shutil.rmtree(empty, ignore_errors=True)
    return {"images": images, "batch": batch, "wardrobe_rows_per_s": wardrobe_rate, "psql_rows_per_s": images / seconds}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--wardrobe", required=True)
    parser.add_argument("--sqlite", help="the catalogue list and stats are timed on, copied to the server")
    parser.add_argument("--photos", help="the folder the importers import")
    parser.add_argument("--importers", default="1,2,4", help="how many importers at once, each count in turn")
    parser.add_argument("--import-rounds", type=int, default=5, help="rounds of the importers, each figure their median")
    parser.add_argument("--catalogue-bench", help="the catalogue-bench binary, for the batch inserts")
    parser.add_argument("--insert-images", type=int, default=20000)
    parser.add_argument("--insert-batch", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--json")
    options = parser.parse_args()

    server = Server()
    results, importers, floor, inserts, copy_seconds, stats = [], [], None, None, None, None
    try:
        if options.photos:
            importers, one_importers = measure_importers(server, options.wardrobe, options.photos,
                                                         [int(count) for count in options.importers.split(",")],
                                                         options.import_rounds)
            if one_importers:
                stored = next(r["files"] for r in importers if r["engine"] == "PostgreSQL" and r["importers"] == 1)
                floor = measure_storing_floor(server, one_importers, stored, options.import_rounds * 2)
        if options.catalogue_bench:
            inserts = measure_inserts(server, options.wardrobe, options.catalogue_bench,
                                      options.insert_images, options.insert_batch)
        if options.sqlite:
            copy_seconds, stats, results = measure_queries(server, options)
    finally:
        server.stop()

    if importers:
        print_importers(importers, floor)
        print()
    if inserts:
        ratio = inserts["wardrobe_rows_per_s"] / inserts["psql_rows_per_s"]
        print(f"| batch insert ({inserts['images']:,} images, {inserts['batch']} per transaction) | rows/s |")
        print("|---|---:|")
        print(f"| wardrobe (catalogue-bench insert, storage protocol) | {inserts['wardrobe_rows_per_s']:,.0f} |")
        print(f"| psql, the same multi-row INSERT ... ON CONFLICT | {inserts['psql_rows_per_s']:,.0f} |")
        print(f"| wardrobe over psql (target >= 0.8) | {ratio:.2f} |")
        print()
    if results:
        print_queries(options, copy_seconds, stats, results)
    if options.json:
        with open(options.json, "w") as file:
            json.dump({"copy_seconds": copy_seconds, "results": results, "importers": importers, "storing_floor": floor,
                       "inserts": inserts},
                      file, indent=2)


def measure_queries(server, options):
    """list and stats on the SQLite catalogue and on its copy in PostgreSQL, round by round."""
    database = server.new_database("bench")
    copy_seconds = timed([options.wardrobe, "copy", options.sqlite, database])
    note(f"wardrobe copy of {options.sqlite} into PostgreSQL: {copy_seconds:.1f} s")
    stats = json.loads(subprocess.run([options.wardrobe, "stats", "--json", "--db", database],
                                      capture_output=True, check=True).stdout)
    catalogues = [("SQLite", options.sqlite), ("PostgreSQL", database)]
    commands = [("list --label L --limit 50", lambda label: ["list", "--label", label, "--limit", "50"]),
                ("stats", lambda label: ["stats"])]
    samples = {(name, engine): [] for name, _ in commands for engine, _ in catalogues}
    # Two rounds first that are not counted: the page caches of both engines warm up.
    for round_number in range(options.rounds + 2):
        label = LABELS[round_number % len(LABELS)]
        for name, words in commands:
            for engine, location in catalogues:
                seconds = timed([options.wardrobe, *words(label), "--db", location])
                if round_number >= 2:
                    samples[(name, engine)].append(seconds)
    results = [{"command": name, "engine": engine, "images": stats["images"],
                "median_ms": statistics.median(samples[(name, engine)]) * 1000, "runs": options.rounds}
               for name, _ in commands for engine, _ in catalogues]
    return copy_seconds, stats, results


def print_queries(options, copy_seconds, stats, results):
    print(f"| command (whole process) | engine | images | median ms over {options.rounds} runs |")
    print("|---|---|---:|---:|")
    for r in results:
        print(f"| {r['command']} | {r['engine']} | {r['images']:,} | {r['median_ms']:.1f} |")
    print(f"\nwardrobe copy SQLite -> PostgreSQL of {stats['images']:,} images: {copy_seconds:.1f} s")


if __name__ == "__main__":
    main()
