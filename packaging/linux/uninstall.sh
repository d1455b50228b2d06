#!/usr/bin/env bash
# Remove what install.sh installed: the bundle copy, the command, the menu entry, the
# MIME type, the icons and the default-application setting.
#
#   uninstall.sh [--system]
set -euo pipefail
SYSTEM=0
case "${1:-}" in
  --system) SYSTEM=1 ;;
  -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
  "") ;;
  *) echo "uninstall.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
esac
if [ "$SYSTEM" = 1 ]; then
  DATA=/usr/local/share
  APP=/opt/tfr-viewer
else
  DATA="${XDG_DATA_HOME:-$HOME/.local/share}"
  APP="$DATA/tfr-viewer/app"
fi
MANIFEST="$APP.installed-files"
if [ ! -f "$MANIFEST" ]; then
  echo "uninstall.sh: nothing to remove ($MANIFEST not found)" >&2
  exit 1
fi
while IFS= read -r file; do
  [ -n "$file" ] && rm -f "$file"
done < "$MANIFEST"
rm -rf "$APP" "$MANIFEST"
rmdir "$(dirname "$APP")" 2>/dev/null || true

command -v update-mime-database >/dev/null && update-mime-database "$DATA/mime"
command -v update-desktop-database >/dev/null && update-desktop-database -q "$DATA/applications"
if command -v gtk-update-icon-cache >/dev/null && [ -d "$DATA/icons/hicolor" ]; then
  gtk-update-icon-cache -q -t -f "$DATA/icons/hicolor" 2>/dev/null || true
fi
if [ "$SYSTEM" = 0 ]; then
  list="${XDG_CONFIG_HOME:-$HOME/.config}/mimeapps.list"
  if [ -f "$list" ]; then  # the default set by install.sh, and nothing else
    sed -i '/^application\/x-tfrecord=tfr-viewer\.desktop;*$/d' "$list"
  fi
fi
echo "tfr-viewer removed"
