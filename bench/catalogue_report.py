#!/usr/bin/env python3
"""Sets the catalogue benchmark's rounds side by side: the Swift Catalogue
(`catalogue-bench bench --json`) against its Python sqlite3 peer
(bench/catalogue_peer.py --json), one JSON summary per round and side.

    python3 bench/catalogue_report.py --swift S1.json S2.json --python P1.json P2.json

Each side's best round counts: another program on the machine can only slow a
round down, and the rounds run in the order Swift, Python, Python, Swift, so
that neither side always runs first (while the other's writes drain to disk).
"""
import argparse, json, sqlite3

MEASURES = [  # title, key, higher is better, target
    ("insert rows/s (image+path+classif.)", "insert_rows_per_s", True, "Swift >= Python"),
    ("insert rows per CPU second", "insert_rows_per_cpu_s", True, "(load-independent)"),
    ("current top 50 for a label, median ms", "top50_median_ms", False, "<= 1 ms"),
    ("count for a label, median ms", "count_median_ms", False, "<= 5 ms"),
]


def load(paths):
    rounds = []
    for path in paths:
        with open(path) as file:
            rounds.append(json.load(file))
    return rounds


def best(rounds, key, higher_is_better):
    values = [round_[key] for round_ in rounds]
    return max(values) if higher_is_better else min(values)


def show(value, higher_is_better):
    return f"{value:,.0f}" if higher_is_better else f"{value:.3f}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--swift", nargs="+", required=True)
    parser.add_argument("--python", nargs="+", required=True)
    args = parser.parse_args()
    swift, python = load(args.swift), load(args.python)
    first = swift[0]

    print(f"\ncatalogue benchmark, {first['images']:,} images, batches of {first['batch']} "
          f"(sqlite {sqlite3.sqlite_version}, WAL, synchronous=NORMAL)")
    print("every round:")
    for side, rounds in (("Swift", swift), ("Python", python)):
        for number, round_ in enumerate(rounds, start=1):
            print(f"  {side:<7}{number}: {round_['insert_rows_per_s']:>7,} rows/s, "
                  f"{round_['insert_rows_per_cpu_s']:>7,} per CPU second, "
                  f"top 50 {round_['top50_median_ms']:.3f} ms, count {round_['count_median_ms']:.3f} ms")
    print(f"best of {len(swift)} and {len(python)} rounds:")
    print(f"{'measure':<38}{'Swift Catalogue':>16}{'Python sqlite3':>16}{'ratio':>9}  target")
    for title, key, higher_is_better, target in MEASURES:
        s, p = best(swift, key, higher_is_better), best(python, key, higher_is_better)
        ratio = s / p if higher_is_better else p / s
        print(f"{title:<38}{show(s, higher_is_better):>16}{show(p, higher_is_better):>16}{ratio:>8.2f}x  {target}")
    print("ratio > 1 means the Swift side is faster.")


if __name__ == "__main__":
    main()
