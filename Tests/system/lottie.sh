#!/usr/bin/env bash
# The Lottie export test (lottie_test.py) in a venv with the official Lottie
# schema (lottie-specs), jsonschema, rlottie (rlottie-python) and Pillow.
#   Tests/system/lottie.sh path/to/loaderd
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=${XDG_CACHE_HOME:-$HOME/.cache}/loaderd-ci/lottie-specs-0.5.2-rlottie-1.3.8
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import lottie_specs, jsonschema, rlottie_python, PIL" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "lottie-specs==0.5.2" "jsonschema==4.26.0" "rlottie-python==1.3.8" "pillow==13.0.0"
fi
PYTHONPATH=Tests/system "$venv/bin/python" Tests/system/lottie_test.py "$1"
