#!/usr/bin/env bash
# deploy/compose/compose.yaml brought up with podman-compose (Debian's),
# checked through its nginx, and brought down (Tests/system/compose.py).
# The loaderd image is the one built from the Dockerfile here (podman_env.sh),
# tagged as the file's `loaderd:latest`, so Compose finds it and builds
# nothing; Redis and nginx are look-alikes of the official images.
#
#   Tests/system/compose.sh [output-dir]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-ci-output/compose}
mkdir -p "$out"
source Tests/system/podman_env.sh "$out"
out=$podman_out
compose_env
python3 Tests/system/compose.py
