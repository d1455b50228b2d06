#!/usr/bin/env bash
# Install the tfr-viewer bundle as a desktop program that opens .tfrecord files.
#
#   install.sh [--system] [--bundle DIR]
#
# Per user (default): the bundle goes to ${XDG_DATA_HOME:-~/.local/share}/tfr-viewer/app,
# the command to ~/.local/bin/tfr-viewer, the menu entry, MIME type and icons under
# ${XDG_DATA_HOME:-~/.local/share}, and tfr-viewer becomes the default for TFRecord files.
# --system (as root): /opt/tfr-viewer, /usr/local/bin and /usr/local/share.
# DIR is the one-folder bundle (holding the tfr-viewer executable); by default the folder
# this script sits in when shipped inside the bundle, else dist/tfr-viewer of a checkout.
# uninstall.sh undoes it, using the list of installed files kept next to the bundle.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
SYSTEM=0
BUNDLE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --system) SYSTEM=1 ;;
    --bundle) BUNDLE="$2"; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

# Files shipped with the script: next to it inside a bundle, or in the source tree (the
# desktop entry and the MIME type are the package's own, which install-desktop writes).
if [ -f "$HERE/tfr-viewer.desktop" ] && [ -d "$HERE/icons/hicolor" ]; then
  ICONS="$HERE/icons/hicolor"
  SHARED="$HERE"
else
  ICONS="$HERE/../../resources/icons/hicolor"
  SHARED="$HERE/../../tfr_viewer/desktop"
fi
if [ -z "$BUNDLE" ]; then
  for candidate in "$HERE/.." "$HERE/../../dist/tfr-viewer"; do
    if [ -x "$candidate/tfr-viewer" ] && [ -f "$candidate/tfr-viewer" ]; then
      BUNDLE="$candidate"
      break
    fi
  done
fi
if [ -z "$BUNDLE" ] || [ ! -x "$BUNDLE/tfr-viewer" ]; then
  echo "install.sh: no bundle found (looked for an executable tfr-viewer); build it with" \
       "packaging/build.sh or pass --bundle DIR" >&2
  exit 2
fi
BUNDLE="$(cd "$BUNDLE" && pwd)"

if [ "$SYSTEM" = 1 ]; then
  DATA=/usr/local/share
  APP=/opt/tfr-viewer
  BIN=/usr/local/bin
else
  DATA="${XDG_DATA_HOME:-$HOME/.local/share}"
  APP="$DATA/tfr-viewer/app"
  BIN="$HOME/.local/bin"
fi
MANIFEST="$APP.installed-files"

warn() { echo "install.sh: warning: $*" >&2; }
installed=()
put() {  # put SOURCE DEST [MODE]: copy one file and remember it for uninstall.sh
  install -D -m "${3:-644}" "$1" "$2"
  installed+=("$2")
}

echo "installing $BUNDLE to $APP"
if [ "$BUNDLE" != "$APP" ]; then
  rm -rf "$APP.new"
  mkdir -p "$(dirname "$APP")"
  cp -a "$BUNDLE" "$APP.new"
  rm -rf "$APP"
  mv "$APP.new" "$APP"
fi
mkdir -p "$BIN"
ln -sfn "$APP/tfr-viewer" "$BIN/tfr-viewer"
installed+=("$BIN/tfr-viewer")

# The menu entry runs the installed executable by its full path, so it works even when
# $BIN is not on the desktop session's PATH.
desktop="$(mktemp)"
sed -e "s|^Exec=tfr-viewer |Exec=$APP/tfr-viewer |" -e "s|^TryExec=.*|TryExec=$APP/tfr-viewer|" \
  "$SHARED/tfr-viewer.desktop" > "$desktop"
put "$desktop" "$DATA/applications/tfr-viewer.desktop"
rm -f "$desktop"
put "$SHARED/tfr-viewer-mime.xml" "$DATA/mime/packages/tfr-viewer.xml"
for png in "$ICONS"/*/apps/tfr-viewer.png; do
  size="$(basename "$(dirname "$(dirname "$png")")")"
  put "$png" "$DATA/icons/hicolor/$size/apps/tfr-viewer.png"
  put "$png" "$DATA/icons/hicolor/$size/mimetypes/application-x-tfrecord.png"
done
printf '%s\n' "${installed[@]}" > "$MANIFEST"

if command -v update-mime-database >/dev/null; then
  update-mime-database "$DATA/mime"
else
  warn "update-mime-database not found (package shared-mime-info): .tfrecord files will" \
       "not be recognised until it runs"
fi
if command -v update-desktop-database >/dev/null; then
  update-desktop-database -q "$DATA/applications"
else
  warn "update-desktop-database not found (package desktop-file-utils)"
fi
if command -v gtk-update-icon-cache >/dev/null; then
  touch "$DATA/icons/hicolor"
  gtk-update-icon-cache -q -t -f "$DATA/icons/hicolor" 2>/dev/null || true
fi
if [ "$SYSTEM" = 0 ]; then
  if command -v xdg-mime >/dev/null; then
    xdg-mime default tfr-viewer.desktop application/x-tfrecord
  else
    warn "xdg-mime not found (package xdg-utils): choose tfr-viewer for .tfrecord files in" \
         "your file manager's Open With dialog"
  fi
fi
case ":$PATH:" in
  *":$BIN:"*) ;;
  *) warn "$BIN is not on PATH; the menu entry works, but to type tfr-viewer add it to PATH" ;;
esac
echo "installed: $BIN/tfr-viewer, menu entry, MIME type application/x-tfrecord and icons"
