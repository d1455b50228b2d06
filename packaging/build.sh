#!/usr/bin/env bash
# Build the desktop bundle from a clean virtual environment.
#
#   packaging/build.sh [--onefile] [--with-parquet] [--dist DIR] [--work DIR] [--python PYTHON]
#
# Result: DIR/tfr-viewer/tfr-viewer (one folder, default DIR=dist) or DIR/tfr-viewer
# (--onefile), then a size report. The virtual environment holds only the app's own
# dependencies and PyInstaller, so nothing from a development setup (TensorFlow, pytest)
# can leak into the bundle. --with-parquet adds the optional pyarrow (for
# `convert DATASET -o out.parquet`); the bundle that ships is built without it.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIST="$ROOT/dist"
WORK="$ROOT/build"
PYTHON="${PYTHON:-python3}"
ONEFILE=()
APP="$ROOT"
while [ $# -gt 0 ]; do
  case "$1" in
    --onefile) ONEFILE=(-- --onefile) ;;
    --with-parquet) APP="$ROOT[parquet]" ;;
    --dist) DIST="$(mkdir -p "$2" && cd "$2" && pwd)"; shift ;;
    --work) WORK="$(mkdir -p "$2" && cd "$2" && pwd)"; shift ;;
    --python) PYTHON="$2"; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "build.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

VENV="$WORK/venv"
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
"$VENV/bin/python" -m pip install -q "$APP" "pyinstaller>=6.10"
if "$VENV/bin/python" -c "import tensorflow" 2>/dev/null; then
  echo "build.sh: TensorFlow is installed in the build environment; refusing to bundle it" >&2
  exit 1
fi

"$VENV/bin/pyinstaller" --noconfirm --clean --log-level WARN \
  --distpath "$DIST" --workpath "$WORK/pyinstaller" \
  "$ROOT/packaging/tfr-viewer.spec" "${ONEFILE[@]}"

# Debug sections are up to three quarters of some libraries (libpython, rapidgzip). Only
# they go: a full strip breaks the wheels' patchelf-ed libraries, and the executable of a
# one-file build carries its archive at the end.
if [ ${#ONEFILE[@]} -eq 0 ] && command -v strip >/dev/null && command -v readelf >/dev/null; then
  find "$DIST/tfr-viewer" -type f -name '*.so*' -print0 |
    while IFS= read -r -d '' lib; do
      # grep reads all of readelf's output: with -q it could stop early, and pipefail
      # would then count readelf's broken pipe as "no debug sections".
      if readelf -S "$lib" 2>/dev/null | grep '\.debug_info' >/dev/null; then
        strip --strip-debug "$lib"
      fi
    done
fi

# Linux desktop integration ships inside the bundle: tfr-viewer/linux/install.sh.
if [ ${#ONEFILE[@]} -eq 0 ] && [ "$(uname -s)" = Linux ]; then
  LINUX="$DIST/tfr-viewer/linux"
  mkdir -p "$LINUX/icons"
  cp "$ROOT"/packaging/linux/{install.sh,uninstall.sh} \
    "$ROOT"/tfr_viewer/desktop/{tfr-viewer.desktop,tfr-viewer-mime.xml} "$LINUX/"
  cp -r "$ROOT/resources/icons/hicolor" "$LINUX/icons/"
fi

"$VENV/bin/python" "$ROOT/packaging/size_report.py" "$DIST"
