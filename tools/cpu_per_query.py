#!/usr/bin/env python3
"""The server's CPU per login, per leaderboard page and per profile.

usage: tools/cpu_per_query.py BINARY DIR [--logins N] [--queries N] [--label L]

Starts `BINARY serve` on a fresh copy of DIR/base.sqlite (seeded with `nanashi seed --players
100000 --bots 10000 --accounts DIR/bots10k.txt`), then, one phase after the other:
- a burst of N logins: N connections opened at once, each from an address of its own in
  127.2.0.0/16, each sending `auth` with a bot's token and closing once welcomed;
- N `leaderboard` pages of 20 at random offsets, one at a time on one connection;
- N `profile`s of players seen on those pages, one at a time on one connection.
For each phase it prints the server's user + system CPU (from /proc/PID/stat) divided by the
requests answered, and the round trips' median. The server's idle CPU over as long is printed
too, to show what the sweeps cost meanwhile.
"""
import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import time

HZ = os.sysconf("SC_CLK_TCK")


def ticks(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


async def ask(reader, writer, message):
    writer.write((json.dumps(message, separators=(",", ":")) + "\n").encode())
    await writer.drain()
    return json.loads(await reader.readline())


async def login(port, index, token):
    address = f"127.2.{index // 250}.{index % 250 + 1}"
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    reply = await ask(reader, writer, {"type": "auth", "token": token})
    writer.close()
    await writer.wait_closed()
    return reply.get("type") == "welcome"


async def logins(port, tokens):
    results = await asyncio.gather(*(login(port, i, t) for i, t in enumerate(tokens)), return_exceptions=True)
    return sum(1 for r in results if r is True)


async def queries(port, count, kind, ranked, names, seed):
    rng = random.Random(seed)
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    times, answered = [], 0
    for _ in range(count):
        if kind == "leaderboard":
            message = {"type": "leaderboard", "limit": 20, "offset": rng.randrange(max(ranked - 20, 1))}
        else:
            message = {"type": "profile", "name": rng.choice(names)}
        start = time.perf_counter()
        reply = await ask(reader, writer, message)
        times.append(time.perf_counter() - start)
        if reply.get("type") == kind:
            answered += 1
            if kind == "leaderboard":
                names.extend(entry["name"] for entry in reply["entries"])
    writer.close()
    return answered, sorted(times)[len(times) // 2] * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("dir")
    parser.add_argument("--logins", type=int, default=5000)
    parser.add_argument("--queries", type=int, default=5000)
    parser.add_argument("--label", default="run")
    options = parser.parse_args()
    run = os.path.join(options.dir, "query.sqlite")
    shutil.copy(os.path.join(options.dir, "base.sqlite"), run)
    for suffix in ("-wal", "-shm"):
        if os.path.exists(run + suffix):
            os.remove(run + suffix)
    port = 20000 + random.randrange(20000)
    server = subprocess.Popen(
        [options.binary, "serve", "--port", str(port), "--db", run, "--log-level", "error",
         "--max-connections", "12000", "--message-burst", "100000", "--message-rate", "100000",
         "--read-burst", "100000", "--read-rate", "100000"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        server.stdout.readline()  # listening on ...
        with open(os.path.join(options.dir, "bots10k.txt")) as file:
            tokens = [line.split()[1] for line in file if line.strip()][: options.logins]
        time.sleep(1)
        before = ticks(server.pid)
        time.sleep(3)
        idle = (ticks(server.pid) - before) / HZ / 3
        print(f"{options.label}: idle server {idle * 1e3:.1f} ms of CPU a second")
        before, start = ticks(server.pid), time.perf_counter()
        welcomed = asyncio.run(logins(port, tokens))
        cpu, wall = (ticks(server.pid) - before) / HZ, time.perf_counter() - start
        print(f"{options.label}: logins {welcomed} of {len(tokens)} in {wall:.2f} s, "
              f"server CPU {cpu:.2f} s -> {cpu / max(welcomed, 1) * 1e6:.0f} us per login")
        time.sleep(2)  # the closes settle
        names = []
        for kind in ("leaderboard", "profile"):
            before, start = ticks(server.pid), time.perf_counter()
            answered, median = asyncio.run(queries(port, options.queries, kind, 100000, names, 1))
            cpu, wall = (ticks(server.pid) - before) / HZ, time.perf_counter() - start
            print(f"{options.label}: {kind} {answered} of {options.queries} in {wall:.2f} s (median "
                  f"{median:.2f} ms), server CPU {cpu:.2f} s -> {cpu / max(answered, 1) * 1e6:.0f} us each")
            sys.stdout.flush()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
