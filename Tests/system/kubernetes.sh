#!/usr/bin/env bash
# The Kubernetes manifests: validated against the schemas of every supported
# Kubernetes version, then the Redis-mode ones played with `podman kube play`
# on the image built from the Dockerfile (Tests/system/kubernetes.py says
# what podman 4.3 plays as the closest equivalent).
#
# Redis's image is a look-alike of the official redis:7 under its name
# (Debian's redis-server, user 999, /data, `redis-server` as entrypoint, so
# args go to it as they do to the official image's), made once and kept.
#
#   Tests/system/kubernetes.sh [output-dir]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-ci-output/kubernetes}
mkdir -p "$out"
source Tests/system/podman_env.sh "$out"
out=$podman_out
build_image

if ! podman image exists docker.io/library/redis:7; then
  echo "making redis:7 (Debian's redis-server)"
  podman build -q -t docker.io/library/redis:7 -f - . >/dev/null <<'DOCKERFILE'
FROM docker.io/library/debian:bookworm-slim
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/* && usermod -u 999 redis && groupmod -g 999 redis && mkdir -p /data && chown 999:999 /data
WORKDIR /data
ENTRYPOINT ["redis-server"]
DOCKERFILE
fi

venv=${XDG_CACHE_HOME:-$HOME/.cache}/loaderd-ci/kubernetes-validate-1.37.0
if [ ! -x "$venv/bin/kubernetes-validate" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "kubernetes-validate==1.37.0"
fi
"$venv/bin/python" Tests/system/kubernetes.py localhost/loaderd:test "$venv/bin/kubernetes-validate" "$out"
