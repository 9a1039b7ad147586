#!/usr/bin/env bash
# The Kubernetes manifests: validated against the schemas of every supported
# Kubernetes version, then the Redis-mode ones played with `podman kube play`
# on the image built from the Dockerfile (Tests/system/kubernetes.py says
# what podman 4.3 plays as the closest equivalent).
#
# Redis's image is a look-alike of the official redis:7 under its name
# (podman_env.sh), made once and kept.
#
#   Tests/system/kubernetes.sh [output-dir]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-ci-output/kubernetes}
mkdir -p "$out"
source Tests/system/podman_env.sh "$out"
out=$podman_out
build_image

redis_image

venv=${XDG_CACHE_HOME:-$HOME/.cache}/loaderd-ci/kubernetes-validate-1.37.0
if [ ! -x "$venv/bin/kubernetes-validate" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "kubernetes-validate==1.37.0"
fi
"$venv/bin/python" Tests/system/kubernetes.py localhost/loaderd:test "$venv/bin/kubernetes-validate" "$out"
