#!/usr/bin/env python3
"""bench-postgres: whole-process median wall time of `wardrobe list --label L --limit 50`
and `wardrobe stats` on one catalogue in PostgreSQL and in SQLite, in the same run,
alternating round by round so that whatever else the machine does weighs on both.

The SQLite catalogue is given (catalogue-bench writes it); the PostgreSQL one is made
from it by `wardrobe copy` (timed) on a throwaway server this script starts in a
temporary folder, listening only on a Unix socket there, and stops at the end, as the
tests' TestPostgres does (as the `postgres` user when run as root: initdb refuses root).
Standard library only."""
import argparse
import glob
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


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--wardrobe", required=True)
    parser.add_argument("--sqlite", required=True, help="the catalogue to measure, copied to the server")
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--json")
    options = parser.parse_args()

    server = Server()
    try:
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
    finally:
        server.stop()

    print(f"| command (whole process) | engine | images | median ms over {options.rounds} runs |")
    print("|---|---|---:|---:|")
    for r in results:
        print(f"| {r['command']} | {r['engine']} | {r['images']:,} | {r['median_ms']:.1f} |")
    print(f"\nwardrobe copy SQLite -> PostgreSQL of {stats['images']:,} images: {copy_seconds:.1f} s")
    if options.json:
        with open(options.json, "w") as file:
            json.dump({"copy_seconds": copy_seconds, "results": results}, file, indent=2)


if __name__ == "__main__":
    main()
