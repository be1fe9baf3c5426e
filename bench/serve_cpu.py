"""CPU time `wardrobe serve` spends per request on one page.

Starts `wardrobe serve --read-only` on a catalogue, asks for PATH once
(the first answer may fill caches), then REQUESTS more times over one
keep-alive connection, and reads the server's user+system CPU time from
/proc before and after each part. CPU time, not wall time: other work on
the machine changes it little.

Usage: serve_cpu.py --wardrobe BIN --db CATALOGUE [--path /stats] [--requests 20]
"""
import argparse
import http.client
import os
import re
import signal
import subprocess
import sys


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wardrobe", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--path", default="/stats")
    parser.add_argument("--requests", type=int, default=20)
    args = parser.parse_args()

    server = subprocess.Popen([args.wardrobe, "serve", "--db", args.db, "--port", "0", "--read-only"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", server.stdout.readline()).group(1))
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)

        def get():
            connection.request("GET", args.path)
            response = connection.getresponse()
            body = response.read()
            if response.status != 200:
                sys.exit(f"serve_cpu: {args.path} answered {response.status}")
            return len(body)

        started = cpu_seconds(server.pid)
        size = get()
        first = cpu_seconds(server.pid) - started
        started = cpu_seconds(server.pid)
        for _ in range(args.requests):
            get()
        rest = (cpu_seconds(server.pid) - started) / args.requests
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    print(f"{args.path}: {size:,} bytes; server CPU for the first request {first * 1000:.0f} ms, "
          f"then {rest * 1000:.1f} ms per request over {args.requests} more (one connection, "
          f"clock tick {1000 / os.sysconf('SC_CLK_TCK'):.0f} ms)")


if __name__ == "__main__":
    main()
