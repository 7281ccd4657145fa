#!/usr/bin/env bash
# Start a built Rabbithole the way a user's first start goes: fresh data folders, no network, no LLM.
#
#   packaging/smoke_test.sh TARGET [--json FILE] [--fallback] [--window-seconds N]
#
# TARGET is the one-folder program (dist/rabbithole), the portable .tar.gz or the .deb (unpacked with
# dpkg-deb -x, not installed). Checks, each on its own fresh data folder:
#   1. --version, also through a symlink (as /usr/bin/rabbithole from the .deb)
#   2. doctor: no LLM answers (that is reported, not a crash); the embedder, Qt and the data folder are ok
#   3. the window (QT_QPA_PLATFORM=offscreen) for N seconds: it keeps running, the Sample database is
#      there without indexing (installed from the prebuilt copy), then it is terminated and its child
#      processes end with it
#   4. the window again, quitting itself after N seconds: exit code 0; the time until it is shown;
#      and, when Xvfb is installed, once more on X11 (the xcb platform plugin) under Xvfb
#   5. the command line on the window's data: the Sample lists 5 laws, all embedded, searchable, and
#      its documents point into this installation; `kb check` is clean; Chroma in a child process
#      (as the window runs it) answers a dense search
#   6. the command line's first start: `kb list --db Sample` and a first `kb search`, timed
#   7. with --fallback: a copy without the prebuilt database indexes the sample from the PDFs (timed)
# --json FILE writes the timings. Exit code 0 when everything passed.
set -euo pipefail

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2; }
[ $# -ge 1 ] || usage
TARGET=$(realpath "$1"); shift
JSON="" FALLBACK=0 WINDOW_SECONDS=10
while [ $# -gt 0 ]; do
  case $1 in
    --json) JSON=$(realpath -m "$2"); shift 2 ;;
    --fallback) FALLBACK=1; shift ;;
    --window-seconds) WINDOW_SECONDS=$2; shift 2 ;;
    *) usage ;;
  esac
done

TMP=$(mktemp -d /tmp/rabbithole-smoke.XXXXXX)
STARTED_PIDS=()
cleanup() {
  for pid in "${STARTED_PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  rm -rf "$TMP"
}
trap cleanup EXIT

case "$TARGET" in
  *.deb)
    dpkg-deb -I "$TARGET" control | grep -q '^Package: rabbithole$' || { echo "FAIL: no control file" >&2; exit 1; }
    dpkg-deb -x "$TARGET" "$TMP/root"
    [ "$(readlink "$TMP/root/usr/bin/rabbithole")" = /opt/rabbithole/rabbithole ] || { echo "FAIL: /usr/bin/rabbithole" >&2; exit 1; }
    [ -f "$TMP/root/usr/share/applications/rabbithole.desktop" ] && [ -f "$TMP/root/usr/share/icons/hicolor/256x256/apps/rabbithole.png" ] ||
      { echo "FAIL: desktop entry or icon missing" >&2; exit 1; }
    APP_DIR=$TMP/root/opt/rabbithole ;;
  *.tar.gz)
    tar -C "$TMP" -xzf "$TARGET"
    APP_DIR=$(find "$TMP" -mindepth 1 -maxdepth 1 -type d -name 'rabbithole-*' | head -1)
    [ -x "$APP_DIR/install-desktop-entry.sh" ] && [ -f "$APP_DIR/share/rabbithole.desktop" ] ||
      { echo "FAIL: desktop entry files missing from the tarball" >&2; exit 1; } ;;
  *) APP_DIR=$TARGET ;;
esac
APP=$APP_DIR/rabbithole
[ -x "$APP" ] || { echo "FAIL: no program at $APP" >&2; exit 1; }

# Nothing of the real user's is read or written; the LLM address is one where nobody listens.
export HOME=$TMP/home XDG_CONFIG_HOME=$TMP/home/.config XDG_DATA_HOME=$TMP/home/.local/share \
  XDG_CACHE_HOME=$TMP/home/.cache XDG_STATE_HOME=$TMP/home/.local/state
