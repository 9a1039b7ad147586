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
compose_env
# The Sentinels' own password, in its own secrets file as a user makes it.
SENTINEL_PASSWORD=$(random_secret)
LOADERD_SENTINEL_SECRETS_FILE=$out/sentinel-secrets.env
(umask 077; echo "LOADERD_REDIS_SENTINEL_PASSWORD=$SENTINEL_PASSWORD" > "$LOADERD_SENTINEL_SECRETS_FILE")
export SENTINEL_PASSWORD LOADERD_SENTINEL_SECRETS_FILE
python3 Tests/system/compose_sentinel.py "$out"
