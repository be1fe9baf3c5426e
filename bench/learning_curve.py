#!/usr/bin/env python3
"""The learning curve of the loop (make bench-learning).

Starting from the Fashion-MNIST-only model, fine-tunes (`wardrobe model train
--from`) on the first N mapped training photos in a fixed shuffled order (the
order of `--photo-limit`: by SHA-256 of each file, never by folder, as a
person correcting a catalogue would label photos), evaluates each model on
the validation photos (`wardrobe model evaluate --images`), prints a table and
writes an SVG plot of validation accuracy and fine-tune wall time against N.
N = 0 is the parent itself: nothing labelled, nothing trained.

Python standard library only; the plot is drawn here. Every figure comes from
the wardrobe binary; this script only runs it, times it and draws.
"""
import argparse
import json
import math
import os
import shlex
import subprocess
import sys
import time


def run(command):
    """Runs a wardrobe command, returns its stdout; stops on failure with its stderr."""
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"bench-learning: {shlex.join(command)} failed ({result.returncode}):\n{result.stderr}")
    return result.stdout


def evaluate(args, model):
    report = json.loads(run([args.wardrobe, "model", "evaluate", "--model", model, "--images", args.validation,
                             "--map", args.map, "--json"]))
    score = report["recipes"][0]
    return score["mapped_accuracy"], score["photos"]


def fine_tune(args, count, out):
    command = [args.wardrobe, "model", "train", "--from", args.parent, "--photos", args.train, "--map", args.map,
               "--seed", str(args.seed), "--out", out] + shlex.split(args.train_args)
    if count != "all":
        command += ["--photo-limit", str(count)]
    started = time.monotonic()
    run(command)
    return time.monotonic() - started


def learned_photos(wardrobe, model):
    """The photos a model learned from, as its data_sources record them."""
    info = json.loads(run([wardrobe, "model", "info", "--json", model]))
    sources = json.loads(info.get("training", {}).get("data_sources", "[]"))
    return sum(s["examples"] for s in sources if s["name"].startswith("photos "))


