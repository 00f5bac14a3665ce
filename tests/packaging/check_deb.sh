#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the .deb from a configured build tree, checks its metadata and desktop files, installs it into a scratch
# root and runs the installed costscope-cli on a shared graph.
# usage: check_deb.sh BUILD_DIR SHARED_DIR
set -euo pipefail
build=$1
shared=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$build" && cpack -G DEB -B "$work/out" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/out/*.deb)
echo "package: $(basename "$deb")"

depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
[[ "$depends" == *libc6* ]] || { echo "FAIL: Depends was not derived by dpkg-shlibdeps (no libc6)"; exit 1; }
[[ "$depends" == *libqt6widgets6* ]] || { echo "FAIL: Depends lacks Qt 6 Widgets although the GUI is packaged"; exit 1; }

root="$work/root"
dpkg-deb -x "$deb" "$root"
app=io.costscope.Costscope
for f in usr/bin/costscope usr/bin/costscope-cli usr/share/applications/$app.desktop \
         usr/share/metainfo/$app.metainfo.xml usr/share/mime/packages/$app.xml \
         usr/share/icons/hicolor/scalable/apps/$app.svg usr/share/icons/hicolor/48x48/apps/$app.png; do
  [ -e "$root/$f" ] || { echo "FAIL: $f is not in the package"; exit 1; }
done
desktop-file-validate "$root/usr/share/applications/$app.desktop"
appstreamcli validate --no-net --pedantic "$root/usr/share/metainfo/$app.metainfo.xml" || \
  appstreamcli validate --no-net "$root/usr/share/metainfo/$app.metainfo.xml"

version=$("$root/usr/bin/costscope-cli" --version)
echo "installed: $version"
[[ "$version" == "costscope-cli "* ]] || { echo "FAIL: --version printed '$version'"; exit 1; }
if [ -d "$shared/data/rlx" ]; then
  out=$("$root/usr/bin/costscope-cli" info "$shared/data/rlx/mnist.hir.json")
  echo "$out" | grep -q "^nodes: *22$" || { echo "FAIL: installed costscope-cli info gave:"; echo "$out"; exit 1; }
else
  echo "shared/ not found: skipped running the installed CLI on a shared graph"
fi
echo "1 passed, 0 failed"
