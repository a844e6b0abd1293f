#!/usr/bin/env bash
# usage: tools/cpu_per_move.sh BINARY LABEL [perf]
# One load run: a fresh copy of a seeded database ($DIR/$BASE.sqlite, with the bots' tokens in
# $DIR/$BOTS.txt, from `nanashi seed --db ... --bots N --accounts ...`), a server on it, the bots;
# prints the server's CPU (user + system, from /proc) per move played. With `perf`, records a
# profile of the server to $DIR/perf-LABEL.data. CLIENTS, GAMES, THINK, MAXC, FILES as named;
# SERVE_ARGS are added to the server's options (say --commit-delay 0). Also prints the server's
# context switches (voluntary + involuntary, all its threads) per move, and each thread's CPU and
# switches per move (in the order the threads were started: the event loops first, then the
# storage threads); the load tool's progress lines go to $DIR/progress-LABEL.txt.
# With COUNT=1, also counts what drives the CPU a move costs and, unlike time, does not change
# with the load beside it: system calls, wake-ups, malloc and Swift object allocations (perf's
# tracepoints and uprobes; the probes slow the server, so take times from runs without it).
set -euo pipefail
bin=$1; label=$2; perf=${3:-}
dir=${DIR:-/tmp/pgload}
ulimit -n ${FILES:-20000}
cp $dir/${BASE:-base}.sqlite $dir/run.sqlite; rm -f $dir/run.sqlite-wal $dir/run.sqlite-shm
port=$((20000 + RANDOM % 20000))
$bin serve --port $port --db $dir/run.sqlite --log-level error --max-connections ${MAXC:-5000} ${SERVE_ARGS:-} > $dir/serve.out 2>&1 &
pid=$!
for i in $(seq 100); do grep -q listening $dir/serve.out 2>/dev/null && break; sleep 0.1; done
ticks() { awk '{print $14+$15}' /proc/$pid/stat; }
# User and system time apart (what the loopback costs shows in the system's).
user_ticks() { awk '{print $14}' /proc/$pid/stat; }
# One line a thread: id, CPU ticks, voluntary and involuntary switches.
threads() {
  for t in /proc/$pid/task/*; do
    echo "$(basename $t) $(awk '{print $14+$15}' $t/stat) $(awk '/voluntary_ctxt/ {printf "%s ", $2}' $t/status)"
  done
}
before=$(ticks); user_before=$(user_ticks)
threads > $dir/threads-before-$label.txt
if [ -n "$perf" ]; then perf record -F 999 -g -p $pid -o $dir/perf-$label.data > /dev/null 2>&1 & perfpid=$!; fi
if [ -n "${COUNT:-}" ]; then
  libc=$(ldd $bin | awk '/libc.so.6/ {print $3}'); core=$(ldd $bin | awk '/libswiftCore.so/ {print $3}')
  perf probe -q -x $libc malloc 2>/dev/null || true
  perf probe -q -x $core swift_allocObject 2>/dev/null || true
  perf stat -x, -e raw_syscalls:sys_enter -e sched:sched_switch -e probe_libc:malloc \
    -e probe_libswiftCore:swift_allocObject -p $pid -o $dir/counts-$label.txt & statpid=$!
fi
start=$(date +%s.%N)
$bin loadtest --server 127.0.0.1:$port --clients ${CLIENTS:-1000} --games ${GAMES:-2000} --think ${THINK:-0} --accounts $dir/${BOTS:-bots}.txt --bind-range 127.1.0.0/16 > $dir/report-$label.txt 2> $dir/progress-$label.txt
end=$(date +%s.%N)
after=$(ticks); user_after=$(user_ticks)
threads > $dir/threads-after-$label.txt
if [ -n "$perf" ]; then kill -INT $perfpid; wait $perfpid || true; fi
if [ -n "${COUNT:-}" ]; then kill -INT $statpid; wait $statpid || true; fi
kill $pid; wait $pid || true
moves=$(grep -oP 'moves \K[0-9]+' $dir/report-$label.txt | head -1)
hz=$(getconf CLK_TCK)
# The switches of all its threads, and each thread's share, from the two snapshots.
python3 -c "
def load(name):
    return {int(f[0]): [int(x) for x in f[1:4]] for f in (l.split() for l in open(name)) if len(f) == 4}
before, after, m, hz = load('$dir/threads-before-$label.txt'), load('$dir/threads-after-$label.txt'), $moves, $hz
cpu = ($after - $before) / hz
switches = sum(sum(t[1:]) for t in after.values()) - sum(sum(t[1:]) for t in before.values())
user = ($user_after - $user_before) / hz
print(f'$label: moves {m} server CPU {cpu:.2f} s -> {cpu/m*1e6:.1f} us/move (user {user/m*1e6:.1f}, '
      f'system {(cpu-user)/m*1e6:.1f}), wall {$end-$start:.1f} s, {switches/m:.2f} context switches/move')
for tid in sorted(after):
    b = before.get(tid, [0, 0, 0]); cpu, vol, invol = (a - c for a, c in zip(after[tid], b))
    if cpu / hz / m * 1e6 >= 0.5:
        print(f'  thread {tid}: {cpu / hz / m * 1e6:.1f} us/move, switches {vol / m:.2f} voluntary {invol / m:.2f} involuntary')"
grep -E "errors|round trip|games completed" $dir/report-$label.txt | tr '\n' ' '; echo
if [ -n "${COUNT:-}" ]; then
  awk -F, -v m=$moves '$1 ~ /^[0-9]+$/ {printf "%s%s %.1f", sep, $3, $1 / m; sep = ", "} END {print " a move"}' \
    $dir/counts-$label.txt
fi
