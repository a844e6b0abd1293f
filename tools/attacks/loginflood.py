# 100 addresses flood `login` (unknown names and a known name with a wrong password) for 30 s;
import tempfile
# a real player logs in 10 times, each from a fresh address, retrying `busy`.
import sys, time, socket, threading, json, struct
from common import *
binary, port, http = sys.argv[1], 17931, 17932
db = os.path.join(tempfile.gettempdir(), "nanashi-attack-flood.sqlite")
for suffix in ("", "-wal", "-shm"):
    try: os.remove(db + suffix)
    except FileNotFoundError: pass
server = start_server(binary, db, port, http)
token = json.loads(exchange(port, '{"type":"register","name":"ann","password":"password1"}', "127.0.0.2", 30))["token"]
exchange(port, '{"type":"register","name":"bob","password":"password1"}', "127.0.0.2", 30)
stop = time.time() + 30
sent = [0]
def flood(k):
    n = 0
    while time.time() < stop:
        source = "127.0.7.%d" % (1 + (n * 8 + k) % 100)
        try:
            s = connect(port, source, 2)
            name = "bob" if n % 3 == 0 else "nobody%d_%d" % (k, n)
            s.sendall(('{"type":"login","name":"%s","password":"wrong-password"}\n' % name).encode())
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()
            sent[0] += 1
        except OSError:
            pass
        n += 1
threads = [threading.Thread(target=flood, args=(k,)) for k in range(8)]
for t in threads: t.start()
time.sleep(3)
results = []
for attempt in range(10):
    started = time.time()
    s = connect(port, "127.0.8.%d" % (1 + attempt), 10)
    reply, busy = "", 0
    while "welcome" not in reply and time.time() - started < 3:
        s.sendall(b'{"type":"login","name":"ann","password":"password1"}\n')
        reply = s.recv(4096).decode()
        if "welcome" not in reply:
            busy += 1
            time.sleep(0.1)
    elapsed = time.time() - started
    t0 = time.time()
    auth = exchange(port, '{"type":"auth","token":"%s"}' % token, "127.0.9.%d" % (1 + attempt))
    results.append((elapsed, "welcome" in reply, busy, reply.strip()[:60], time.time() - t0, "welcome" in auth))
    s.close()
    time.sleep(1.5)
for t in threads: t.join()
ok = sum(1 for r in results if r[1] and r[0] <= 3)
print("flood: %d login connections from 100 addresses in 30 s" % sent[0])
for r in results:
    print("  login %.2f s welcome=%s (refusals before: %d; last: %s); auth %.3f s welcome=%s" % r)
print("real logins welcomed within 3 s: %d of 10; median %.2f s, max %.2f s" % (ok, sorted(r[0] for r in results)[5], max(r[0] for r in results)))
server.terminate(); server.wait()
