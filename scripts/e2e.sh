#!/usr/bin/env bash
# End-to-end tests of the desktop app: the real Go backend, the real frontend,
# driven by Debian's chromium through playwright-core (e2e/).
#
# How: a browser can only reach the Go bindings through the Wails dev server
# (the production binary talks to its own webview only). `wails dev` is the
# documented way to get one, but it also starts Vite, rewrites
# frontend/wailsjs and build/bin/papertree-app in the working tree and always
# takes port 34115. So this script does what `wails dev` does underneath:
# it builds the same binary with the `dev` build tag (into a temp dir) and
# starts it with the environment wails dev passes (assetdir = the built
# frontend, devserver = a free local port). The page, its /wails/ipc.js and
# window.go bindings are then served exactly as under `wails dev`.
#
# Steps: install what is missing (chromium, e2e npm packages), build the
# frontend and the dev binary, write the fixture papers (two PDFs from
# backend/pdf/testdata and a generated one with hostile markup) into a temp
# folder that the library remembers (folders.json), start Xvfb on a free
# display and the app on it with --library, wait for the dev server, run
# `node --test` in e2e/, and stop everything it started (trap). Screenshots
# and the app log go to build/e2e/.
#
# Usage: scripts/e2e.sh   (the steps build on each other, so they always run together)
# Env:   E2E_PORT (default: first free from 34115), E2E_READY_TIMEOUT (s, 480),
#        E2E_KEEP=1 keeps the temp dir (printed) for debugging.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

out=$root/build/e2e
ready_timeout=${E2E_READY_TIMEOUT:-480}
tags="dev webkit2_41 sqlite_fts5"

log() { printf 'e2e: %s\n' "$*" >&2; }

scripts/deps.sh system frontend e2e
command -v Xvfb >/dev/null || { log "Xvfb missing (scripts/deps.sh system installs it)"; exit 1; }
[ -x /usr/bin/chromium ] || { log "/usr/bin/chromium missing (scripts/deps.sh e2e installs it)"; exit 1; }

mkdir -p "$out"
rm -f "$out"/*.png "$out"/app.log
# Screenshots and logs are test output, never to be committed.
printf '*\n' >"$out/.gitignore"
work=$(mktemp -d /tmp/papertree-e2e.XXXXXX)
xvfb_pid="" app_pid="" build_pid="" tests_pid=""

stop() { # stop PID: TERM, then KILL after 5 s
  local pid=$1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}
cleanup() {
  stop "$tests_pid"
  stop "$build_pid"
  stop "$app_pid"
  stop "$xvfb_pid"
  [ -f "$work/app.log" ] && cp "$work/app.log" "$out/app.log"
  if [ "${E2E_KEEP:-}" = 1 ]; then log "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

t0=$SECONDS
# 1. Build: the frontend bundle (what the dev server serves) and the binary.
log "building the frontend"
(cd frontend && npm run build --silent >"$work/vite.log" 2>&1) || { cat "$work/vite.log" >&2; log "frontend build failed"; exit 1; }
log "building the app with -tags \"$tags\" (a cold build takes a few minutes)"
go build -tags "$tags" -o "$work/papertree-app-dev" . &
build_pid=$!
next=$((SECONDS + 15))
while kill -0 "$build_pid" 2>/dev/null; do
  sleep 0.5
  if ((SECONDS >= next)); then log "still building ($((SECONDS - t0))s)"; next=$((SECONDS + 15)); fi
done
wait "$build_pid" || { build_pid=""; log "go build failed"; exit 1; }
build_pid=""
log "built in $((SECONDS - t0))s"

# 2. Fixtures: a folder of papers the library remembers, so that the app
#    indexes it on start (as after "Open a folder" in an earlier session).
papers=$work/papers library=$work/library home=$work/home
mkdir -p "$papers" "$library" "$home/.config" "$home/.local/share" "$home/.cache"
cp backend/pdf/testdata/twocolumn.pdf backend/pdf/testdata/encrypted.pdf "$papers/"
go run ./e2e/xsspdf "$papers/markup-injection.pdf"
printf '{\n  "folders": ["%s"]\n}\n' "$papers" >"$library/folders.json"

# A private display and a free port.
display=""
for n in $(seq 90 140); do
  if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=":$n"; break; fi
done
[ -n "$display" ] || { log "no free X display in :90-:140"; exit 1; }
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=${E2E_PORT:-}
if [ -z "$port" ]; then
  for p in $(seq 34115 34160); do
    if port_free "$p"; then port=$p; break; fi
  done
fi
[ -n "$port" ] && port_free "$port" || { log "port ${port:-34115-34160} is in use"; exit 1; }

Xvfb "$display" -screen 0 1280x860x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 100); do
  [ -e "/tmp/.X11-unix/X${display#:}" ] && break
  kill -0 "$xvfb_pid" 2>/dev/null || { cat "$work/xvfb.log" >&2; log "Xvfb did not start"; exit 1; }
  sleep 0.1
done

# 3. The app, isolated from the user's settings, keyring and data (HOME and
#    XDG dirs in the temp dir; --settings when this build has the flag).
app_args=(--library "$library")
if "$work/papertree-app-dev" -h 2>&1 | grep -q -- '-settings'; then
  app_args+=(--settings "$work/settings.json")
fi
log "starting the app on $display, dev server http://127.0.0.1:$port, library $library"
env -u DBUS_SESSION_BUS_ADDRESS DISPLAY="$display" HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" \
  XDG_CACHE_HOME="$home/.cache" \
  assetdir="$root/frontend/dist" devserver="127.0.0.1:$port" frontenddevserverurl="" \
  "$work/papertree-app-dev" "${app_args[@]}" >"$work/app.log" 2>&1 &
app_pid=$!
deadline=$((SECONDS + ready_timeout))
until ! port_free "$port"; do
  if ! kill -0 "$app_pid" 2>/dev/null; then tail -n 40 "$work/app.log" >&2; log "the app exited before serving"; exit 1; fi
  ((SECONDS < deadline)) || { tail -n 40 "$work/app.log" >&2; log "no dev server on port $port after ${ready_timeout}s"; exit 1; }
  sleep 0.2
done
log "dev server up after $((SECONDS - t0))s"

# 4. The tests. They read the fixture locations from the environment.
# (In the background and waited for, so that a TERM runs the trap at once.)
(
  cd e2e
  export E2E_URL="http://127.0.0.1:$port/" E2E_PAPERS="$papers" E2E_LIBRARY="$library" \
    E2E_SHOTS="$out" E2E_APP_LOG="$work/app.log" E2E_ROOT="$root" E2E_HOME="$home" E2E_WORK="$work"
  exec node --test --test-concurrency=1 --test-reporter=spec tests/
) &
tests_pid=$!
rc=0
wait "$tests_pid" || rc=$?
tests_pid=""
if ! kill -0 "$app_pid" 2>/dev/null; then log "the app died during the tests"; rc=1; fi
if grep -qi "panic" "$work/app.log"; then grep -i -m5 -A5 "panic" "$work/app.log" >&2; log "the app log reports a panic"; rc=1; fi
log "screenshots and app log in ${out#"$root"/}/ ($((SECONDS - t0))s in all)"
exit $rc
