# Under `ulimit -n 256`, 2,000 connections (half-sent heads and protocol pings from 40 addresses),
import tempfile
# then the server must still be alive and answer.
import sys, time
from common import *
binary, port, http = sys.argv[1], 17951, 17952
db = os.path.join(tempfile.gettempdir(), "nanashi-attack-fd.sqlite")
for suffix in ("", "-wal", "-shm"):
    try: os.remove(db + suffix)
    except FileNotFoundError: pass
server = start_server(binary, db, port, http, ulimit=int(sys.argv[2]))
assert server.poll() is None, "the server did not start (is the port taken?)"
held, failed = [], 0
for i in range(2000):
    source = "127.0.%d.%d" % (20 + i // 50, 1 + i % 50)
    try:
        if i % 2:
            c = connect(http, source, 2); c.sendall(b"GET / HTTP/1.1\r\nHo")
        else:
            c = connect(port, source, 2); c.sendall(b'{"type":"ping"}\n')
        held.append(c)
    except OSError:
        failed += 1
time.sleep(2)
alive = server.poll() is None
print("ulimit -n %s: 2000 connections tried (%d failed to connect); server alive: %s" % (sys.argv[2], failed, alive))
for c in held: c.close()
closed = time.time()
answer = ""
while time.time() - closed < 30 and answer != '{"type":"pong"}':
    try:
        answer = exchange(port, '{"type":"ping"}', timeout=2)
    except OSError as e:
        answer = "no answer (%s)" % e
        time.sleep(0.5)
print("after: alive %s; ping %s %.1f s after the flood closed" % (server.poll() is None, answer, time.time() - closed))
try:
    print("  /healthz:", http_get(http, "/healthz").split("\r\n")[0])
except OSError as e:
    print("  /healthz: no answer (%s)" % e)
server.terminate(); server.wait()
