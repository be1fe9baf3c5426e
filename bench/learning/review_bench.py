#!/usr/bin/env python3
"""Learning from a person's corrections, reviewed three ways (make bench-learning).

The bench parent (Models/bench-parent.aimodel: `make model`'s recipe on the
training photos whose SHA-256 starts below 0x80, outwear left out) classifies
the other training photos, imported as a person's catalogue. A person then
reviews photos of that catalogue in one of three ways, and plain
`wardrobe model train --corrections` fine-tunes the parent on what they gave:

  random-200      200 random photos: the right ones confirmed, the wrong ones corrected
  wrong-only-300  300 random photos, only the wrong ones corrected (what fixing a list does)
  one-label-200   200 photos of the folders with one accepted label, confirmed or corrected

A wrong photo gets its folder's first accepted label in the map; hat, shorts
and skirt photos are never reviewed. Every model is scored on the validation
photos, per folder, beside the parent, and on the imported photos nobody
reviewed: labels fixed and labels broken. Nothing is trained on validation.

Python standard library only; every figure comes from the wardrobe binary.
"""
import argparse
import json
import os
import random
import shlex
import sqlite3
import subprocess
import sys
import time

SCENARIOS = ["random-200", "wrong-only-300", "one-label-200"]


def run(command, stdin=None):
    result = subprocess.run(command, capture_output=True, text=True, input=stdin)
    if result.returncode != 0:
        sys.exit(f"bench-learning: {shlex.join(command)} failed ({result.returncode}):\n{result.stderr}")
    return result.stdout


def read_map(path):
    """folder -> accepted labels (empty for 'none')."""
    mapping = {}
    with open(path) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if not line:
                continue
            folder, labels = line.rsplit(":", 1)
            labels = [l.strip() for l in labels.split(",")]
            mapping[folder.strip()] = [] if labels == ["none"] else labels
    return mapping


def photos_under(root):
    """(folder, path) of every photo, sorted."""
    found = []
    for folder in sorted(os.listdir(root)):
        directory = os.path.join(root, folder)
        if os.path.isdir(directory):
            found += [(folder, os.path.join(directory, name)) for name in sorted(os.listdir(directory))]
    return found


def classify(wardrobe, model, paths):
    """path -> label, by `wardrobe classify --no-save` (the recipe rule picks the model's recipe)."""
    labels = {}
    for start in range(0, len(paths), 400):
        rows = json.loads(run([wardrobe, "classify", "--no-save", "--json", "--model", model] + paths[start:start + 400]))
        labels.update({row["path"]: row["label"] for row in rows})
    return labels


def evaluate(wardrobe, model, validation, map_path):
    report = json.loads(run([wardrobe, "model", "evaluate", "--model", model, "--images", validation,
                             "--map", map_path, "--json"]))
    recipe = report["recipes"][0]
    folders = {f["folder"]: (f["correct"], f["photos"]) for f in recipe["folders"]}
    return {"correct": recipe["correct"], "photos": sum(p for _, p in folders.values()), "folders": folders,
            "ece": recipe["calibration"]["expected_calibration_error"]}


def review(scenario, photos, parent_labels, mapping, rng):
    """The person's acts: [(label or None for confirm, path)]."""
    reviewable = [(folder, path) for folder, path in photos if mapping.get(folder)]
    if scenario == "one-label-200":
        reviewable = [(folder, path) for folder, path in reviewable if len(mapping[folder]) == 1]
    count = 300 if scenario == "wrong-only-300" else 200
    acts = []
    for folder, path in rng.sample(reviewable, count):
        right = parent_labels[path] in mapping[folder]
        if not right:
            acts.append((mapping[folder][0], path))
        elif scenario != "wrong-only-300":
            acts.append((None, path))
    return acts


