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
# The Sentinels' own password, as deploy/compose/.env would hold it too.
SENTINEL_PASSWORD=$(random_secret)
export SENTINEL_PASSWORD
python3 Tests/system/compose_sentinel.py "$out"
