"""bench-serve: `wardrobe serve` beside Datasette on the same catalogue file.

Both serve the catalogue read-only; wrk (8 connections, 2 threads) asks each
for a gallery page (48 images), a page 5,000 pages deep, one image's page
and one thumbnail. Prints requests/s and p99 latency per request, the ratio
of ours to Datasette's, and the server's peak RSS; writes them as JSON too.

Usage: serve_bench.py --wardrobe BIN --datasette BIN --db CATALOGUE [--seconds S] [--json OUT]
"""
import argparse
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request

PAGE = 48
DEEP_PAGES = 5000


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=30) as response:
                if response.status == 200:
                    return
        except Exception:
            time.sleep(0.5)
    sys.exit(f"bench-serve: {url} did not answer within {seconds} s")


def wrk(url, seconds, warm_up=False):
    """Requests/s and p99 latency in ms of `wrk -c8` on one URL."""
    out = subprocess.run(["wrk", "-t2", "-c8", f"-d{seconds}s", "--timeout", "30s", "--latency", url],
                         check=True, capture_output=True, text=True).stdout
    if "Non-2xx" in out:
        sys.exit(f"bench-serve: {url} answered errors:\n{out}")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    if rate == 0 and warm_up:
        return 0.0, 0.0
    if rate == 0:
        sys.exit(f"bench-serve: no request to {url} finished in {seconds} s:\n{out}")
    value, unit = re.search(r"\s99%\s+([\d.]+)(us|ms|s)", out).groups()
    p99 = float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    return rate, p99


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wardrobe", required=True)
    parser.add_argument("--datasette", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--json")
    args = parser.parse_args()

    db = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    images, highest = db.execute("SELECT count(*), max(image_id) FROM current_classifications").fetchone()
    middle = highest // 2
    sha = db.execute("SELECT hex(sha256) FROM images WHERE id = ?", (middle,)).fetchone()[0].lower()
    thumb_bytes = db.execute("SELECT length(thumbnail) FROM images WHERE id = ?", (middle,)).fetchone()[0]
    deep_after = highest - PAGE * DEEP_PAGES
    db.close()

    ours = subprocess.Popen([args.wardrobe, "serve", "--db", args.db, "--port", "0", "--read-only"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    base = re.search(r"(http://\S+/)", ours.stdout.readline()).group(1)
    name = os.path.splitext(os.path.basename(args.db))[0]
    peer_port = free_port()
    # Immutable (-i): Datasette's fastest mode for a file nothing writes to.
    peer = subprocess.Popen([args.datasette, "serve", "-i", args.db, "--port", str(peer_port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peer_base = f"http://127.0.0.1:{peer_port}/{name}/"
    cases = [
        ("gallery page", base, peer_base + f"current_classifications?_size={PAGE}"),
        (f"page {DEEP_PAGES}", base + f"?after=0_{deep_after}",
         peer_base + f"current_classifications?_size={PAGE}&_next={deep_after}"),
        ("image page", base + f"image/{middle}", peer_base + f"images/{middle}"),
        ("thumbnail", base + f"thumb/{sha}", peer_base + f"images/{middle}.blob?_blob_column=thumbnail"),
    ]
    results = []
    try:
        for _, url, peer_url in cases:
            wait_for(url)
            wait_for(peer_url)
        for label, url, peer_url in cases:
            wrk(url, 3, warm_up=True)  # warm up both (a slow peer page may not finish in 3 s)
            wrk(peer_url, 3, warm_up=True)
            rate, p99 = wrk(url, args.seconds)
            peer_rate, peer_p99 = wrk(peer_url, args.seconds)
            results.append({"request": label, "wardrobe_rps": rate, "wardrobe_p99_ms": p99,
                            "datasette_rps": peer_rate, "datasette_p99_ms": peer_p99,
                            "ratio": rate / peer_rate})
        rss = peak_rss_mb(ours.pid)
    finally:
        for process in (ours, peer):
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)

    print(f"bench-serve: {images:,} images, thumbnails {thumb_bytes:,} bytes; wrk -t2 -c8 -d{args.seconds}s, "
          f"cores {os.cpu_count()}")
    print(f"{'request':<14}{'wardrobe req/s':>16}{'p99 ms':>9}{'datasette req/s':>17}{'p99 ms':>9}{'ratio':>8}")
    for r in results:
        print(f"{r['request']:<14}{r['wardrobe_rps']:>16,.0f}{r['wardrobe_p99_ms']:>9.1f}"
              f"{r['datasette_rps']:>17,.0f}{r['datasette_p99_ms']:>9.1f}{r['ratio']:>7.1f}x")
    print(f"wardrobe serve peak RSS: {rss:.0f} MB")
    print("targets: ratio >= 2x on each, p99 < 50 ms for each of ours, peak RSS < 200 MB")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"images": images, "thumbnail_bytes": thumb_bytes, "seconds": args.seconds,
                       "results": results, "wardrobe_peak_rss_mb": rss}, out, indent=2)


if __name__ == "__main__":
    main()
