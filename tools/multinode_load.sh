#!/usr/bin/env bash
# usage: tools/multinode_load.sh BINARY [NODES]
# A load run over NODES `nanashi serve` nodes (default 3) on one throwaway PostgreSQL cluster,
# or, with NODES=sqlite, over one node on a SQLite file: CLIENTS bots per node (default 2000),
# GAMES games per node (default CLIENTS/2), THINK ms mean think time (default 2000). The bots are
# seeded accounts (`nanashi seed`, copied into PostgreSQL), one `loadtest` per node, all at once,
# each from its own block of source addresses. Prints each loadtest's report, the p99 of the
# seconds when every game was going (from the progress lines), each node's CPU per move and peak
# memory, PostgreSQL's CPU, and the games the database holds as finished. KEEP=FOLDER keeps
# each loadtest's report and progress lines.
# Needs Debian's postgresql; as root, the cluster runs as the postgres user.
set -euo pipefail
bin=$(realpath "$1"); nodes=${2:-3}
clients=${CLIENTS:-2000}; games=${GAMES:-$((clients / 2))}; think=${THINK:-2000}
dir=$(mktemp -d /tmp/nanashi-multi-XXXXXX); chmod 755 "$dir"
ulimit -n ${FILES:-20000}
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
    # KEEP=FOLDER keeps the reports and the progress lines there.
    [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$dir"/report-* "$dir"/progress-* "$KEEP"/ 2>/dev/null || true
    for pid in ${pids:-}; do kill "$pid" 2>/dev/null || true; done
    [ -d "$dir/data" ] && as_pg "$pgbin/pg_ctl" -D "$dir/data" -m immediate -w stop > /dev/null 2>&1 || true
    rm -rf "$dir"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

if [ "$nodes" = sqlite ]; then
    count=1
    "$bin" seed --db "$dir/run.sqlite" --bots "$clients" --accounts "$dir/bots.txt" > /dev/null
    db="$dir/run.sqlite"
else
    count=$nodes
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    pgport=$(free_port)
    as_pg "$pgbin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 --locale=C > /dev/null
    as_pg "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/pg.log" -w -o "-p $pgport -k $dir -c listen_addresses=127.0.0.1 \
        -c max_connections=300 -c shared_buffers=256MB -c synchronous_commit=off" start > /dev/null
    psql() { as_pg "$pgbin/psql" -X -q -h 127.0.0.1 -p "$pgport" -U postgres "$@"; }
    psql -d postgres -c "CREATE DATABASE nanashi"
    db="postgres://postgres@127.0.0.1:$pgport/nanashi"
    "$bin" seed --db "$dir/bots.sqlite" --bots $((clients * count)) --accounts "$dir/bots.txt" > /dev/null
fi

pids=""; ports=""
for i in $(seq "$count"); do
    port=$(free_port)
    "$bin" serve --port "$port" --db "$db" --log-level error --max-connections 20000 \
        --max-per-address 20000 --logins-per-minute 100000 > "$dir/serve-$i.out" 2>&1 &
    pids="$pids $!"; ports="$ports $port"
    for _ in $(seq 300); do grep -q listening "$dir/serve-$i.out" 2>/dev/null && break; sleep 0.1; done
done

if [ "$nodes" != sqlite ]; then
    # The bots' players and tokens, from the seeded SQLite file into PostgreSQL.
    python3 - "$dir/bots.sqlite" > "$dir/bots.sql" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print("BEGIN;")
print("COPY player (id, name, name_key, password_hash, rating, rd, volatility, created_at) FROM STDIN;")
for row in db.execute("SELECT id, name, name_key, password_hash, rating, rd, volatility, created_at FROM player"):
    print("\t".join(str(value) for value in row))
print("\\.")
print("COPY token (digest, player_id, created_at, expires_at) FROM STDIN;")
for digest, player, created, expires in db.execute("SELECT digest, player_id, created_at, expires_at FROM token"):
    print(f"\\\\x{digest.hex()}\t{player}\t{created}\t{expires}")
print("\\.")
print("SELECT setval(pg_get_serial_sequence('player', 'id'), (SELECT MAX(id) FROM player));")
print("COMMIT;")
EOF
    psql -d nanashi -f "$dir/bots.sql" > /dev/null
fi
split -n l/"$count" -d "$dir/bots.txt" "$dir/bots-"

ticks() { awk '{print $14+$15+$16+$17}' "/proc/$1/stat"; }
before=""; for pid in $pids; do before="$before $(ticks "$pid")"; done
if [ "$nodes" != sqlite ]; then
    postmaster=$(head -1 "$dir/data/postmaster.pid")
    pgticks() { echo $(( $(ticks "$postmaster") + $(for c in $(pgrep -P "$postmaster"); do ticks "$c" 2>/dev/null || echo 0; done | paste -sd+ | bc) )); }
    pgbefore=$(pgticks)
fi
start=$(date +%s.%N)
i=0; loads=""
for port in $ports; do
    part=$(printf "%s/bots-%02d" "$dir" "$i")
    "$bin" loadtest --server "127.0.0.1:$port" --clients "$clients" --games "$games" --think "$think" \
        --accounts "$part" --bind-range "127.$((i + 10)).0.0/16" --duration 900 \
        > "$dir/report-$i.txt" 2> "$dir/progress-$i.txt" &
    loads="$loads $!"; i=$((i + 1))
done
for pid in $loads; do wait "$pid" || true; done
end=$(date +%s.%N)
hz=$(getconf CLK_TCK)
echo "== $count node(s) on $([ "$nodes" = sqlite ] && echo SQLite || echo PostgreSQL): $clients clients and $games games per node, think $think ms; wall $(echo "$end - $start" | bc) s"
i=0; total_moves=0; total_ticks=0
for pid in $pids; do
    after=$(ticks "$pid"); b=$(echo $before | cut -d' ' -f$((i + 1)))
    moves=$(grep -oP 'moves \K[0-9]+' "$dir/report-$i.txt" | head -1 || echo 0)
    total_moves=$((total_moves + moves)); total_ticks=$((total_ticks + after - b))
    echo "-- node $((i + 1)): $(grep VmHWM /proc/$pid/status | tr -s ' ')"
    cat "$dir/report-$i.txt"
    python3 - "$dir/progress-$i.txt" "$clients" <<'EOF'
import re, sys, statistics
rows = []
for line in open(sys.argv[1]):
    m = re.search(r"connected (\d+), games (\d+) done (\d+) playing.*p99 ([0-9.]+)", line)
    if m: rows.append((int(m[1]), int(m[2]), int(m[3]), float(m[4])))
# "Once running": the seconds when at least 90 % of the bots were in games.
running = [p99 for connected, done, playing, p99 in rows if playing * 2 >= 0.9 * int(sys.argv[2])]
if running:
    print(f"p99 of the seconds with every game going ({len(running)} s): median {statistics.median(running)} ms, max {max(running)} ms")
EOF
    echo "server CPU $(( (after - b) )) ticks -> $(python3 -c "print(f'{($after - $b) / $hz / max($moves, 1) * 1e6:.1f}')") us/move (this node's own moves counted by its bots)"
    i=$((i + 1))
done
echo "all nodes: CPU $(python3 -c "print(f'{$total_ticks / $hz:.1f} s -> {$total_ticks / $hz / max($total_moves, 1) * 1e6:.1f}')") us/move over $total_moves moves"
if [ "$nodes" != sqlite ]; then
    pgafter=$(pgticks)
    echo "PostgreSQL CPU $(python3 -c "print(f'{($pgafter - $pgbefore) / $hz:.1f}')") s -> $(python3 -c "print(f'{($pgafter - $pgbefore) / $hz / max($total_moves, 1) * 1e6:.1f}')") us/move over $total_moves moves"
    psql -d nanashi -t -A -c "SELECT 'games finished ' || COUNT(*) FILTER (WHERE result IS NOT NULL) || ', unfinished ' || COUNT(*) FILTER (WHERE result IS NULL) FROM game"
fi
