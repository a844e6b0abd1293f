"""One address tries to monopolise the server's engine (issue 54, finding 3), bounded to about a
minute: 20 accounts on 127.0.0.2 each seek a game against the strongest level, one more account
there seeks and resigns 100 times, and meanwhile an honest player on 127.0.0.3 plays level 8.
Prints what the attacker got (games started, refusals by code), the honest player's engine
replies (median and max), and the server's CPU over the 100 seek-and-resign cycles.

usage: python3 tools/attacks/enginemonopoly.py .build/release/nanashi
"""
import json, os, random, socket, statistics, sys, tempfile, threading, time
from common import LineClient, start_server

HZ = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / HZ


def register(port, source, name):
    client = LineClient(port, source)
    client.send({"type": "register", "name": name, "password": "password1"})
    reply = client.until("welcome", "error")
    assert reply["type"] == "welcome", reply
    return client


def keep_playing(client, start):
    """Answers each of the engine's moves at once, game after game, to keep it searching."""
    rng = random.Random(start["game"])
    try:
        game = start["game"]
        while True:
            message = client.until("moved", "end", "error")
            if message["type"] == "end":
                client.send({"type": "seek", "ai": 24, "color": "o", "initial": 600, "increment": 5})
                game = client.until("start", "error").get("game", game)
            elif message["type"] == "moved" and message.get("legal"):
                legal = message["legal"]
                clones = [move for move in legal if len(move) == 2]
                client.send({"type": "move", "game": game, "move": rng.choice(clones or legal)})
    except (EOFError, OSError):
        pass


def main():
    binary = sys.argv[1]
    db = os.path.join(tempfile.mkdtemp(), "engine.sqlite")
    port, http = random.randint(20000, 40000), random.randint(40001, 60000)
    # The attacker's accounts were registered over days: the hourly registration limit is raised.
    server = start_server(binary, db, port, http, extra=["--registrations-per-hour", "1000"])
    try:
        # The attacker's 20 accounts, one address, the strongest level.
        started, refused = 0, {}
        attackers = []
        for n in range(20):
            client = register(port, "127.0.0.2", "hog%d" % n)
            client.send({"type": "seek", "ai": 24, "color": "o", "initial": 600, "increment": 5})
            reply = client.until("start", "error")
            if reply["type"] == "start":
                started += 1
                threading.Thread(target=keep_playing, args=(client, reply), daemon=True).start()
            else:
                refused[reply["code"]] = refused.get(reply["code"], 0) + 1
            attackers.append(client)
        print("attacker: %d engine games started of 20, refused: %s" % (started, refused))
        time.sleep(2)

        # An honest player on another address plays level 8 meanwhile.
        honest = register(port, "127.0.0.3", "honest")
        rng, replies = random.Random(1), []
        while len(replies) < 20:
            honest.send({"type": "seek", "ai": 8, "color": "x", "initial": 600, "increment": 5})
            start = honest.until("start", "error")
            assert start["type"] == "start", start
            game, legal, over = start["game"], start["legal"], False
            while legal and len(replies) < 20:
                # Clones first: a random player that jumps loses within a few moves.
                clones = [move for move in legal if len(move) == 2]
                sent = time.monotonic()
                honest.send({"type": "move", "game": game, "move": rng.choice(clones or legal)})
                legal = None
                while legal is None:
                    message = honest.until("moved", "end", "error")
                    over = message["type"] == "end"
                    if message["type"] != "moved":
                        break
                    if "legal" in message and message["ply"] % 2 == 0:
                        replies.append(time.monotonic() - sent)
                        legal = message["legal"]
            if not over:
                # Resigned, unless it ended meanwhile (then the resignation is refused).
                honest.send({"type": "resign", "game": game})
                if honest.until("end", "error")["type"] == "error":
                    honest.until("end")
        print(
            "honest level-8 replies: %d, median %.3f s, max %.3f s"
            % (len(replies), statistics.median(replies), max(replies)))

        # 100 seek-and-resign cycles from an account on an address of its own (on the
        # attacker's, the address's two games refuse it at once).
        looper = register(port, "127.0.0.4", "looper")
        before, cycles, codes = cpu_seconds(server.pid), 0, {}
        for _ in range(100):
            looper.send({"type": "seek", "ai": 24, "color": "o", "initial": 600, "increment": 5})
            try:
                reply = looper.until("start", "error")
            except EOFError:
                codes["connection closed"] = 1
                break
            if reply["type"] == "error":
                codes[reply["code"]] = codes.get(reply["code"], 0) + 1
                continue
            cycles += 1
            looper.send({"type": "resign", "game": reply["game"]})
            looper.until("end")
        after = cpu_seconds(server.pid)
        print(
            "seek-and-resign: %d of 100 started (refused: %s); server CPU over the cycles %.2f s"
            % (cycles, codes, after - before))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
