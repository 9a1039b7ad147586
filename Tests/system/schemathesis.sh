#!/usr/bin/env bash
# Schemathesis against /openapi.json of a running loaderd: every default
# phase (examples, coverage, fuzzing, stateful) and every default check, with
# a 5 s request timeout, two workers (the unit phases run in parallel:
# about a third less time). Fails on any finding.
#
# No hook filters cases: every request the document allows must get a 2xx or
# a documented status. One kind of finding is schemathesis's own and is
# excused after the run, each printed: an additional query property that the
# query string cannot carry (schemathesis_recheck.py). schemathesis_hooks.py
# only adds coverage (a fresh session's id and token for the session
# writes); with `no-hooks` it is not loaded at all.
#   Tests/system/schemathesis.sh path/to/loaderd [max examples, default 50] [hooks|no-hooks] [phases, default all]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=$1; examples=${2:-50}; hooks=${3:-hooks}; phases=${4:-}
venv=${XDG_CACHE_HOME:-$HOME/.cache}/loaderd-ci/schemathesis-4.32.5
if [ ! -x "$venv/bin/st" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "schemathesis==4.32.5"
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# Fuzzing creates sessions far faster than a client on the internet may
# (sessionCreateRate); that limit has its own test (abuse.py).
LOADERD_SESSION_CREATE_RATE=100000 LOADERD_SESSION_CREATE_BURST=100000 "$binary" --port "$port" --log-level warning &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do "$binary" healthcheck --port "$port" && break; sleep 0.05; done
log=${SCHEMATHESIS_LOG:-$(mktemp)}
crashes=.schemathesis/default/cache/crashes
rm -rf "$crashes"  # this run's findings only
set +e
hooks_env=()
[ "$hooks" = hooks ] && hooks_env=(SCHEMATHESIS_HOOKS=Tests/system/schemathesis_hooks.py)
env "${hooks_env[@]}" LOADERD_URL="http://127.0.0.1:$port" \
  "$venv/bin/st" run "http://127.0.0.1:$port/openapi.json" --request-timeout 5 --max-examples "$examples" --workers 2 \
  ${phases:+--phases "$phases"} --no-color > "$log" 2>&1
status=$?
if [ "$status" -ne 0 ] && python3 Tests/system/schemathesis_recheck.py "$log" "$crashes" "http://127.0.0.1:$port/openapi.json"; then
  # Every finding was schemathesis's own: an extra query property that the
  # query string never carried (see schemathesis_recheck.py).
  status=0
fi
set -e
tail -25 "$log"
if [ "$status" -ne 0 ]; then
  # What failed, with schemathesis's curl line to reproduce it.
  # (None found, as when a health check stopped it: the tail above says why.)
  { grep -E -A10 "^- ST|Network Error|Server error" "$log" || true; } | head -80
  echo "FAILED: schemathesis found problems (exit $status)"
  exit 1
fi
echo "schemathesis ($hooks): 1 passed, 0 failed"
