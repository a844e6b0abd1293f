"""A flood of stored analyses (issue 54, finding 4), bounded to about a minute: one node on
SQLite, a finished game of 300 plies analysed once; then 48 connections from one address ask for
its (stored) analysis as fast as they are answered for 10 s, while two players on another
address play on. Prints the flood's answers by kind, the server's CPU during the flood, and the
round trip of the players' moves during it (p50, p99, max).

usage: python3 tools/attacks/analysisflood.py .build/release/nanashi
       FLOOD=0 python3 tools/attacks/analysisflood.py ...   (the same run without the flood)
"""
import os, random, sys, tempfile, threading, time
from common import LineClient, start_server
from enginemonopoly import cpu_seconds
from watchflood import choose


def register(port, source, name):
    client = LineClient(port, source)
    client.send({"type": "register", "name": name, "password": "password1"})
    assert client.until("welcome", "error")["type"] == "welcome"
    return client


def pair(port, source, names):
    """Two players of `source` in a game: their clients by side, and the start."""
    players = [register(port, source, name) for name in names]
    for client in players:
        client.send({"type": "seek", "initial": 3600, "increment": 0})
    starts = [client.until("start") for client in players]
    x = 0 if starts[0]["color"] == "x" else 1
    return {"x": players[x], "o": players[1 - x]}, starts[x]


def play(sides, start, plies, rng, trips=None):
    """Plays up to `plies` quiet moves; returns the plies played (fewer when the game ended)."""
    game, fen, legal = start["game"], start["fen"], start.get("legal")
    for ply in range(plies):
        # Each player keeps under the 20 messages a second a connection may send.
        time.sleep(0.05)
        side = fen.split()[1]
        mover, other = sides[side], sides["o" if side == "x" else "x"]
        sent = time.monotonic()
        mover.send({"type": "move", "game": game, "move": choose(legal, fen, rng)})
        moved = mover.until("moved", "end", "error")
        if moved["type"] == "error":
            raise SystemExit("move refused: %s (%s)" % (moved, fen))
        if trips is not None:
            trips.append(time.monotonic() - sent)
        seen = other.until("moved", "end")
        if moved["type"] == "end" or seen["type"] == "end" or not seen.get("legal"):
            return ply + 1
        fen, legal = seen["fen"], seen["legal"]
        start["fen"], start["legal"] = fen, legal
    return plies


def main():
    binary = os.path.realpath(sys.argv[1])
    db = os.path.join(tempfile.mkdtemp(prefix="nanashi-analysisflood-"), "flood.sqlite")
    port, http = random.randint(20000, 40000), random.randint(40001, 60000)
    server = start_server(binary, db, port, http)
    try:
        rng = random.Random(11)
        sides, start = pair(port, "127.0.0.1", ["ann", "bob"])
        plies = play(sides, start, 300, rng)
        sides["x"].send({"type": "resign", "game": start["game"]})
        sides["x"].until("end")
        game = start["game"]
        asked = time.monotonic()
        sides["x"].send({"type": "analyse", "game": game})
        analysis = sides["x"].until("analysis", "error")
        assert analysis["type"] == "analysis", analysis
        print("game %d: %d plies, analysed at depth %d in %.1f s" % (
            game, plies, analysis["depth"], time.monotonic() - asked))

        answers, stop = {}, [False]

        def flood():
            try:
                client = LineClient(port, "127.0.0.2")
                while not stop[0]:
                    client.send({"type": "analyse", "game": game})
                    reply = client.until("analysis", "error")
                    kind = reply["type"] if reply["type"] == "analysis" else reply["code"]
                    answers[kind] = answers.get(kind, 0) + 1
            except (EOFError, OSError):
                answers["closed"] = answers.get("closed", 0) + 1

        players, trips = pair(port, "127.0.0.3", ["carol", "dave"]), []
        cpu_before = cpu_seconds(server.pid)
        threads = [threading.Thread(target=flood, daemon=True) for _ in range(int(os.environ.get("FLOOD", 48)))]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and play(*players, 2, rng, trips) == 2:
            pass
        stop[0] = True
        cpu = cpu_seconds(server.pid) - cpu_before
        trips.sort()
        print("flood answers in 10 s: %s" % answers)
        print("server CPU during the flood: %.2f s" % cpu)
        if trips:
            print("moves during the flood: %d, round trip p50 %.1f ms, p99 %.1f ms, max %.1f ms" % (
                len(trips), 1000 * trips[len(trips) // 2], 1000 * trips[int(len(trips) * 0.99)],
                1000 * trips[-1]))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
