#!/usr/bin/env bash
# deploy/compose/compose.sentinel.yaml brought up with podman-compose
# (Debian's), its Redis primary killed, checked through its nginx, and
# brought down (Tests/system/compose_sentinel.py). The images are
# compose.sh's: loaderd built from the Dockerfile here (podman_env.sh) and
# tagged as the file's `loaderd:latest`; Redis (whose redis-server also runs
# the Sentinels, with --sentinel) and nginx are look-alikes of the official
# images.
#
#   Tests/system/compose_sentinel.sh [output-dir]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-ci-output/compose-sentinel}
mkdir -p "$out"
source Tests/system/podman_env.sh "$out"
out=$podman_out
build_image
podman tag loaderd:test localhost/loaderd:latest
redis_image
nginx_image
if ! command -v podman-compose >/dev/null 2>&1; then
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman-compose >/dev/null
fi
# What deploy/compose/.env would hold.
REDIS_PASSWORD=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
SENTINEL_PASSWORD=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
LOADERD_HTTP_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export REDIS_PASSWORD SENTINEL_PASSWORD LOADERD_HTTP_PORT
python3 Tests/system/compose_sentinel.py "$out"
