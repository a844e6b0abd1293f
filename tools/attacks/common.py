import os, socket, struct, time, subprocess, json

def rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return -1

def start_server(binary, db, port, http, extra=(), ulimit=None):
    args = [binary, "serve", "--port", str(port), "--http", str(http), "--db", db, "--log-level", "error"] + list(extra)
    if ulimit:
        args = ["/bin/sh", "-c", 'ulimit -n %d && exec "$0" "$@"' % ulimit] + args
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    p.stdout.readline()
    time.sleep(0.3)
    return p

def connect(port, source="127.0.0.1", timeout=5):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s

def exchange(port, line, source="127.0.0.1", timeout=10):
    s = connect(port, source, timeout)
    s.sendall((line + "\n").encode())
    data = b""
    while not data.endswith(b"\n"):
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    return data.decode().strip()

def http_get(port, path, source="127.0.0.1", timeout=5):
    s = connect(port, source, timeout)
    s.sendall(("GET %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n" % path).encode())
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    return data.decode(errors="replace")

def ws_frame(opcode, payload, fin=True):
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    else:
        head += bytes([0x80 | 126]) + struct.pack(">H", n)
    mask = b"\x12\x34\x56\x78"
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class LineClient:
    """A protocol connection from `source`: JSON lines out, JSON lines in."""

    def __init__(self, port, source="127.0.0.1"):
        self.sock = connect(port, source, timeout=30)
        self.buffer = b""

    def send(self, message):
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def read(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise EOFError("closed")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def until(self, *types):
        """The next message of one of `types`, skipping the others."""
        while True:
            message = self.read()
            if message.get("type") in types:
                return message
