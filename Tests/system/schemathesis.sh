#!/usr/bin/env bash
# Schemathesis against /openapi.json of a running loaderd: every default
# phase (examples, coverage, fuzzing, stateful) and every default check, with
# a 5 s request timeout. Fails on any finding.
#
# schemathesis_hooks.py tells the generator the one rule OpenAPI cannot state
# (a batch's bounds are arithmetic across parameters: (to - from) × fps frames,
# its bytes), removing those cases, and gives positive cases of the session
# writes a fresh session's id and token. No check is relaxed.
#   Tests/system/schemathesis.sh path/to/loaderd [max examples, default 50]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=$1; examples=${2:-50}
venv=${XDG_CACHE_HOME:-$HOME/.cache}/loaderd-ci/schemathesis-4.32.5
if [ ! -x "$venv/bin/st" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "schemathesis==4.32.5"
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$binary" --port "$port" --log-level warning &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do "$binary" healthcheck --port "$port" && break; sleep 0.05; done
log=${SCHEMATHESIS_LOG:-$(mktemp)}
set +e
SCHEMATHESIS_HOOKS=Tests/system/schemathesis_hooks.py LOADERD_URL="http://127.0.0.1:$port" \
  "$venv/bin/st" run "http://127.0.0.1:$port/openapi.json" --request-timeout 5 --max-examples "$examples" \
  --no-color > "$log" 2>&1
status=$?
set -e
tail -25 "$log"
if [ "$status" -ne 0 ]; then
  # What failed, with schemathesis's curl line to reproduce it.
  grep -E -A10 "^- ST|Network Error|Server error" "$log" | head -80
  echo "FAILED: schemathesis found problems (exit $status)"
  exit 1
fi
echo "schemathesis: 1 passed, 0 failed"