export QT_QPA_PLATFORM=offscreen OLLAMA_HOST=http://127.0.0.1:9
unset RABBITHOLE_DATA_DIR
mkdir -p "$HOME"

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok    $*"; }
py() { "$APP" -c "$@"; }  # Python inside the bundle (packaging/entry.py)
no_traceback() { ! grep -q 'Traceback (most recent call last)' "$1" || { cat "$1" >&2; fail "$2 printed a traceback"; }; }
declare -A T

# 1. version ---------------------------------------------------------------------------------------
t=$(now); out=$("$APP" --version); T[version_s]=$(since "$t")
[[ $out == "rabbithole "* ]] || fail "--version said: $out"
mkdir -p "$TMP/bin"; ln -s "$APP" "$TMP/bin/rabbithole"
[ "$("$TMP/bin/rabbithole" --version)" = "$out" ] || fail "the program does not start through a symlink"
ok "$out (${T[version_s]} s), also through a symlink"

# 2. doctor ----------------------------------------------------------------------------------------
t=$(now); rc=0
"$APP" doctor --json --data-dir "$TMP/d-doctor" > "$TMP/doctor.json" 2> "$TMP/doctor.err" || rc=$?
T[doctor_s]=$(since "$t")
[ $rc -le 1 ] || { cat "$TMP/doctor.err" >&2; fail "doctor exited with $rc"; }
no_traceback "$TMP/doctor.err" doctor
py '
import json, sys
checks = {c["name"]: c for c in json.load(open(sys.argv[1]))}
for name in ("settings", "data folder", "offline embedder", "Qt"):
    assert checks[name]["level"] == "ok", checks.get(name)
llm = [c for n, c in checks.items() if n.startswith("LLM server")]
assert llm and llm[0]["level"] == "fail", llm
print("ok    doctor: " + "; ".join(f"{n} {c["level"]}" for n, c in checks.items()))
' "$TMP/doctor.json"

# 3. the window, terminated from outside -----------------------------------------------------------
D=$TMP/d-window
t=$(now)
"$APP" --data-dir "$D" > "$TMP/window.out" 2>&1 &
pid=$!; STARTED_PIDS+=("$pid")
while [ ! -f "$D/databases/Sample/catalog.sqlite" ]; do
  kill -0 "$pid" 2>/dev/null || { cat "$TMP/window.out" >&2; fail "the window exited before the Sample database was there"; }
  awk -v s="$(since "$t")" 'BEGIN { exit !(s > 120) }' && fail "no Sample database after 120 s"
  sleep 0.05
done
T[window_sample_ready_s]=$(since "$t")
while awk -v s="$(since "$t")" -v w="$WINDOW_SECONDS" 'BEGIN { exit !(s < w) }'; do
  kill -0 "$pid" 2>/dev/null || { cat "$TMP/window.out" >&2; fail "the window exited by itself"; }
  sleep 0.2
done
children=$(pgrep -P "$pid" || true)
STARTED_PIDS+=($children)
kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
for _ in $(seq 50); do
  alive=""; for c in $children; do kill -0 "$c" 2>/dev/null && alive="$alive $c"; done
  [ -z "$alive" ] && break; sleep 0.2
done
[ -z "$alive" ] || fail "child processes$alive outlived the window"
no_traceback "$TMP/window.out" "the window"
grep -q "installed the prebuilt sample database" "$D/logs/rabbithole.log" || { cat "$D/logs/rabbithole.log" >&2; fail "the Sample database was not installed from the prebuilt copy"; }
ok "window ran ${WINDOW_SECONDS} s; Sample database ready ${T[window_sample_ready_s]} s after the start, from the prebuilt copy; $(echo $children | wc -w) child process(es) ended with it"

