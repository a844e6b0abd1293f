#!/usr/bin/env bash
# usage: tools/multinode_load.sh BINARY [NODES]
# A load run over NODES `nanashi serve` nodes on one throwaway PostgreSQL cluster, or, with
# NODES=sqlite, over one node on a SQLite file; without NODES, both, one after the other: 3 nodes,
# then the SQLite node. CLIENTS bots in all (default 6000), GAMES games (default CLIENTS/2), THINK
# ms mean think time (default 2000), RAMP seconds over which the bots first connect (default 0:
# all at once). The bots are seeded accounts (`nanashi seed`, copied into PostgreSQL), all in one
# `loadtest --server a,b,c` from one block of source addresses: bot i starts on node i mod NODES.
# Prints the loadtest's report (its round trips over the whole run and over the moves sent once
# every game had started), the per-second p99 from then on (from the progress lines), each node's
# CPU and peak memory, the nodes' and PostgreSQL's CPU per move, and the games the database holds
# as finished. KEEP=FOLDER keeps the report and the progress lines. SERVE=BINARY runs the nodes
# with another build than the loadtest's (to compare two builds under the same load).
# Beside the whole run's CPU per move, the CPU per move of the STEADY seconds (default 40) from 3 s
# after the last game started: the moves alone, without the logins, seeks and pairing of the start.
# STATEMENTS=1 loads pg_stat_statements and prints the statements the run sent most often (calls,
# rows, the server's time in them).
# Needs Debian's postgresql; as root, the cluster runs as the postgres user.
set -euo pipefail
if [ $# -lt 2 ]; then
    "$0" "$1" 3
    exec "$0" "$1" sqlite
fi
bin=$(realpath "$1"); nodes=$2; serve=$(realpath "${SERVE:-$1}")
clients=${CLIENTS:-6000}; games=${GAMES:-$((clients / 2))}; think=${THINK:-2000}; ramp=${RAMP:-0}
dir=$(mktemp -d /tmp/nanashi-multi-XXXXXX); chmod 755 "$dir"
ulimit -n ${FILES:-20000}
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
    # KEEP=FOLDER keeps the reports and the progress lines there.
    [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$dir"/report-* "$dir"/progress-* "$KEEP"/ 2>/dev/null || true
    for pid in ${pids:-}; do kill "$pid" 2>/dev/null || true; done
    # The nodes leave the cluster through the database on SIGTERM: PostgreSQL stops after them
    # (10 s at most; then they are killed), or they would wait for it for ever.
    for _ in $(seq 100); do
        alive=""; for pid in ${pids:-}; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ -z "$alive" ] && break; sleep 0.1
    done
    for pid in ${pids:-}; do kill -9 "$pid" 2>/dev/null || true; done
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
        -c max_connections=300 -c shared_buffers=256MB -c synchronous_commit=off \
        ${STATEMENTS:+-c shared_preload_libraries=pg_stat_statements}" start > /dev/null
    psql() { as_pg "$pgbin/psql" -X -q -h 127.0.0.1 -p "$pgport" -U postgres "$@"; }
    psql -d postgres -c "CREATE DATABASE nanashi"
    [ -n "${STATEMENTS:-}" ] && psql -d nanashi -c "CREATE EXTENSION pg_stat_statements"
    db="postgres://postgres@127.0.0.1:$pgport/nanashi"
    "$bin" seed --db "$dir/bots.sqlite" --bots $((clients * count)) --accounts "$dir/bots.txt" > /dev/null
fi

pids=""; ports=""
for i in $(seq "$count"); do
    port=$(free_port)
    "$serve" serve --port "$port" --db "$db" --log-level error --max-connections 20000 \
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

ticks() { awk '{print $14+$15+$16+$17}' "/proc/$1/stat"; }
before=""; for pid in $pids; do before="$before $(ticks "$pid")"; done
if [ "$nodes" != sqlite ]; then
    postmaster=$(head -1 "$dir/data/postmaster.pid")
    pgticks() { echo $(( $(ticks "$postmaster") + $(for c in $(pgrep -P "$postmaster"); do ticks "$c" 2>/dev/null || echo 0; done | paste -sd+ | bc) )); }
    pgbefore=$(pgticks)
fi
list=$(for port in $ports; do printf "127.0.0.1:%s," "$port"; done); list=${list%,}
# The nodes' and PostgreSQL's CPU ticks once a second, for the steady seconds' CPU per move.
(
    while true; do
        n=0; for pid in $pids; do n=$((n + $(ticks "$pid" 2>/dev/null || echo 0))); done
        echo "$(date +%s.%N) $n $([ "$nodes" != sqlite ] && pgticks || echo 0)"
        sleep 1
    done
) > "$dir/cpu.txt" 2>/dev/null &
sampler=$!
load=$(cut -d' ' -f1-3 /proc/loadavg)
[ -n "${STATEMENTS:-}" ] && [ "$nodes" != sqlite ] && psql -d nanashi -c "SELECT pg_stat_statements_reset()" > /dev/null
start=$(date +%s.%N)
"$bin" loadtest --server "$list" --clients "$clients" --games "$games" --think "$think" --ramp "$ramp" \
    --accounts "$dir/bots.txt" --bind-range "127.10.0.0/16" --duration 900 \
    > "$dir/report-$nodes.txt" 2> "$dir/progress-$nodes.txt" || true
end=$(date +%s.%N)
kill "$sampler" 2>/dev/null || true
hz=$(getconf CLK_TCK)
echo "== $count node(s) on $([ "$nodes" = sqlite ] && echo SQLite || echo PostgreSQL): one loadtest, $clients clients," \
    "$games games, think $think ms, ramp $ramp s; wall $(echo "$end - $start" | bc) s;" \
    "load average $load before, $(cut -d' ' -f1-3 /proc/loadavg) after"
cat "$dir/report-$nodes.txt"
python3 - "$dir/progress-$nodes.txt" "$dir/report-$nodes.txt" <<'EOF'
import re, sys, statistics
rows = []
for line in open(sys.argv[1]):
    # Seconds without moves (the run's tail, bots done) have no p99: left out.
    m = re.search(r"^\[(\d+)s\].*\((\d+)/s, p99 ([0-9.]+)", line)
    if m and int(m[2]) > 0: rows.append((int(m[1]), float(m[3])))
m = re.search(r"sent from ([0-9.]+) s on", open(sys.argv[2]).read())
if m:
    # The line at [N s] covers about the second before it: those wholly after the last start.
    running = [p99 for second, p99 in rows if second - 1 >= float(m[1])]
    if running:
        print(f"per-second p99 once all games were going ({len(running)} s): "
              f"median {statistics.median(running)} ms, worst {max(running)} ms")
EOF
python3 - "$dir/progress-$nodes.txt" "$dir/report-$nodes.txt" "$dir/cpu.txt" "$start" "$hz" "${STEADY:-40}" <<'EOF'
import re, sys
progress, report, cpu, start, hz, steady = sys.argv[1:7]
start, hz, steady = float(start), float(hz), int(steady)
moves = {}
for line in open(progress):
    m = re.search(r"^\[(\d+)s\].* moves (\d+)", line)
    if m: moves[int(m[1])] = int(m[2])
m = re.search(r"sent from ([0-9.]+) s on", open(report).read())
samples = [tuple(map(float, line.split())) for line in open(cpu) if len(line.split()) == 3]
if m and samples:
    first = int(float(m[1])) + 3
    last = first + steady
    def at(second):
        # The sample nearest to that second of the run.
        return min(samples, key=lambda s: abs(s[0] - start - second))
    if first in moves and last in moves:
        (t0, n0, p0), (t1, n1, p1) = at(first), at(last)
        # The moves of the seconds the samples span (about the window's).
        count = (moves[last] - moves[first]) * (t1 - t0) / (last - first)
        line = f"steady seconds {first} to {last} ({count:.0f} moves): nodes {(n1 - n0) / hz / count * 1e6:.1f} us/move"
        if p1 > p0: line += f", PostgreSQL {(p1 - p0) / hz / count * 1e6:.1f} us/move"
        print(line)
EOF
moves=$(grep -oP '^moves \K[0-9]+' "$dir/report-$nodes.txt" | head -1 || echo 0)
i=0; total_ticks=0
for pid in $pids; do
    after=$(ticks "$pid"); b=$(echo $before | cut -d' ' -f$((i + 1)))
    total_ticks=$((total_ticks + after - b))
    echo "-- node $((i + 1)): $(grep VmHWM /proc/$pid/status | tr -s ' '), CPU $(python3 -c "print(f'{($after - $b) / $hz:.1f}')") s"
    i=$((i + 1))
done
echo "all nodes: CPU $(python3 -c "print(f'{$total_ticks / $hz:.1f} s -> {$total_ticks / $hz / max($moves, 1) * 1e6:.1f}')") us/move over $moves moves"
if [ "$nodes" != sqlite ]; then
    pgafter=$(pgticks)
    echo "PostgreSQL CPU $(python3 -c "print(f'{($pgafter - $pgbefore) / $hz:.1f}')") s -> $(python3 -c "print(f'{($pgafter - $pgbefore) / $hz / max($moves, 1) * 1e6:.1f}')") us/move over $moves moves"
    psql -d nanashi -t -A -c "SELECT 'games finished ' || COUNT(*) FILTER (WHERE result IS NOT NULL) || ', unfinished ' || COUNT(*) FILTER (WHERE result IS NULL) FROM game"
    # Bot i (the i-th account of the file, named with its number) connects to node i mod NODES.
    psql -d nanashi -t -A -c "SELECT 'games across nodes ' || COUNT(*) FILTER (WHERE
        (substring(x.name from '[0-9]+')::int - 1) % $count <> (substring(o.name from '[0-9]+')::int - 1) % $count)
        || ' of ' || COUNT(*) FROM game JOIN player x ON x.id = game.x_id JOIN player o ON o.id = game.o_id"
fi
if [ -n "${STATEMENTS:-}" ] && [ "$nodes" != sqlite ]; then
    echo "statements sent most often (calls, rows, ms in them, statement):"
    psql -d nanashi -t -A -F ' | ' -c "SELECT calls, rows, round(total_exec_time), left(regexp_replace(query, '\s+', ' ', 'g'), 90)
        FROM pg_stat_statements ORDER BY calls DESC LIMIT 12"
fi
