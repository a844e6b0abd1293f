"""A watch flood across nodes (issue 54, finding 2), bounded to about a minute: two nodes on a
throwaway PostgreSQL cluster, a game between a player on each, made long (300 plies); then 32
connections from one address on the node that does not host it watch and unwatch it as fast as
they are answered for 30 s, while the two players play on. Prints the host's heartbeat age
(largest seen, sampled every 0.5 s), its memory before and after, the flood's answers by kind,
and the round trip of the players' moves during the flood (p50, p99, max).

usage: python3 tools/attacks/watchflood.py .build/release/nanashi   (needs Debian's postgresql)
       FLOOD=0 python3 tools/attacks/watchflood.py ...   (the same run without the flood)
"""
import glob, json, os, random, shutil, socket, statistics, subprocess, sys, tempfile, threading, time
from common import LineClient, rss_mb

PG = sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1]


def as_pg(*args, **kwargs):
    prefix = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    return subprocess.run(prefix + list(args), check=True, capture_output=True, **kwargs)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def board(fen):
    """The pieces of a FEN by square name: 'x', 'o' or '-'."""
    squares = {}
    for row, text in enumerate(fen.split()[0].split("/")):
        column = 0
        for char in text:
            if char.isdigit():
                column += int(char)
            else:
                squares["abcdefg"[column] + str(7 - row)] = char
                column += 1
    return squares


def choose(legal, fen, rng):
    """A move that lands next to no enemy (so nothing is taken and the game grows long): a jump
    while the plies without a clone allow, then a clone."""
    pieces, side = board(fen), fen.split()[1]
    enemy = "o" if side == "x" else "x"

    def quiet(move):
        to = move[-2:]
        file, rank = "abcdefg".index(to[0]), int(to[1])
        return all(
            pieces.get("abcdefg"[f] + str(r)) != enemy
            for f in range(max(0, file - 1), min(6, file + 1) + 1)
            for r in range(max(1, rank - 1), min(7, rank + 1) + 1))

    moves = [m for m in legal if m != "0000"]
    clones = [m for m in moves if len(m) == 2]
    jumps = [m for m in moves if len(m) == 4]
    wanted = jumps if int(fen.split()[2]) < 90 and jumps else clones or jumps
    calm = [m for m in wanted if quiet(m)]
    return rng.choice(calm or wanted or legal)


