#!/usr/bin/env python3
"""Times the web pages of a running `nanashi serve --http` at a steady pace, for their p50/p99.

Each of --connections keep-alive connections asks for one page every --interval seconds, in
turn: /, a player's page, a finished game, /play, /healthz (/metrics has its own port now). Run it while `nanashi loadtest`
plays against the same server to see what the pages cost a busy server.

    python3 tools/page_latency.py --port 8080 --player NAME --game G [--seconds 60]
"""
import argparse
import http.client
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--player", required=True)
    parser.add_argument("--game", type=int, required=True)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--interval", type=float, default=0.1)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    pages = ["/", "/player/%s" % args.player, "/game/%d" % args.game, "/play", "/healthz"]
    times = {page: [] for page in pages}
    failures = []
    lock = threading.Lock()
    stop = time.monotonic() + args.seconds

    def run(offset):
        connection = http.client.HTTPConnection(args.host, args.port, timeout=30)
        n = offset
        next_at = time.monotonic()
        while time.monotonic() < stop:
            page = pages[n % len(pages)]
            n += 1
            start = time.perf_counter()
            try:
                connection.request("GET", page)
                response = connection.getresponse()
                response.read()
                status = response.status
            except Exception as error:
                status = str(error)
                connection = http.client.HTTPConnection(args.host, args.port, timeout=30)
            elapsed = (time.perf_counter() - start) * 1000
            with lock:
                if status == 200:
                    times[page].append(elapsed)
                else:
                    failures.append((page, status))
            next_at += args.interval
            time.sleep(max(0, next_at - time.monotonic()))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(args.connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    def pct(values, p):
        values = sorted(values)
        return values[min(len(values) - 1, int(len(values) * p))] if values else float("nan")

    everything = [t for page in pages for t in times[page]]
    for page in pages:
        print("%-24s n %5d  p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms" % (
            page, len(times[page]), pct(times[page], 0.5), pct(times[page], 0.99), max(times[page] or [0])))
    print("%-24s n %5d  p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms" % (
        "all", len(everything), pct(everything, 0.5), pct(everything, 0.99), max(everything or [0])))
    print("failures %d %s" % (len(failures), failures[:5]))


if __name__ == "__main__":
    main()
