#!/usr/bin/env bash
# Portable Rabbithole: add it to your desktop's application menu (for you only, no root needed).
#   ./install-desktop-entry.sh            menu entry and icon in ~/.local/share, pointing at this folder
#   ./install-desktop-entry.sh --remove   take them out again
# Moving the folder later? Run this again from the new place.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
data=${XDG_DATA_HOME:-$HOME/.local/share}
entry=$data/applications/rabbithole.desktop
icon=$data/icons/hicolor/256x256/apps/rabbithole.png

if [ "${1:-}" = "--remove" ]; then
  rm -f "$entry" "$icon"
  echo "removed $entry and $icon"
else
  mkdir -p "$(dirname "$entry")" "$(dirname "$icon")"
  cp "$here/share/rabbithole.png" "$icon"
  # Exec and TryExec name this folder's program; the rest is the packaged entry as it is.
  sed -e "s|^Exec=.*|Exec=\"$here/rabbithole\"|" -e "s|^TryExec=.*|TryExec=$here/rabbithole|" \
    "$here/share/rabbithole.desktop" > "$entry"
  echo "added $entry (runs $here/rabbithole)"
fi
command -v update-desktop-database >/dev/null && update-desktop-database -q "$data/applications" || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$data/icons/hicolor" || true
