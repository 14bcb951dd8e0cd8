#!/usr/bin/env bash
# Tests the Debian package: its metadata and contents, that its Depends are
# satisfied on this system, then it installs it (apt install ./...deb, as a
# researcher would) and starts both binaries: `--version` of each and the
# app's window under Xvfb (scripts/smoke.sh against /usr/bin/papertree-app).
# Installing needs root; without root, or with PACKAGE_TEST_INSTALL=0, the
# package is unpacked into a temporary root instead and run from there.
# Usage: scripts/package-test.sh [build/papertree_*.deb]
set -euo pipefail
cd "$(dirname "$0")/.."

deb=${1:-$(ls -t build/papertree_*.deb 2>/dev/null | head -1)}
[ -n "$deb" ] && [ -f "$deb" ] || { echo "package-test: no .deb (run make package)" >&2; exit 1; }
fail() { echo "package-test: FAIL: $*" >&2; exit 1; }

info=$(dpkg-deb --info "$deb")
for field in "Package: papertree" "Depends: .*libwebkit2gtk-4.1-0" "Depends: .*libgtk-3-0"; do
  grep -Eq "$field" <<<"$info" || fail "control lacks $field"
done
contents=$(dpkg-deb --contents "$deb")
for f in ./usr/bin/papertree-app ./usr/bin/papertree ./usr/share/applications/papertree.desktop ./usr/share/icons/hicolor/512x512/apps/papertree.png; do
  grep -q " $f\$" <<<"$contents" || fail "the package lacks $f"
done
# The WordNet notice the embedded synonym table's licence asks for.
# (read whole first: grep -q would close the pipe early, a SIGPIPE pipefail counts as a failure)
copyright=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/doc/papertree/copyright) ||
  fail "the package lacks ./usr/share/doc/papertree/copyright"
grep -q "WordNet Release 3.0" <<<"$copyright" || fail "the copyright file lacks the WordNet licence"
# Every dependency is installed here (so installing needs no download; apt-get's
# --no-download is not used: with a local .deb it fails with "Pathname to install is not absolute").
deps=$(dpkg-deb --field "$deb" Depends | tr ',' '\n' | sed 's/(.*//; s/|.*//; s/ //g' | grep -v '^$')
for d in $deps; do
  dpkg-query -W -f='${Status}' "$d" 2>/dev/null | grep -q "install ok installed" || fail "dependency $d is not installed"
done
echo "package-test: $deb: control, contents and $(wc -w <<<"$deps") dependencies ok"
if [ "$(id -u)" = 0 ]; then # dpkg's own checks (conflicts, dependencies), changing nothing
  dpkg --dry-run -i "$deb" >/dev/null 2>"$(dirname "$deb")/dpkg-dry-run.log" || { cat "$(dirname "$deb")/dpkg-dry-run.log" >&2; fail "dpkg --dry-run -i refuses the package"; }
fi

prefix=""
installed=0
if [ "$(id -u)" = 0 ] && [ "${PACKAGE_TEST_INSTALL:-1}" = 1 ] && command -v apt-get >/dev/null; then
  apt-get install -y "./$deb" >/tmp/papertree-package-install.log 2>&1 ||
    { tail -20 /tmp/papertree-package-install.log >&2; fail "apt install ./$deb failed"; }
  installed=1
  echo "package-test: installed with apt"
else
  prefix=$(mktemp -d)
  trap 'rm -rf "$prefix"' EXIT
  dpkg-deb -x "$deb" "$prefix"
  echo "package-test: unpacked into $prefix (not installed: not root, or PACKAGE_TEST_INSTALL=0)"
fi
cleanup() { if [ "$installed" = 1 ] && [ "${PACKAGE_TEST_KEEP:-0}" != 1 ]; then apt-get remove -y papertree >/dev/null 2>&1 || true; fi; }
trap 'cleanup; [ -n "$prefix" ] && rm -rf "$prefix"' EXIT

app="$prefix/usr/bin/papertree-app"
cli="$prefix/usr/bin/papertree"
"$cli" version | grep -q "^papertree " || fail "papertree version"
"$app" --version | grep -q "^papertree-app " || fail "papertree-app --version"
echo "package-test: $("$cli" version); $("$app" --version)"
[ "$installed" = 1 ] && { command -v papertree-app >/dev/null || fail "papertree-app is not on PATH after install"; }
desktop-file-validate "$prefix/usr/share/applications/papertree.desktop" 2>/dev/null || true
scripts/smoke.sh "$app" build/smoke/package-window.png
echo "package-test: ok"
