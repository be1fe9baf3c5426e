#!/usr/bin/env python3
"""Two or more builds of wardrobe, the same commands, in one run: CPU time (user + system,
from wait4) of whole processes, the builds taking turns within every round and the first
to go changing round by round, so that whatever else the machine does weighs on all.

Per round and build, in a new folder: `import --jobs 1` of the photos into a new SQLite
catalogue with the photo recipe and into another with fashion-mnist (CPU per photo),
`reclassify --jobs 1` of the first (CPU per photo), then `list --label Coat` and `stats`
on it (CPU per command). Each build uses its own bundled model; WARDROBE_* variables are
cleared. Prints the medians and each build's over the first's.

    python3 bench/compare_builds.py --rounds 11 old=/tmp/old/.build/release/wardrobe \\
        new=.build/release/wardrobe

Standard library only."""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile


def cpu_seconds(arguments, environment):
    child = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment)
    errors = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"compare-builds: {' '.join(arguments)} failed: {errors.decode(errors='replace').strip()}")
    return usage.ru_utime + usage.ru_stime


def one_round(wardrobe, photos, count, environment):
    folder = tempfile.mkdtemp(prefix="wardrobe-compare-")
    try:
        photo, fashion = os.path.join(folder, "photo.sqlite"), os.path.join(folder, "fashion.sqlite")
        def run(*words):
            return cpu_seconds([wardrobe, *words], environment)
        return {
            "import photo, ms/photo": run("import", "--db", photo, "--jobs", "1", "--prep", "photo", photos) * 1000 / count,
            "import fashion-mnist, ms/photo": run("import", "--db", fashion, "--jobs", "1", "--prep", "fashion-mnist",
                                                  photos) * 1000 / count,
            "reclassify photo, ms/photo": run("reclassify", "--db", photo, "--jobs", "1", "--prep", "photo") * 1000 / count,
            "list --label Coat, ms": run("list", "--db", photo, "--label", "Coat") * 1000,
            "stats, ms": run("stats", "--db", photo) * 1000,
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builds", nargs="+", metavar="NAME=BINARY", help="the first is the one the others are set against")
    parser.add_argument("--photos", default="../shared/data/clothing-photos/validation")
    parser.add_argument("--rounds", type=int, default=11)
    options = parser.parse_args()
    builds = dict(build.split("=", 1) for build in options.builds)
    names = list(builds)
    photos = os.path.abspath(options.photos)
    extensions = (".jpg", ".jpeg", ".png", ".webp", ".heic")
    count = sum(1 for _, _, files in os.walk(photos) for name in files if name.lower().endswith(extensions))
    environment = {key: value for key, value in os.environ.items() if not key.startswith("WARDROBE")}
    samples = {}
    for round_number in range(options.rounds):
        turn = round_number % len(names)
        for name in names[turn:] + names[:turn]:
            for what, value in one_round(builds[name], photos, count, environment).items():
                samples.setdefault(what, {}).setdefault(name, []).append(value)
        print(f"compare-builds: round {round_number + 1} of {options.rounds}", file=sys.stderr, flush=True)
    others = names[1:]
    print(f"medians of {options.rounds} rounds, {count} photos")
    print("| what | " + " | ".join(names) + "".join(f" | {name} / {names[0]}" for name in others) + " |")
    print("|---|" + "---:|" * (len(names) + len(others)))
    for what, by_build in samples.items():
        median = {name: statistics.median(by_build[name]) for name in names}
        print(f"| {what} | " + " | ".join(f"{median[name]:.3f}" for name in names)
              + "".join(f" | {median[name] / median[names[0]]:.3f}" for name in others) + " |")


if __name__ == "__main__":
    main()
