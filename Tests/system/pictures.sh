#!/usr/bin/env bash
# The pictures test (pictures_test.py) in a venv with Pillow and numpy, and
# Debian's pngcheck.
#   Tests/system/pictures.sh path/to/loaderd path/to/loaderd-bench
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v pngcheck >/dev/null 2>&1 || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pngcheck >/dev/null; }
venv=${XDG_CACHE_HOME:-$HOME/.cache}/loaderd-ci/pictures-pillow-13.0.0-numpy-2.3.5
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import PIL, numpy" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "pillow==13.0.0" "numpy==2.3.5"
fi
PYTHONPATH=Tests/system "$venv/bin/python" Tests/system/pictures_test.py "$1" "$2"
