#!/usr/bin/env python3
"""Splits the training photos by SHA-256 for bench-learning (make bench-parent).

Photos whose SHA-256 starts below 0x80 go to OUT/parent (what the bench parent
learns from, as `make model` learns from all of them); the others to
OUT/person (the catalogue a person reviews). Folders are kept; files are
copied (the photos never enter the repository). The shoe labels of
Models/shoe-labels.tsv are filtered to the parent's half, so `make model`'s
recipe can label that half's shoes.
"""
import argparse
import hashlib
import os
import shutil


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--shoe-labels", required=True)
    args = parser.parse_args()
    counts = {"parent": 0, "person": 0}
    parent_hashes = set()
    for folder in sorted(os.listdir(args.train)):
        source = os.path.join(args.train, folder)
        if not os.path.isdir(source):
            continue
        for name in sorted(os.listdir(source)):
            path = os.path.join(source, name)
            with open(path, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            half = "parent" if int(digest[:2], 16) < 0x80 else "person"
            if half == "parent":
                parent_hashes.add(digest)
            target = os.path.join(args.out, half, folder)
            os.makedirs(target, exist_ok=True)
            shutil.copyfile(path, os.path.join(target, name))
            counts[half] += 1
    with open(args.shoe_labels) as f, open(os.path.join(args.out, "parent-shoe-labels.tsv"), "w") as out:
        for line in f:
            if line.startswith("#") or line.split("\t")[0] in parent_hashes:
                out.write(line)
    print(f"split {args.train}: {counts['parent']} photos for the parent, {counts['person']} for the person's catalogue")


if __name__ == "__main__":
    main()
