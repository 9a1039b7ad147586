#!/usr/bin/env bash
# Builds the image with podman from the unmodified Dockerfile, runs it on
# 127.0.0.1, checks /healthz, a frame, the health check, the non-root user,
# and that SIGTERM during an open SSE stream sends `event: end` and stops the
# container within 2 seconds. Prints the image size and start-up times.
#
# No Docker engine or registry here: look-alike base images are made under
# the official names (debian:bookworm-slim by debootstrap; swift:6.3-bookworm
# as Debian plus the toolchain's build dependencies, with the machine's
# toolchain mounted read-only during the build). They stay in podman's
# storage, so later runs reuse them.
#
#   Tests/system/container_test.sh [output-dir]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-ci-output/container}
mkdir -p "$out"
name=loaderd-container-test

source Tests/system/podman_env.sh "$out"
out=$podman_out
build_image

cleanup() { podman rm -f -t 0 "$name" >/dev/null 2>&1 || true; }
trap cleanup EXIT
cleanup
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
t0=$(date +%s%N)
# A loader definition mounted into /etc/loaderd/loaders joins the catalogue.
loaders=$(mktemp -d)
cat > "$loaders/mounted.json" <<'JSON'
{"format": 1, "name": "mounted", "summary": "A dot mounted into the container.", "canvas": {"width": 10, "height": 10},
 "layers": [{"type": "circle", "id": "dot", "position": [5, 5], "diameter": 4}]}
JSON
chmod -R a+rX "$loaders"
# No systemd here to schedule health checks: run them by hand below.
podman run -d --name "$name" --health-interval=disable -p "127.0.0.1:$port:8080" -v "$loaders:/etc/loaderd/loaders:ro" loaderd:test >/dev/null
until curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; do
  if (( ($(date +%s%N) - t0) / 1000000 > 20000 )); then echo "FAILED: no 200 within 20 s"; podman logs "$name"; exit 1; fi
  sleep 0.005
done
run_to_200=$(( ($(date +%s%N) - t0) / 1000000 ))
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

frame=$(curl -fs "http://127.0.0.1:$port/loaders/typing/frames?t=0.5")
expected='{"loader":"typing","t":0.5,"width":70,"height":20,"done":false,"background":"#000000","elements":[{"id":"dot0","shape":"circle","x":20,"y":8.25,"diameter":8,"scale":1.3333333333333333,"opacity":0.6,"color":"#FFFFFF"},{"id":"dot1","shape":"circle","x":35,"y":7.75,"diameter":8,"scale":1.2,"opacity":0.76,"color":"#FFFFFF"},{"id":"dot2","shape":"circle","x":50,"y":7.25,"diameter":8,"scale":1.0666666666666667,"opacity":0.9199999999999999,"color":"#FFFFFF"}]}'
[ "$frame" = "$expected" ] || fail "the typing frame at t=0.5 differs: $frame"
mounted=$(curl -fs "http://127.0.0.1:$port/loaders/mounted/frames?t=0" || true)
[ "$mounted" = '{"loader":"mounted","t":0,"width":10,"height":10,"done":false,"elements":[{"id":"dot","shape":"circle","x":5,"y":5,"diameter":4,"scale":1,"opacity":1,"color":"#FFFFFF"}]}' ] \
  || fail "the loader mounted into /etc/loaderd/loaders did not answer: $mounted"
served=$(curl -fs "http://127.0.0.1:$port/version" | sed -nE 's/.*"version":"([^"]+)".*/\1/p')
label=$(podman image inspect --format '{{index .Config.Labels "org.opencontainers.image.version"}}' loaderd:test)
[ -n "$served" ] && [ "$label" = "$served" ] || fail "the image's version label '$label' is not the version served, '$served'"
user=$(podman inspect --format '{{.Config.User}}' "$name")
[ "$user" = "65532:65532" ] || fail "the container runs as '$user', not 65532:65532"
podman healthcheck run "$name" >/dev/null 2>&1 || fail "the image's health check (loaderd healthcheck) failed"
size=$(podman image inspect --format '{{.Size}}' loaderd:test)
ready_us=$(podman logs "$name" 2>/dev/null | sed -nE 's/.*"msg":"started".*"startupMicroseconds":([0-9]+).*/\1/p' | head -1)

# SIGTERM during an open stream: event: end, then the container exits fast.
curl -sN -H 'Accept: text/event-stream' "http://127.0.0.1:$port/loaders/switch/frames?fps=30" > "$out/stream.txt" &
curl_pid=$!
for _ in $(seq 200); do grep -q "event: frame" "$out/stream.txt" 2>/dev/null && break; sleep 0.01; done
t1=$(date +%s%N)
podman kill --signal TERM "$name" >/dev/null
podman wait "$name" >/dev/null
stop_ms=$(( ($(date +%s%N) - t1) / 1000000 ))
wait "$curl_pid" || true
exit_code=$(podman inspect --format '{{.State.ExitCode}}' "$name")
tail -c 200 "$out/stream.txt" | grep -q 'event: end' || fail "the stream did not end with event: end"
tail -c 200 "$out/stream.txt" | grep -q '"reason":"shutdown"' || fail "the end event does not give the shutdown reason"
[ "$exit_code" = "0" ] || fail "exit code $exit_code after SIGTERM"
(( stop_ms <= 2000 )) || fail "the container took ${stop_ms} ms to stop (limit 2000)"
podman logs "$name" > "$out/container.log" 2>&1 || true

echo "image: $(( size / 1024 / 1024 )) MiB ($size bytes; target <= 20 MB)"
echo "process start to listening (inside the container): ${ready_us:-?} µs (target <= 100 ms)"
echo "podman run to first 200: ${run_to_200} ms"
echo "SIGTERM with an open stream to container exit: ${stop_ms} ms (limit 2000), exit code ${exit_code}"
if (( failures > 0 )); then exit 1; fi
echo "container: 1 passed, 0 failed"
