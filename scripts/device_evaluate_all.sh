#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The GPU machine's one-call check of issues 20 and 21 (device tool; run from the repository root with .carry and .gl
# carried, made by scripts/prepare_device_carry.sh): one build (CUDA + Vulkan + ONNX, no GUI; onnx_node_runner too, for
# a later scripts/device_gpu_checks.sh conformance-cuda in the same session), then by priority:
# the carried graphs in .carry/graphs (if any) on CUDA against the CPU backend with per-node times,
# bench_cuda_sixteen_bit (attention with cuDNN's SDPA and with our kernels), `calibrate` + `evaluate` (leave-one-family-out) on Vulkan (zoo and RLX examples) and on
# CUDA (also the light ONNX models and the exported transformers). At most 8 files in $OUT (the device tool's
# limit), each written when its step ends, so that a call stopped at its limit still returns what finished.
# Took 306 s on an H200 (2026-11-28).
set -uo pipefail
root=$(pwd); carry=$root/.carry; out=${OUT:-/tmp/out}; mkdir -p $out
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p /opt/onnx; for f in $carry/debs/*.deb; do dpkg -x $f /opt/onnx; done
onnx_lib=/opt/onnx/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$carry/lib:$carry/xgboost/usr/lib/x86_64-linux-gnu:$onnx_lib
t0=$(date +%s)
cmake -S . -B build-x -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOSTSCOPE_WITH_GUI=OFF \
  -DCOSTSCOPE_NLOHMANN_INCLUDE=$carry/include -DCOSTSCOPE_CUDNN_FRONTEND_INCLUDE=$carry/include \
  -DCOSTSCOPE_CUDA_ARCHITECTURES=90 -DCOSTSCOPE_XGBOOST_ROOT=$carry/xgboost \
  -DVulkan_INCLUDE_DIR=$carry/include -DVulkan_LIBRARY=/usr/lib/x86_64-linux-gnu/libvulkan.so.1 -DGLSLC_EXECUTABLE=$carry/bin/glslc \
  -DONNX_DIR=$onnx_lib/cmake/ONNX -DProtobuf_INCLUDE_DIR=/opt/onnx/usr/include -DProtobuf_LIBRARY=/usr/lib/x86_64-linux-gnu/libprotobuf.so.32 >/tmp/cmake.log 2>&1 || { tail -30 /tmp/cmake.log; exit 1; }
cmake --build build-x -j16 --target costscope-cli costscope_backend_cuda costscope_backend_vulkan bench_cuda_sixteen_bit onnx_node_runner >/tmp/build.log 2>&1 || { grep -m5 -B2 -A12 "error" /tmp/build.log; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"; grep -m1 "cuDNN SDPA" /tmp/cmake.log
cli=build-x/app/costscope-cli
for g in $carry/graphs/*.hir.json; do
  [ -f "$g" ] || continue
  echo "== $(basename $g)"
  timeout 60 $cli run $g --backend cuda --runs 20 --reference cpu --per-node 2>&1 | grep -iE "check|differ|error|Pool|whole|total" | head -6
done
t0=$(date +%s)
timeout ${SIXTEEN_TIMEOUT:-240} build-x/tests/bench/bench_cuda_sixteen_bit > $out/sixteen.log 2>&1; echo "sixteen exit $? $(( $(date +%s) - t0 )) s"
grep -E "^(FAIL|ATTN|KERNEL|TIME attention|TIME fp8)|attention in|Casts|fp8 GEMMs" $out/sixteen.log | head -80
grep -cE "^PASS" $out/sixteen.log
summ() { python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for m in r["models"]:
    g, n = m["graphs"], m["nodes"]
    print(f'{sys.argv[2]} {m["model"]:27s} graphs {g["count"]:4d} ±10% {100*g["within_10"]:5.1f} ±25% {100*g["within_25"]:5.1f} MAPE {g["mape"]:6.1f} | nodes {n["count"]:5d} ±25% {100*n["within_25"]:5.1f}')
PY
}
mkdir -p /tmp/ev; cp $carry/rlx/*.hir.json /tmp/ev/; cp $carry/onnxdata/light/*.onnx $carry/onnx/*.onnx /tmp/ev/
t0=$(date +%s)
timeout 110 $cli calibrate --backend vulkan > $out/cal-vk.log 2>&1; echo "calibrate vulkan rc $? $(( $(date +%s) - t0 )) s"; grep -E "whole graph|attention" $out/cal-vk.log
t0=$(date +%s)
timeout 110 $cli evaluate --backend vulkan --json --all-nodes --save-runs /tmp/runs-vk.json /tmp/ev/*.hir.json > $out/eval-vk.json 2>/dev/null; echo "evaluate vulkan rc $? $(( $(date +%s) - t0 )) s"
summ $out/eval-vk.json VK; gzip -c /tmp/runs-vk.json > $out/runs-vk.json.gz
t0=$(date +%s)
timeout 60 $cli calibrate --backend cuda > $out/cal-cuda.log 2>&1; echo "calibrate cuda rc $? $(( $(date +%s) - t0 )) s"; grep -E "whole graph" $out/cal-cuda.log
t0=$(date +%s)
timeout 80 $cli evaluate --backend cuda --json --all-nodes --save-runs /tmp/runs-cuda.json /tmp/ev/* > $out/eval-cuda.json 2>/dev/null; echo "evaluate cuda rc $? $(( $(date +%s) - t0 )) s"
summ $out/eval-cuda.json CU; gzip -c /tmp/runs-cuda.json > $out/runs-cuda.json.gz
ls $out