def svg(rows, title, note):
    """Validation accuracy (left axis) and fine-tune seconds (right axis) against labelled photos."""
    width, height, left, right, top, bottom = 720, 420, 70, 70, 50, 60
    plot_w, plot_h = width - left - right, height - top - bottom
    xs = [r["photos"] for r in rows]
    x_max = max(max(xs), 1)
    t_max = max(max(r["seconds"] for r in rows), 1.0)
    a_lo = min(0.4, min(r["accuracy"] for r in rows) - 0.05)
    a_hi = 1.0

    # Square-root scale: the first hundred labels, where the curve rises, get room of their own.
    def x(v): return left + plot_w * math.sqrt(v / x_max)
    def ya(v): return top + plot_h * (1 - (v - a_lo) / (a_hi - a_lo))
    def yt(v): return top + plot_h * (1 - v / (t_max * 1.1))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="15">{title}</text>',
           f'<text x="{width / 2}" y="38" text-anchor="middle" fill="#555">{note}</text>',
           f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#999"/>']
    for i in range(6):
        a = a_lo + (a_hi - a_lo) * i / 5
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{ya(a):.1f}" y2="{ya(a):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{left - 6}" y="{ya(a) + 4:.1f}" text-anchor="end" fill="#1f5fbf">{a:.2f}</text>')
        t = t_max * 1.1 * i / 5
        out.append(f'<text x="{left + plot_w + 6}" y="{yt(t) + 4:.1f}" fill="#c0561b">{t:.0f}</text>')
    for v in xs:
        out.append(f'<text x="{x(v):.1f}" y="{top + plot_h + 18}" text-anchor="middle">{v}</text>')
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 14}" text-anchor="middle">'
               'labelled training photos fine-tuned on (square-root scale)</text>')
    out.append(f'<text x="18" y="{top + plot_h / 2}" text-anchor="middle" fill="#1f5fbf" '
               f'transform="rotate(-90 18 {top + plot_h / 2})">validation accuracy (mapped)</text>')
    out.append(f'<text x="{width - 14}" y="{top + plot_h / 2}" text-anchor="middle" fill="#c0561b" '
               f'transform="rotate(90 {width - 14} {top + plot_h / 2})">fine-tune wall seconds</text>')
    for key, scale, colour in (("accuracy", ya, "#1f5fbf"), ("seconds", yt, "#c0561b")):
        points = " ".join(f"{x(r['photos']):.1f},{scale(r[key]):.1f}" for r in rows)
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for r in rows:
            out.append(f'<circle cx="{x(r["photos"]):.1f}" cy="{scale(r[key]):.1f}" r="3.5" fill="{colour}"/>')
    for r in rows:
        out.append(f'<text x="{x(r["photos"]):.1f}" y="{ya(r["accuracy"]) - 8:.1f}" text-anchor="middle" '
                   f'fill="#1f5fbf">{r["accuracy"]:.3f}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    env = os.environ.get
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wardrobe", default=".build/release/wardrobe")
    parser.add_argument("--parent", default="Models/fashion-mnist-only.aimodel")
    parser.add_argument("--train", default=env("LEARNING_TRAIN", "../shared/data/clothing-photos/train"))
    parser.add_argument("--validation", default=env("LEARNING_VALIDATION", "../shared/data/clothing-photos/validation"))
    parser.add_argument("--map", default="bench/clothing-photos.map")
    parser.add_argument("--counts", default=env("LEARNING_COUNTS", "0 50 100 200 400 all"),
                        help="labelled photo counts, 'all' for every training photo")
    parser.add_argument("--train-args", default=env("LEARNING_TRAIN_ARGS",
                                                    "--fashion 5000 --photo-share 0.5 --epochs 4 --learning-rate 0.02"),
                        help="the fine-tune schedule, passed to wardrobe model train")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=env("LEARNING_OUT", "bench/out/learning"))
    args = parser.parse_args()

    for folder, what in ((args.train, "training"), (args.validation, "validation")):
        if not os.path.isdir(folder):
            sys.exit(f"bench-learning: the {what} photos are not at {folder} (the clothing dataset (small), "
                     "see ../shared/data/clothing-photos/README.md, sits beside the checkout; or set "
                     "LEARNING_TRAIN / LEARNING_VALIDATION)")
    os.makedirs(args.out, exist_ok=True)
    counts = [c if c == "all" else int(c) for c in args.counts.split()]
    print(f"parent {args.parent}; schedule: {args.train_args} --seed {args.seed}")
    print(f"{'labelled photos':>15}  {'validation accuracy':>19}  {'fine-tune s':>11}")
    rows = []
    started = time.monotonic()
    for count in counts:
        if count == 0:
            model, seconds, photos = args.parent, 0.0, 0
        else:
            model = os.path.join(args.out, f"tuned-{count}.aimodel")
            seconds = fine_tune(args, count, model)
            photos = learned_photos(args.wardrobe, model)
        accuracy, validation_photos = evaluate(args, model)
        rows.append({"photos": photos, "requested": count, "accuracy": accuracy, "seconds": seconds, "model": model})
        print(f"{photos:>15}  {accuracy:>19.3f}  {seconds:>11.0f}", flush=True)
    total = time.monotonic() - started
    print(f"{validation_photos} validation photos; whole run {total / 60:.1f} min")
    note = f"from {os.path.basename(args.parent)}; {args.train_args} --seed {args.seed}"
    with open(os.path.join(args.out, "learning-curve.svg"), "w") as f:
        f.write(svg(rows, "Fine-tuning on labelled photos: validation accuracy and time", note))
    with open(os.path.join(args.out, "learning-curve.json"), "w") as f:
        json.dump({"schedule": args.train_args, "seed": args.seed, "parent": args.parent, "rows": rows,
                   "validation_photos": validation_photos, "total_seconds": total}, f, indent=2)
    print(f"wrote {args.out}/learning-curve.svg and learning-curve.json")


if __name__ == "__main__":
    main()
