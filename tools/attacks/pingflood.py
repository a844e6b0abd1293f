# One WebSocket sends up to 300 MB of 125-byte pings and reads nothing; the server's RSS is sampled.
import tempfile
import sys, time, socket, select
from common import *
binary, port, http = sys.argv[1], 17911, 17912
db = os.path.join(tempfile.gettempdir(), "nanashi-attack-ping.sqlite")
for suffix in ("", "-wal", "-shm"):
    try: os.remove(db + suffix)
    except FileNotFoundError: pass
server = start_server(binary, db, port, http)
pid = server.pid
before = rss_mb(pid)
s = connect(http, timeout=60)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.sendall(b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
head = b""
while b"\r\n\r\n" not in head:
    head += s.recv(1)
chunk = ws_frame(9, b"a" * 125) * 2000   # 262 KB
s.setblocking(False)
sent, peak, start = 0, before, time.time()
stalled_since = None
while sent < 300 * 1024 * 1024 and time.time() - start < 60:
    _, writable, _ = select.select([], [s], [], 0.2)
    if writable:
        try:
            sent += s.send(chunk)
            stalled_since = None
        except BlockingIOError:
            pass
    else:
        stalled_since = stalled_since or time.time()
        if time.time() - stalled_since > 10:
            break
    peak = max(peak, rss_mb(pid))
for _ in range(10):
    peak = max(peak, rss_mb(pid)); time.sleep(0.2)
during = rss_mb(pid)
s.close()
time.sleep(5)
after = rss_mb(pid)
pong = exchange(port, '{"type":"ping"}')
print("sent %.1f MB of pings in %.1f s; server RSS before %.1f MB, peak %.1f MB (growth %.1f MB), after close %.1f MB (%.1f MB above before); ping after: %s"
      % (sent / 1e6, time.time() - start, before, peak, peak - before, after, after - before, pong))
server.terminate(); server.wait()
