#!/usr/bin/env bash
# Two loaderd binaries under the same load, taking turns: before, after,
# before, after… for ROUNDS rounds (default 3), so that a neighbour's noise
# falls on both. Each turn is a fresh process of one binary that runs
#   - bench/http's loaderd scenarios: wrk -t1 with bench/same_t.lua (c64 and
#     c256, access log off; c64, access log on) and bench/distinct_t.lua (c64,
#     log off), SECS seconds each (default 10), after checking the frame;
#   - then bench/cold-exports' measurement (its own Python, taken from that
#     script so that the workload stays one definition), on a fresh process:
#     every catalogue loader's every export, once, cold.
# Prints every turn, then per binary the median of its turns and the change
# after/before. Figures only, never a verdict: on a busy machine they are noise.
#   [SECS=10] bench/behaviour/alternate.sh BEFORE AFTER [rounds]
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,14p' "$0"; exit 2; }
before=$(realpath "$1"); after=$(realpath "$2"); rounds=${3:-3}; secs=${SECS:-10}
cd "$(dirname "$0")/../.."
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)"; exit 2; }
work=$(mktemp -d)
pid=""
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

# bench/cold-exports' Python, run on a given binary for one round.
sed -n "/^python3 - .*<<'PY'$/,/^PY$/p" bench/cold-exports | sed '1d;$d' > "$work/cold.py"
grep -q "cold exports, all: median" "$work/cold.py" || { echo "FAILED: the measurement is no longer in bench/cold-exports"; exit 1; }

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
start() { # binary, log (true/false) -> $pid, $p once it answers
  p=$(port)
  LOADERD_MAX_CONNECTIONS_PER_ADDRESS=1000000 LOADERD_ACCESS_LOG=$2 "$1" --port "$p" --log-level info > "$work/log" 2>&1 & pid=$!
  for _ in $(seq 200); do "$1" healthcheck --port "$p" >/dev/null 2>&1 && return; sleep 0.05; done
  echo "FAILED: $1 did not start"; exit 1
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""; }
run() { # port, connections, script -> req/s and p99 in ms; any non-2xx answer stops the run
  local out
  out=$(wrk -t1 -c"$2" -d"${secs}s" --latency -s "$3" "http://127.0.0.1:$1" 2>&1)
  if grep -q "Non-2xx" <<<"$out"; then echo "FAILED: $(grep Non-2xx <<<"$out")" >&2; exit 1; fi
  awk '/Requests\/sec/ { rps=$2 } /^ +99%/ { p99=$2 }
    function ms(v) { if (v ~ /us$/) return v/1000; if (v ~ /ms$/) return v+0; if (v ~ /s$/) return v*1000; return v }
    END { printf "%.0f %.3f", rps, ms(p99) }' <<<"$out"
}
record() { echo "$1|$2|$3" >> "$work/figures"; }   # side, figure name, value

turn() { # side, binary
  local side=$1 bin=$2 rps p99 status
  for scenario in "same frame, log off|64|bench/same_t.lua|false" "same frame, log off|256|bench/same_t.lua|false" \
                  "same frame, log on|64|bench/same_t.lua|true" "new t, log off|64|bench/distinct_t.lua|false"; do
    IFS='|' read -r title c script log <<<"$scenario"
    start "$bin" "$log"
    status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$p/loaders/typing/frames?t=0.5")
    [ "$status" = 200 ] || { echo "FAILED: $side answered $status"; exit 1; }
    read -r rps p99 <<<"$(run "$p" "$c" "$script")"
    stop
    record "$side" "http $title c$c req/s" "$rps"; record "$side" "http $title c$c p99 ms" "$p99"
    printf "  %-6s http %-20s c%-3s %8s req/s  p99 %7s ms\n" "$side" "$title" "$c" "$rps" "$p99"
  done
  python3 "$work/cold.py" "$bin" 1 > "$work/cold.out"
  while read -r e median worst; do
    record "$side" "cold $e median ms" "$median"; record "$side" "cold $e worst ms" "$worst"
  done < <(awk '/^cold [a-z]/ && !/all:/ { print $2, $4, $7 } /cold exports, all:/ { print "all", $5, $15 }' "$work/cold.out")
  printf "  %-6s %s\n" "$side" "$(grep 'cold exports, all' "$work/cold.out")"
}

echo "before: $before"; echo "after:  $after"
echo "$(nproc) cores; wrk -t1, ${secs}s per scenario; $rounds rounds, before and after alternating"
for r in $(seq "$rounds"); do
  echo "round $r"
  turn before "$before"
  turn after "$after"
done

echo
python3 - "$work/figures" <<'PY'
import statistics, sys
figures = {}
for line in open(sys.argv[1]):
    side, name, value = line.rstrip("\n").split("|")
    figures.setdefault(name, {}).setdefault(side, []).append(float(value.rstrip("ms")))
print(f"{'median of turns':42} {'before':>10} {'after':>10} {'change':>8}")
for name, sides in figures.items():
    b, a = statistics.median(sides["before"]), statistics.median(sides["after"])
    change = f"{(a - b) / b * 100:+.1f}%" if b else "-"
    print(f"{name:42} {b:10.3f} {a:10.3f} {change:>8}")
print("req/s: higher is better; p99 and ms: lower is better.")
PY
