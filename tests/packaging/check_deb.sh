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
deb=$(ls "$work"/out/costscope_*.deb)
echo "package: $(basename "$deb")"
cuda_deb=$(ls "$work"/out/costscope-cuda_*.deb 2>/dev/null || true)

depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
[[ "$depends" == *libc6* ]] || { echo "FAIL: Depends was not derived by dpkg-shlibdeps (no libc6)"; exit 1; }
[[ "$depends" == *libqt6widgets6* ]] || { echo "FAIL: Depends lacks Qt 6 Widgets although the GUI is packaged"; exit 1; }

[[ "$depends" != *cuda* ]] || { echo "FAIL: the main package depends on CUDA"; exit 1; }

root="$work/root"
dpkg-deb -x "$deb" "$root"
# Nothing in the main package may link the CUDA libraries: it must install and start on a machine without CUDA.
while IFS= read -r -d '' f; do
  if file -b "$f" | grep -q '^ELF' && readelf -d "$f" | grep -qE 'NEEDED.*(libcudart|libcublas|libcufft)'; then
    echo "FAIL: ${f#"$root"} in the main package links CUDA"; exit 1
  fi
done < <(find "$root" -type f -print0)
plugins="$root/usr/lib/costscope/plugins"
[ -f "$plugins/libcostscope_backend_vulkan.so" ] || [ -z "$(ls "$build"/plugins/libcostscope_backend_vulkan.so 2>/dev/null)" ] || \
  { echo "FAIL: the Vulkan backend plugin is not in the main package"; exit 1; }
[ -f "$plugins/libcostscope_renderer.so" ] || { echo "FAIL: the renderer plugin is not in the main package"; exit 1; }
# What the binaries load on first use instead of linking (cmake/CostscopePlugins.cmake: costscope_library_plugin).
for plugin in "$build"/plugins/libcostscope_{network,onnx,train}.so; do
  [ ! -f "$plugin" ] || [ -f "$plugins/$(basename "$plugin")" ] || \
    { echo "FAIL: $(basename "$plugin") is not in the main package"; exit 1; }
done
devices=$("$root/usr/bin/costscope-cli" devices)
echo "$devices"
echo "$devices" | grep -q "^cuda: unavailable: libcostscope_backend_cuda.so is not installed" || \
  { echo "FAIL: without costscope-cuda the installed CLI should list CUDA as not installed"; exit 1; }
if [ -n "$cuda_deb" ]; then
  echo "package: $(basename "$cuda_deb")"
  cuda_depends=$(dpkg-deb -f "$cuda_deb" Depends)
  echo "Depends: $cuda_depends"
  [[ "$cuda_depends" == *"costscope (= "* ]] || { echo "FAIL: costscope-cuda does not depend on costscope"; exit 1; }
  dpkg-deb -x "$cuda_deb" "$root"
  [ -f "$plugins/libcostscope_backend_cuda.so" ] || { echo "FAIL: the CUDA plugin is not in costscope-cuda"; exit 1; }
  "$root/usr/bin/costscope-cli" devices --json | grep -A2 '"name": "cuda"' | grep -q '"available": true' || \
    { echo "FAIL: with costscope-cuda installed the CUDA backend does not load"; exit 1; }
fi
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