# 4. the window, quitting by itself ----------------------------------------------------------------
D2=$TMP/d-window2
t=$(now); rc=0
py '
import sys, time
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication(["rabbithole"])
QTimer.singleShot(0, lambda: print(f"WINDOW_SHOWN {time.time():.3f}", flush=True))
QTimer.singleShot(int(float(sys.argv[2]) * 1000), app.quit)
from desktop.app import run_window
sys.exit(run_window(sys.argv[1]))
' "$D2" "$WINDOW_SECONDS" > "$TMP/window2.out" 2>&1 || rc=$?
[ $rc -eq 0 ] || { cat "$TMP/window2.out" >&2; fail "the window quit with exit code $rc"; }
no_traceback "$TMP/window2.out" "the window"
shown=$(awk '/^WINDOW_SHOWN/ { print $2 }' "$TMP/window2.out")
[ -n "$shown" ] || fail "the window was never shown"
T[window_start_s]=$(awk -v a="$t" -v b="$shown" 'BEGIN { printf "%.2f", b - a }')
[ -f "$D2/databases/Sample/catalog.sqlite" ] || fail "no Sample database after the second window run"
ok "window shown ${T[window_start_s]} s after the start; quit cleanly (exit code 0)"

# 4b. the window on X11 (the xcb platform plugin and the bundled xcb libraries), when Xvfb is here ------
if command -v Xvfb >/dev/null; then
  display=:$((100 + RANDOM % 400))
  Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp > "$TMP/xvfb.out" 2>&1 &
  xvfb=$!; STARTED_PIDS+=("$xvfb")
  sleep 1
  rc=0
  DISPLAY=$display QT_QPA_PLATFORM=xcb py '
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication(["rabbithole"])
QTimer.singleShot(0, lambda: print("PLATFORM", app.platformName(), flush=True))
QTimer.singleShot(4000, app.quit)
from desktop.app import run_window
sys.exit(run_window(sys.argv[1]))
' "$TMP/d-xcb" > "$TMP/xcb.out" 2>&1 || rc=$?
  kill "$xvfb" 2>/dev/null || true; wait "$xvfb" 2>/dev/null || true
  [ $rc -eq 0 ] && grep -q "^PLATFORM xcb" "$TMP/xcb.out" || { cat "$TMP/xcb.out" >&2; fail "the window did not run on X11 (xcb)"; }
  no_traceback "$TMP/xcb.out" "the window on X11"
  ok "window on X11 (xcb, under Xvfb) ran 4 s and quit cleanly"
else
  echo "skip  window on X11: Xvfb is not installed"
fi

# 5. the command line on the window's data ---------------------------------------------------------
"$APP" kb list --db Sample --json --data-dir "$D" > "$TMP/list.json"
"$APP" kb search "§ 78 StrlSchG" --db Sample --json --data-dir "$D" > "$TMP/search.json"
"$APP" kb check --db Sample --data-dir "$D" > "$TMP/check.out" 2>&1 || { cat "$TMP/check.out" >&2; fail "kb check"; }
py '
import json, os, sqlite3, sys
app_dir, data = os.path.realpath(sys.argv[3]), sys.argv[4]
docs = json.load(open(sys.argv[1]))
assert sorted(d["file_name"] for d in docs) == ["AtEV.pdf", "AtG.pdf", "NiSV.pdf", "StrlSchG.pdf", "StrlSchV.pdf"], docs
assert all(d["pending_embeddings"] == 0 and d["chunks"] > 0 for d in docs)
assert all(os.path.realpath(d["path"]).startswith(app_dir) and os.path.isfile(d["path"]) for d in docs), [d["path"] for d in docs]
hits = json.load(open(sys.argv[2]))
assert (hits[0]["doc"], hits[0]["section"]) == ("StrlSchG.pdf", "§ 78"), hits[0]
cache = os.path.join(data, "cache", "embeddings.sqlite")
embedded = sqlite3.connect(cache).execute("SELECT COUNT(*) FROM vectors").fetchone()[0] if os.path.exists(cache) else 0
assert embedded == 0, f"{embedded} passages were embedded: the sample was indexed"
print(f"ok    kb list: {len(docs)} laws, {sum(d["chunks"] for d in docs)} chunks, all embedded, paths in the installation; "
      f"kb search finds § 78 StrlSchG first; nothing was embedded")
