# 300 half-sent request heads from one address, one byte every 2 s; who is still open after 20 s.
import tempfile
import sys, time, socket, select, errno
from common import *
binary, port, http = sys.argv[1], 17921, 17922
db = os.path.join(tempfile.gettempdir(), "nanashi-attack-heads.sqlite")
for suffix in ("", "-wal", "-shm"):
    try: os.remove(db + suffix)
    except FileNotFoundError: pass
server = start_server(binary, db, port, http)
source = "127.0.0.9"
heads = []
for i in range(300):
    try:
        c = connect(http, source)
        c.sendall(b"GET / HTTP/1.1\r\nHo")
        c.setblocking(False)
        heads.append(c)
    except OSError as e:
        print("connect", i, e)
def still_open():
    count = 0
    for c in heads:
        if c.fileno() < 0: continue
        try:
            while True:
                data = c.recv(4096)
                if data == b"":
                    c.close(); break
        except BlockingIOError:
            count += 1
        except OSError:
            c.close()
    return count
time.sleep(1)
print("after 1 s: %d of 300 open" % still_open())
try:
    print("  /healthz from the same address after 1 s:", http_get(http, "/healthz", source).split("\r\n")[0])
except OSError as e:
    print("  /healthz from the same address after 1 s failed:", e)
print("  protocol ping from the same address after 1 s:", exchange(port, '{"type":"ping"}', source))
start = time.time()
while time.time() - start < 19:
    for c in heads:
        if c.fileno() >= 0:
            try: c.send(b"s")
            except OSError: pass
    time.sleep(2)
print("after 20 s: %d of 300 open" % still_open())
print("  /healthz from the same address after 20 s:", http_get(http, "/healthz", source).split("\r\n")[0])
print("  protocol ping from the same address after 20 s:", exchange(port, '{"type":"ping"}', source))
server.terminate(); server.wait()