def copy_catalogue(source, target):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(target + suffix):
            os.remove(target + suffix)
    with sqlite3.connect(source) as a, sqlite3.connect(target) as b:
        a.backup(b)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wardrobe", required=True)
    parser.add_argument("--parent", default="Models/bench-parent.aimodel")
    parser.add_argument("--person", required=True, help="the training photos the parent never learned from")
    parser.add_argument("--validation", default="../shared/data/clothing-photos/validation")
    parser.add_argument("--map", default="bench/clothing-photos.map")
    parser.add_argument("--seeds", default="1 2")
    parser.add_argument("--scenarios", default=" ".join(SCENARIOS))
    parser.add_argument("--train-args", default="", help="extra model train options (trials only; the bench is plain)")
    parser.add_argument("--out", default="bench/out/learning")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    mapping = read_map(args.map)
    photos = photos_under(args.person)
    paths = [path for _, path in photos]
    folder_of = {path: folder for folder, path in photos}

    base = os.path.join(args.out, "person.sqlite")
    copy_catalogue_needed = not os.path.exists(base)
    if copy_catalogue_needed:
        run([args.wardrobe, "import", "--quiet", "--db", base, "--model", args.parent, args.person])
        run([args.wardrobe, "model", "use", "--db", base, args.parent])
    parent_labels = classify(args.wardrobe, args.parent, paths)
    parent_eval = evaluate(args.wardrobe, args.parent, args.validation, args.map)
    mapped = [p for p in paths if mapping.get(folder_of[p])]
    print(f"bench parent {args.parent}: validation {parent_eval['correct']}/{parent_eval['photos']}; "
          f"right on {sum(parent_labels[p] in mapping[folder_of[p]] for p in mapped)} of the {len(mapped)} "
          f"mapped photos of the person's catalogue")

    results = {"parent": parent_eval, "runs": []}
    # Seed by seed, so a partial run has every way of reviewing.
    for seed in [int(s) for s in args.seeds.split()]:
        for scenario in args.scenarios.split():
            rng = random.Random(f"{scenario}-{seed}")
            acts = review(scenario, photos, parent_labels, mapping, rng)
            db = os.path.join(args.out, f"{scenario}-seed{seed}.sqlite")
            copy_catalogue(base, db)
            confirms = [p for label, p in acts if label is None]
            if confirms:
                run([args.wardrobe, "label", "--quiet", "--db", db, "--confirm", "-"], stdin="\n".join(confirms) + "\n")
            for label in sorted({label for label, _ in acts if label}):
                chosen = [p for l, p in acts if l == label]
                run([args.wardrobe, "label", "--quiet", "--db", db, label, "-"], stdin="\n".join(chosen) + "\n")
            model = os.path.join(args.out, f"{scenario}-seed{seed}.aimodel")
            started = time.monotonic()
            run([args.wardrobe, "model", "train", "--corrections", "--db", db, "--seed", str(seed), "--out", model]
                + shlex.split(args.train_args))
            seconds = time.monotonic() - started
            unreviewed = [p for p in mapped if p not in {q for _, q in acts}]
            child_labels = classify(args.wardrobe, model, unreviewed)
            fixed = broken = 0
            for p in unreviewed:
                accepted = mapping[folder_of[p]]
                was, now = parent_labels[p] in accepted, child_labels[p] in accepted
                fixed += (not was) and now
                broken += was and not now
            child_eval = evaluate(args.wardrobe, model, args.validation, args.map)
            run_result = {"scenario": scenario, "seed": seed, "confirmed": len(confirms),
                          "corrected": len(acts) - len(confirms), "seconds": seconds, "validation": child_eval,
                          "unreviewed": len(unreviewed), "fixed": fixed, "broken": broken}
            results["runs"].append(run_result)
            print(f"{scenario} seed {seed}: {len(confirms)} confirmed, {len(acts) - len(confirms)} corrected; "
                  f"validation {parent_eval['correct']} -> {child_eval['correct']} of {child_eval['photos']}; "
                  f"unreviewed: {fixed} fixed, {broken} broken of {len(unreviewed)}; {seconds:.0f} s", flush=True)

    with open(os.path.join(args.out, "review.json"), "w") as f:
        json.dump(results, f, indent=1)
    print(report(results))
    with open(os.path.join(args.out, "review.md"), "w") as f:
        f.write(report(results))


def report(results):
    parent = results["parent"]
    lines = []
    for scenario in SCENARIOS:
        runs = [r for r in results["runs"] if r["scenario"] == scenario]
        if not runs:
            continue
        lines.append(f"\n### {scenario}\n")
        header = "| folder | parent | " + " | ".join(f"seed {r['seed']}" for r in runs) + " |"
        lines += [header, "|---" * (2 + len(runs)) + "|"]
        for folder, (correct, photos) in parent["folders"].items():
            cells = [f"{correct}/{photos} ({correct / photos:.2f})"]
            for r in runs:
                c, p = r["validation"]["folders"][folder]
                cells.append(f"{c}/{p} ({c / p:.2f}, {100 * (c - correct) / p:+.0f})")
            lines.append(f"| {folder} | " + " | ".join(cells) + " |")
        cells = [f"{parent['correct']}/{parent['photos']} ({parent['correct'] / parent['photos']:.3f})"]
        cells += [f"{r['validation']['correct']}/{r['validation']['photos']} "
                  f"({r['validation']['correct'] / r['validation']['photos']:.3f}, "
                  f"{100 * (r['validation']['correct'] - parent['correct']) / parent['photos']:+.1f})" for r in runs]
        lines.append("| **validation, all** | " + " | ".join(cells) + " |")
        lines.append(f"| ECE | {parent['ece']:.3f} | " + " | ".join(f"{r['validation']['ece']:.3f}" for r in runs) + " |")
        lines.append("| reviewed: confirmed, corrected | | "
                     + " | ".join(f"{r['confirmed']}, {r['corrected']}" for r in runs) + " |")
        lines.append("| unreviewed imported: fixed, broken | | "
                     + " | ".join(f"{r['fixed']}, {r['broken']} (of {r['unreviewed']})" for r in runs) + " |")
        lines.append("| fine-tune seconds | | " + " | ".join(f"{r['seconds']:.0f}" for r in runs) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
