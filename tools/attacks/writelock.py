# Another process holds the database's write lock for 12 s: registrations wait, profile reads do not.
import tempfile
import sys, time, socket, threading, json, sqlite3
from common import *
binary, port, http = sys.argv[1], 17941, 17942
db = os.path.join(tempfile.gettempdir(), "nanashi-attack-lock.sqlite")
for suffix in ("", "-wal", "-shm"):
    try: os.remove(db + suffix)
    except FileNotFoundError: pass
server = start_server(binary, db, port, http)
exchange(port, '{"type":"register","name":"ann","password":"password1"}', "127.0.0.2", 30)
held = threading.Event()
def hold():
    conn = sqlite3.connect(db, timeout=30, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    held.set()
    time.sleep(12)
    conn.execute("COMMIT")
    conn.close()
holder = threading.Thread(target=hold); holder.start()
held.wait()
lock_start = time.time()
replies = {}
def register(i):
    t0 = time.time()
    try:
        r = exchange(port, '{"type":"register","name":"late%d","password":"password1"}' % i, "127.0.1.%d" % (i + 1), 60)
    except OSError as e:
        r = "failed: %s" % e
    replies[i] = (time.time() - t0, r[:70])
writers = [threading.Thread(target=register, args=(i,)) for i in range(6)]
for w in writers: w.start()
time.sleep(0.5)
reads = []
while time.time() - lock_start < 11:
    t0 = time.time()
    r = exchange(port, '{"type":"profile","name":"ann"}')
    reads.append((time.time() - t0, '"type":"profile"' in r))
    time.sleep(1)
holder.join()
for w in writers: w.join()
print("profile reads while the lock was held: %d, all answered: %s, max %.1f ms, median %.1f ms" % (
    len(reads), all(ok for _, ok in reads), 1000 * max(t for t, _ in reads), 1000 * sorted(t for t, _ in reads)[len(reads) // 2]))
stored = {row[0] for row in sqlite3.connect(db).execute("SELECT name FROM player")}
for i in sorted(replies):
    t, r = replies[i]
    welcomed = '"welcome"' in r
    print("  register late%d: %.1f s %s; stored: %s" % (i, t, r, ("late%d" % i) in stored))
lost = [i for i in replies if '"welcome"' in replies[i][1] and ("late%d" % i) not in stored]
print("acknowledged and lost:", lost)
server.terminate(); server.wait()