' "$TMP/list.json" "$TMP/search.json" "$APP_DIR" "$D"

# 5b. the window's vector store process (Chroma in a child process started through this program) ------
py '
import sys
from desktop.kb.database import KnowledgeBase
from desktop.kb.vector_process import VectorStoreProcess, serve_vectors_from_child_process
from desktop.paths import resolve_paths
from desktop.settings import load_settings
serve_vectors_from_child_process(True)
paths = resolve_paths(sys.argv[1])
with KnowledgeBase.open(paths, load_settings(paths), "Sample") as kb:
    assert isinstance(kb.vectors, VectorStoreProcess)
    hits = kb.search("Grenzwerte für beruflich exponierte Personen", k=5, mode="dense")
assert hits and all(h.doc.endswith(".pdf") for h in hits), hits
print(f"ok    vector store in a child process: dense search found {hits[0].doc} p. {hits[0].page} ({hits[0].section})")
' "$D"

# 6. the command line's first start ----------------------------------------------------------------
t=$(now); "$APP" kb list --db Sample --json --data-dir "$TMP/d-cli" > "$TMP/list2.json" 2> "$TMP/list2.err"
T[cli_first_kb_list_s]=$(since "$t")
no_traceback "$TMP/list2.err" "kb list"
t=$(now); "$APP" kb search "Aufbewahrungsfrist für Aufzeichnungen" --db Sample --json --data-dir "$TMP/d-cli2" > "$TMP/s2.json" 2> "$TMP/s2.err"
T[cli_first_search_s]=$(since "$t")
t=$(now); "$APP" kb search "Aufbewahrungsfrist für Aufzeichnungen" --db Sample --json --data-dir "$TMP/d-cli2" > "$TMP/s3.json"
T[cli_second_search_s]=$(since "$t")
py 'import json, sys; assert len(json.load(open(sys.argv[1]))) == 5 and json.load(open(sys.argv[2]))' "$TMP/list2.json" "$TMP/s2.json"
ok "first start of the command line: kb list ${T[cli_first_kb_list_s]} s, first kb search ${T[cli_first_search_s]} s (again: ${T[cli_second_search_s]} s)"

# 7. without the prebuilt database -----------------------------------------------------------------
if [ $FALLBACK = 1 ]; then
  cp -al "$APP_DIR" "$TMP/no-prebuilt"   # hard links; removing the copy's prebuilt folder leaves the original
  rm -rf "$TMP/no-prebuilt/_internal/kb/prebuilt"
  t=$(now); "$TMP/no-prebuilt/rabbithole" kb list --db Sample --json --data-dir "$TMP/d-fallback" > "$TMP/list3.json" 2> "$TMP/list3.err"
  T[fallback_first_kb_list_s]=$(since "$t")
  no_traceback "$TMP/list3.err" "kb list without the prebuilt database"
  py 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d) == 5 and all(x["pending_embeddings"] == 0 for x in d), d' "$TMP/list3.json"
  ok "without the prebuilt database the first start indexes the sample: ${T[fallback_first_kb_list_s]} s"
fi

if [ -n "$JSON" ]; then
  {
    echo "{"
    echo "  \"target\": \"$(basename "$TARGET")\","
    echo "  \"window_seconds\": $WINDOW_SECONDS,"
    n=0; for k in "${!T[@]}"; do n=$((n + 1)); echo "  \"$k\": ${T[$k]}$([ $n -lt ${#T[@]} ] && echo ,)"; done
    echo "}"
  } > "$JSON"
fi
echo "PASS  $(basename "$TARGET")"
