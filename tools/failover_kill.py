#!/usr/bin/env python3
"""Kills a `nanashi serve` node with SIGKILL in the middle of games and times the failover.

Starts a throwaway PostgreSQL cluster (initdb + pg_ctl, loopback only, a free port), two
`nanashi serve` nodes A and B on it, and GAMES games, each between a player on A and one on B,
driven over raw protocol connections. After PLIES plies in each game, A is killed with SIGKILL.
Its players connect to B and `auth` with their tokens; once A's lease is over, B takes A's games
over, and every player gets `game` again. Then each game is played on for two plies and
resigned. Prints a timeline (seconds after the kill) and checks that every game ended once and
was rated once.

    tools/failover_kill.py [--nanashi .build/release/nanashi] [--games 10] [--lease 5]

Needs Debian's postgresql (initdb, pg_ctl, psql under /usr/lib/postgresql/N/bin). As root, the
cluster runs as the postgres user.
"""

import argparse
import glob
import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A throwaway PostgreSQL cluster with trust login on loopback."""

    def __init__(self):
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]))
        if not bins:
            sys.exit("initdb and pg_ctl not found: install Debian's postgresql")
        self.bin = bins[-1]
        self.folder = tempfile.mkdtemp(prefix="nanashi-failover-")
        self.port = free_port()
        self.as_postgres = os.getuid() == 0
        if self.as_postgres:
            shutil.chown(self.folder, "postgres", "postgres")
        self.run("initdb", "-D", self.folder + "/data", "-U", "postgres", "--auth=trust", "--no-sync",
                 "-E", "UTF8", "--locale=C")
        self.run("pg_ctl", "-D", self.folder + "/data", "-l", self.folder + "/log", "-w", "-o",
                 f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                 "-c synchronous_commit=off -c max_connections=200", "start")
        self.psql("postgres", "CREATE DATABASE nanashi")
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/nanashi"

    def run(self, tool, *arguments):
        command = [self.bin + "/" + tool, *arguments]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--"] + command
        return subprocess.run(command, check=True, capture_output=True, text=True).stdout

    def psql(self, database, sql):
        return self.run("psql", "-X", "-q", "-t", "-A", "-h", "127.0.0.1", "-p", str(self.port), "-U",
                        "postgres", "-d", database, "-c", sql)

    def remove(self):
        try:
            self.run("pg_ctl", "-D", self.folder + "/data", "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


class Client:
    """One protocol connection; a thread reads its lines, each with the time it arrived."""

    def __init__(self, port):
        self.socket = socket.create_connection(("127.0.0.1", port))
        self.lines = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        buffer = b""
        try:
            while True:
                chunk = self.socket.recv(65536)
                if not chunk:
                    break
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    self.lines.put((time.monotonic(), json.loads(line)))
        except OSError:
            pass
        self.lines.put((time.monotonic(), None))

    def send(self, message):
        self.socket.sendall((json.dumps(message) + "\n").encode())

    def next(self, timeout=60):
        return self.lines.get(timeout=timeout)

    def until(self, kind, timeout=60):
        """The next message of `kind` and when it came, passing over others."""
        while True:
            at, message = self.next(timeout)
            if message is None:
                raise RuntimeError(f"closed while waiting for {kind}")
            if message.get("type") == "error":
                raise RuntimeError(f"error while waiting for {kind}: {message}")
            if message.get("type") == kind:
                return at, message


def start_node(nanashi, url, lease, log):
    port = free_port()
    process = subprocess.Popen(
        [nanashi, "serve", "--port", str(port), "--db", url, "--node-lease", str(lease),
         "--logins-per-minute", "10000", "--registrations-per-hour", "10000", "--log-level", "warning"],
        stdout=log, stderr=log)
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port)).close()
            return process, port
        except OSError:
            time.sleep(0.05)
    sys.exit("a node did not start")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nanashi", default=".build/debug/nanashi")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--plies", type=int, default=6)
    parser.add_argument("--lease", type=int, default=5, help="--node-lease of both nodes, in seconds")
    options = parser.parse_args()

    cluster = Cluster()
    log = open(cluster.folder + "/nodes.log", "w")
    nodes = []
    try:
        for _ in range(2):
            nodes.append(start_node(options.nanashi, cluster.url, options.lease, log))
        (a, a_port), (b, b_port) = nodes
        games = []
        for index in range(options.games):
            players = {}
            for name, port in ((f"ann{index}", a_port), (f"bob{index}", b_port)):
                client = Client(port)
                client.send({"type": "register", "name": name, "password": "password1"})
                _, welcome = client.until("welcome")
                players[name] = {"client": client, "token": welcome["token"], "node": "A" if port == a_port else "B"}
            # The node of the second seeker pairs them and hosts the game: half on each.
            order = list(players.values())
            for player in order if index % 2 else reversed(order):
                player["client"].send({"type": "seek", "initial": 300, "increment": 3})
                player["client"].until("seeking")
            game = {"players": {}}
            for player in players.values():
                _, start = player["client"].until("start")
                game["id"] = start["game"]
                game["players"][start["color"]] = player
                if start.get("legal"):
                    game["legal"] = start["legal"]
            game["to_move"] = "x"
            games.append(game)

        def play(game):
            mover = game["players"][game["to_move"]]
            opponent = game["players"]["o" if game["to_move"] == "x" else "x"]
            mover["client"].send({"type": "move", "game": game["id"], "move": game["legal"][0]})
            mover["client"].until("moved")
            _, moved = opponent["client"].until("moved")
            game["legal"] = moved["legal"]
            game["to_move"] = "o" if game["to_move"] == "x" else "x"

        for game in games:
            for _ in range(options.plies):
                play(game)
        hosts = dict(line.split("|") for line in cluster.psql("nanashi", "SELECT id, host FROM game").split())
        # The nodes are numbered in the order they started: A is 1.
        on_a = [game for game in games if hosts[str(game["id"])] == "1"]
        print(f"{len(games)} games of {options.plies} plies; {len(on_a)} hosted by A, "
              f"{len(games) - len(on_a)} by B; lease {options.lease} s")

        killed = time.monotonic()
        a.send_signal(signal.SIGKILL)
        a.wait()
        print(f"  0.000 s  A killed (SIGKILL)")
        moved_players = []
        for game in games:
            for side, player in game["players"].items():
                if player["node"] == "A":
                    player["client"] = Client(b_port)
                    player["client"].send({"type": "auth", "token": player["token"]})
                    player["client"].until("welcome")
                    moved_players.append((game, side, player))
        print(f"{time.monotonic() - killed:7.3f} s  A's {len(moved_players)} players logged in on B")
        back = []
        for game in games:
            for side, player in game["players"].items():
                # B's players of B's games never left it, and get nothing new.
                if player["node"] == "B" and game not in on_a:
                    continue
                at, state = player["client"].until("game")
                back.append(at - killed)
                if state.get("legal"):
                    game["legal"] = state["legal"]
                game["to_move"] = "x" if len(state["moves"]) % 2 == 0 else "o"
        back.sort()
        print(f"{back[0]:7.3f} s  first player has the game again")
        print(f"{back[len(back) // 2]:7.3f} s  median player has it (players waited {back[0]:.1f} to {back[-1]:.1f} s)")
        print(f"{back[-1]:7.3f} s  every player of every game has it")
        for game in games:
            for _ in range(2):
                play(game)
            resigner = game["players"][game["to_move"]]
            resigner["client"].send({"type": "resign", "game": game["id"]})
            for player in game["players"].values():
                player["client"].until("end")
        print(f"{time.monotonic() - killed:7.3f} s  every game played 2 more plies and ended")
        ended = cluster.psql("nanashi", "SELECT COUNT(*) FROM game WHERE result IS NOT NULL").strip()
        rated = cluster.psql("nanashi", "SELECT COUNT(*) FROM rating_change").strip()
        print(f"games ended: {ended} of {len(games)}; rating changes: {rated} (2 per game: {2 * len(games)})")
        if int(ended) != len(games) or int(rated) != 2 * len(games):
            sys.exit("FAILED: a game did not end once or was not rated once")
    finally:
        for process, _ in nodes:
            if process.poll() is None:
                process.terminate()
                process.wait()
        print(open(cluster.folder + "/nodes.log").read()[-2000:], file=sys.stderr)
        cluster.remove()


if __name__ == "__main__":
    main()