def main():
    binary = os.path.realpath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="nanashi-watchflood-")
    os.chmod(work, 0o755)
    if os.getuid() == 0:
        shutil.chown(work, "postgres")
    pgport = free_port()
    as_pg(f"{PG}/initdb", "-D", f"{work}/data", "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8",
          "--locale=C")
    as_pg(f"{PG}/pg_ctl", "-D", f"{work}/data", "-l", f"{work}/pg.log", "-w", "-o",
          f"-p {pgport} -k {work} -c listen_addresses=127.0.0.1 -c max_connections=200", "start")
    nodes = []
    try:
        as_pg(f"{PG}/psql", "-X", "-q", "-h", "127.0.0.1", "-p", str(pgport), "-U", "postgres", "-d", "postgres",
              "-c", "CREATE DATABASE nanashi")
        url = f"postgres://postgres@127.0.0.1:{pgport}/nanashi"

        def sql(query):
            return as_pg(f"{PG}/psql", "-X", "-q", "-t", "-A", "-h", "127.0.0.1", "-p", str(pgport), "-U",
                         "postgres", "-d", "nanashi", "-c", query).stdout.decode().strip()

        ports = []
        for i in range(2):
            port = free_port()
            out = open(f"{work}/serve-{i}.out", "w")
            process = subprocess.Popen(
                [binary, "serve", "--port", str(port), "--db", url, "--log-level", "error"], stdout=out,
                stderr=subprocess.STDOUT)
            for _ in range(300):
                if "listening" in open(f"{work}/serve-{i}.out").read():
                    break
                time.sleep(0.1)
            nodes.append(process)
            ports.append(port)
        players = []
        for name, port in (("ann", ports[0]), ("bob", ports[1])):
            client = LineClient(port)
            client.send({"type": "register", "name": name, "password": "password1"})
            assert client.until("welcome", "error")["type"] == "welcome"
            players.append(client)
        for client in players:
            client.send({"type": "seek", "initial": 3600, "increment": 0})
        starts = [client.until("start") for client in players]
        game = starts[0]["game"]
        host_node = int(sql(f"SELECT host FROM game WHERE id = {game}"))
        node_ids = [int(n) for n in sql("SELECT id FROM node ORDER BY id").split()]
        host = node_ids.index(host_node)
        print("game %d hosted by node %d of 2" % (game, host + 1))

        # Both players play on: each move's round trip, from sending it to its `moved`.
        rng, trips, during = random.Random(7), [], [False]
        turn = {"x": players[0] if starts[0]["color"] == "x" else players[1]}
        turn["o"] = players[1] if turn["x"] is players[0] else players[0]
        state = {"fen": starts[0]["fen"], "legal": starts[0].get("legal") or starts[1].get("legal"), "plies": 0}

        def play(plies):
            for _ in range(plies):
                # Each player keeps under the 20 messages a second a connection may send.
                time.sleep(0.05)
                side = state["fen"].split()[1]
                mover, other = turn[side], turn["o" if side == "x" else "x"]
                sent = time.monotonic()
                mover.send({"type": "move", "game": game, "move": choose(state["legal"], state["fen"], rng)})
                moved = mover.until("moved", "end", "error")
                if moved["type"] == "error":
                    raise SystemExit("move %d refused: %s (%s)" % (state["plies"] + 1, moved, state["fen"]))
                if during[0]:
                    trips.append(time.monotonic() - sent)
                seen = other.until("moved", "end")
                if moved["type"] == "end" or seen["type"] == "end":
                    return False
                state["fen"], state["legal"] = seen["fen"], seen.get("legal")
                state["plies"] += 1
                if not state["legal"]:
                    return False
            return True

        if not play(300):
            raise SystemExit("the game ended after %d plies, before the flood" % state["plies"])
        print("game at %d plies before the flood" % state["plies"])
        watched = LineClient(ports[1 - host])
        watched.send({"type": "watch", "game": game})
        line_bytes = len(json.dumps(watched.until("game", "error")))
        print("its watching line: about %d bytes" % line_bytes)

        # The flood: 32 connections from one address on the other node.
        answers, stop = {}, [False]

        def flood():
            try:
                client = LineClient(ports[1 - host], "127.0.0.5")
                while not stop[0]:
                    client.send({"type": "watch", "game": game})
                    reply = client.until("game", "error")
                    kind = reply["type"] if reply["type"] == "game" else reply["code"]
                    answers[kind] = answers.get(kind, 0) + 1
                    client.send({"type": "unwatch", "game": game})
            except (EOFError, OSError):
                answers["closed"] = answers.get("closed", 0) + 1

        host_pid = nodes[host].pid
        rss_before = rss_mb(host_pid)
        oldest = [0.0]

        def sample():
            while not stop[0]:
                age = float(sql(f"SELECT extract(epoch FROM now()) - seen_at FROM node WHERE id = {host_node}"))
                oldest[0] = max(oldest[0], age)
                time.sleep(0.5)

        # FLOOD=0 gives the same run without the flood, to compare.
        threads = [threading.Thread(target=flood, daemon=True) for _ in range(int(os.environ.get("FLOOD", 32)))]
        threads.append(threading.Thread(target=sample, daemon=True))
        during[0] = True
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and play(2):
            pass
        stop[0] = True
        time.sleep(1)
        rss_after = rss_mb(host_pid)
        trips.sort()
        print("flood answers: %s" % answers)
        print("host heartbeat age, largest seen: %.2f s" % oldest[0])
        print("host memory: %.0f MB before, %.0f MB after" % (rss_before, rss_after))
        if trips:
            print("moves during the flood: %d, round trip p50 %.1f ms, p99 %.1f ms, max %.1f ms" % (
                len(trips), 1000 * trips[len(trips) // 2], 1000 * trips[int(len(trips) * 0.99)],
                1000 * trips[-1]))
    finally:
        for process in nodes:
            process.terminate()
        for process in nodes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
        as_pg(f"{PG}/pg_ctl", "-D", f"{work}/data", "-m", "immediate", "-w", "stop")
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
