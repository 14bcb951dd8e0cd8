#!/usr/bin/env bash
# Installs what building, running and testing PaperTree needs, and only what is
# missing, so that it is cheap to call before every build:
#   - Debian packages (GTK/WebKitGTK 4.1 headers for Wails, SQLite headers for
#     sqlite-vec, Xvfb + ImageMagick + x11-utils for the window smoke test,
#     poppler-utils for PDF fixtures and OCR page images, tesseract-ocr with
#     English for OCR of scans, img2pdf for the OCR tests' image-only PDFs),
#   - the Wails CLI pinned to the version in go.mod (@latest resolves to a
#     release that does not build with this Go),
#   - the frontend's npm packages from the committed lockfile (npm ci),
#   - only for the end-to-end tests (step e2e, not part of the default):
#     Debian's chromium and e2e/'s npm packages (playwright-core drives that
#     chromium; it never downloads a browser of its own).
# Usage: scripts/deps.sh [system|wails|frontend|e2e]...   (no argument: the first three)
set -euo pipefail
cd "$(dirname "$0")/.."

WAILS_VERSION=v2.16.0
APT_PACKAGES=(
  build-essential pkg-config
  libgtk-3-dev libwebkit2gtk-4.1-dev libsqlite3-dev
  xvfb xauth x11-utils imagemagick
  poppler-utils
  tesseract-ocr tesseract-ocr-eng img2pdf
)

log() { printf 'deps: %s\n' "$*" >&2; }

# Installs Debian packages (arguments) that are not installed yet.
apt_install_missing() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    local sudo=()
    if [ "$(id -u)" != 0 ]; then sudo=(sudo); fi
    log "installing Debian packages: ${missing[*]}"
    "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

system() {
  apt_install_missing "${APT_PACKAGES[@]}"
  command -v go >/dev/null || { log "Go is not installed (need the version in go.mod)"; exit 1; }
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    log "Node.js >= 20.19 with npm is required (Vite 7); install it and run again"
    exit 1
  fi
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' ||
    { log "Node.js $(node --version) is too old: Vite 7 needs >= 20.19"; exit 1; }
}

wails_bin() { echo "$(go env GOPATH | cut -d: -f1)/bin/wails"; }

wails() {
  local bin; bin=$(wails_bin)
  # Read the whole output first: with pipefail, grep -q closing the pipe early
  # would make the check fail.
  if [ -x "$bin" ] && [[ $'\n'"$("$bin" version 2>/dev/null || true)"$'\n' == *$'\n'"$WAILS_VERSION"$'\n'* ]]; then return; fi
  log "installing the Wails CLI $WAILS_VERSION"
  GOFLAGS= go install "github.com/wailsapp/wails/v2/cmd/wails@$WAILS_VERSION"
}

frontend() {
  # npm ci only when the lockfile changed since the last install.
  local stamp=frontend/node_modules/.papertree-lock-stamp
  if [ -f "$stamp" ] && cmp -s frontend/package-lock.json "$stamp"; then return; fi
  log "installing frontend packages (npm ci)"
  (cd frontend && npm ci --no-audit --no-fund --loglevel=error)
  cp frontend/package-lock.json "$stamp"
}

e2e() {
  apt_install_missing chromium
  # Same scheme as frontend: npm ci only when e2e/package-lock.json changed.
  local stamp=e2e/node_modules/.papertree-lock-stamp
  if [ -f "$stamp" ] && cmp -s e2e/package-lock.json "$stamp"; then return; fi
  log "installing e2e packages (npm ci)"
  (cd e2e && npm ci --no-audit --no-fund --loglevel=error)
  cp e2e/package-lock.json "$stamp"
}

if (($# == 0)); then set -- system wails frontend; fi
for step in "$@"; do
  case "$step" in
    system | wails | frontend | e2e) "$step" ;;
    *) log "unknown step $step"; exit 2 ;;
  esac
done
