#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes the git-ignored folders that scripts/device_gpu_checks.sh reads on the GPU machine (which has no package
# registry): .carry (headers, cudnn_frontend's included, glslc, XGBoost and ONNX packages, the shared graphs) and .gl
# (the Vulkan and GL loaders). Run it here, in the repository's root, once per fresh checkout; it needs this
# machine's apt sources.
# With a built CLI (CLI=build/ci/app/costscope-cli, the default when it exists) it also writes .carry/evalset: the
# RLX examples, the light ONNX models and the exported transformers as RLX HIR JSON, for `evaluate` on a GPU build
# that has no ONNX importer.
set -euo pipefail
shared="${SHARED:-../shared}"
carry=.carry
mkdir -p "$carry"/{include,bin,lib,xgboost,debs,rlx,onnxdata,run} .gl /tmp/amd64/partial

cp -r /usr/include/nlohmann /usr/include/vulkan "$carry/include/"
# cudnn_frontend's headers (the CUDA backend's cuDNN SDPA), fetched into .deps/ when not there yet.
scripts/fetch_cudnn_frontend.sh
[ -f .deps/cudnn_frontend/include/cudnn_frontend.h ] && cp -r .deps/cudnn_frontend/include/. "$carry/include/"
[ -d /usr/include/vk_video ] && cp -r /usr/include/vk_video "$carry/include/"
cp /usr/bin/glslc "$carry/bin/"
cp -L /lib/x86_64-linux-gnu/libshaderc.so.1 "$carry/lib/"

apt_opts=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64)
apt-get "${apt_opts[@]}" update -qq
download() { # download DIR PACKAGE...: the .debs of these packages into DIR (cached: kept when already there)
    local dir=$1
    shift
    (cd "$dir" && for p in "$@"; do compgen -G "${p}_*.deb" >/dev/null || apt-get "${apt_opts[@]}" download -qq "$p"; done)
}
download "$carry/debs" libonnx1 libonnx-dev libonnxifi libprotobuf-dev
download .gl libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2
xgb_debs="$(mktemp -d)"
download "$xgb_debs" libxgboost0 libxgboost-dev libdmlc0
for f in "$xgb_debs"/*.deb; do dpkg -x "$f" "$carry/xgboost"; done
rm -rf "$xgb_debs"

cp "$shared"/data/rlx/* "$carry/rlx/"
cp -r "$shared"/data/onnx/light "$carry/onnxdata/"
mkdir -p "$carry/onnx" && cp "$shared"/data/onnx/transformers/*.onnx "$carry/onnx/"
# The ONNX node cases (13 MB) only the conformance bundle stage reads: CARRY_NODE=1 takes them along.
[ "${CARRY_NODE:-0}" = 1 ] && cp -r "$shared"/data/onnx/node "$carry/onnxdata/"
# The generated ONNX node suite (scripts/conformance.sh generate; 56 MB, 7 MB packed) for the conformance-cuda stage,
# only where it exists here.
suite="${COSTSCOPE_CONFORMANCE_DIR:-.conformance}"
[ -d "$suite/node" ] && tar -C "$suite" -czf "$carry/conformance_node.tar.gz" node

cli="${CLI:-build/ci/app/costscope-cli}"
if [ -x "$cli" ]; then
    mkdir -p "$carry"/evalset/{rlx,light,transformers}
    cp "$shared"/data/rlx/*.hir.json "$carry/evalset/rlx/"
    for kind in light transformers; do
        for f in "$shared"/data/onnx/"$kind"/*.onnx; do
            "$cli" convert "$f" "$carry/evalset/$kind/$(basename "${f%.onnx}").hir.json"
        done
    done
fi
du -sh "$carry" .gl
