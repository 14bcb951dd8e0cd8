#!/usr/bin/env bash
# Builds the Debian package build/papertree_<version>_<arch>.deb from the
# built binaries: the desktop app and the CLI in /usr/bin, a desktop entry,
# the icon, and the runtime libraries as Depends (computed with
# dpkg-shlibdeps from the binaries, so they match what was linked). OCR of
# scans runs the tesseract and pdftoppm programs when they are there: they
# are Recommends, so the app installs and works without them.
# Install with: sudo apt install ./build/papertree_*.deb
# Usage: scripts/package.sh APP CLI VERSION
set -euo pipefail
cd "$(dirname "$0")/.."

app=${1:-build/bin/papertree-app}
cli=${2:-bin/papertree}
version=${3:-0.1.0}
for f in "$app" "$cli"; do [ -x "$f" ] || { echo "package: $f not built (run make build)" >&2; exit 1; }; done
command -v dpkg-deb >/dev/null || { echo "package: dpkg-deb missing" >&2; exit 1; }

# Debian versions must start with a digit and may not hold '_' or '/'.
deb_version=$(printf '%s' "$version" | sed 's/^v//; s/[^A-Za-z0-9.+~-]/~/g')
[[ $deb_version =~ ^[0-9] ]] || deb_version="0.0.0+$deb_version"
arch=$(dpkg --print-architecture)
out="build/papertree_${deb_version}_${arch}.deb"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/root"
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/applications" \
  "$root/usr/share/icons/hicolor/512x512/apps" "$root/usr/share/doc/papertree"
install -m 0755 "$app" "$root/usr/bin/papertree-app"
install -m 0755 "$cli" "$root/usr/bin/papertree"
strip --strip-unneeded "$root/usr/bin/papertree-app" "$root/usr/bin/papertree" 2>/dev/null || true
install -m 0644 build/appicon.png "$root/usr/share/icons/hicolor/512x512/apps/papertree.png"
cat >"$root/usr/share/applications/papertree.desktop" <<DESKTOP
[Desktop Entry]
Type=Application
Name=PaperTree
GenericName=Paper library
Comment=Ask questions about your papers and see where every answer comes from
Exec=papertree-app %F
Icon=papertree
Terminal=false
Categories=Office;Education;Science;
MimeType=inode/directory;
Keywords=pdf;papers;research;zotero;bibtex;
StartupWMClass=papertree-app
DESKTOP
cat >"$root/usr/share/doc/papertree/copyright" <<COPY
PaperTree: see the project README for licences. The package contains the
PaperTree desktop app (papertree-app) and command-line interface (papertree).
COPY
# The binaries embed a table derived from WordNet 3.0 (yes/no verdicts): its
# licence asks for the notice to go with every copy.
{ printf '\nThird-party data\n\n'; cat backend/answer/internal/wordnet/LICENSE-WORDNET; } >>"$root/usr/share/doc/papertree/copyright"

# Runtime dependencies of the binaries (WebKitGTK, GTK, GLib, libc).
depends=""
mkdir -p "$stage/debian"
printf 'Source: papertree\n\nPackage: papertree\nArchitecture: any\n' >"$stage/debian/control"
if command -v dpkg-shlibdeps >/dev/null; then
  depends=$(cd "$stage" && dpkg-shlibdeps -O -e "$root/usr/bin/papertree-app" -e "$root/usr/bin/papertree" 2>/dev/null |
    sed -n 's/^shlibs:Depends=//p')
fi
if [ -z "$depends" ]; then # no dpkg-dev: what Debian 12's WebKitGTK 4.1 build links
  depends="libc6 (>= 2.34), libglib2.0-0 (>= 2.16.0), libgtk-3-0 (>= 3.21.4), libjavascriptcoregtk-4.1-0, libsoup-3.0-0, libwebkit2gtk-4.1-0 (>= 2.39.91)"
fi
size=$(du -sk "$root/usr" | cut -f1)
cat >"$root/DEBIAN/control" <<CONTROL
Package: papertree
Version: $deb_version
Architecture: $arch
Maintainer: PaperTree maintainers <maintainers@papertree.invalid>
Installed-Size: $size
Depends: $depends
Recommends: xdg-utils, tesseract-ocr, tesseract-ocr-eng, poppler-utils
Section: science
Priority: optional
Homepage: https://github.com/papertree/papertree
Description: structure-aware library for research papers
 PaperTree turns each paper PDF into a tree of its own sections, answers
 questions about one paper or many with highlighted evidence paths, imports
 Zotero libraries and BibTeX files, and exports answers as reports.
 Everything runs locally; no model or network is required.
CONTROL
mkdir -p "$(dirname "$out")"
dpkg-deb --root-owner-group --build "$root" "$out" >/dev/null
echo "package: built $out ($(du -h "$out" | cut -f1)); Depends: $depends"
