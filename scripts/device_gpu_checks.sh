#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The GPU checks of the CUDA and Vulkan issues, on the GPU machine of the device tool (no Qt, no ONNX importer, no
# package registry there). Stages, run in the order given; each writes its log to $OUT (default ./gpu-out):
#   env       machine, driver, toolkit, Python packages (torch, onnxruntime and its providers)
#   plugins   build-plugins (CUDA on; no GUI, Vulkan or ONNX): costscope-cli loads the CUDA backend plugin, runs the
#             bundled examples on the GPU against the CPU backend, calibrates quickly; the same CLI with the CUDA
#             toolkit hidden runs on the CPU and names why CUDA is unavailable; start-up time of the CLI
#   multigpu  build-multigpu (CUDA on; no GUI, Vulkan, ONNX or tests): `devices`, then `run --backend cuda --device
#             all` (each GPU alone, then all at once) on the bundled examples, the carried RLX graphs and an
#             element-wise chain (scripts/elementwise_chain_graph.py), a calibration of every GPU at once (a profile
#             per GPU, kernel predictors included; MULTIGPU_PREDICTOR_BUDGET seconds, default 60), with
#             MULTIGPU_EVALUATE=1 `evaluate` on every GPU at once, and the runs again under those profiles; JSON per
#             run in $OUT/multigpu, then a summary of the spread between GPUs of one model (target: within 5 %), the
#             contention and each GPU's prediction error
#   build     build-gpu: CUDA on, Vulkan off, no GUI, ONNX import from the carried Debian libonnx and protobuf
#             headers (unpacked under /opt/onnx): costscope-cli, onnx_node_runner and the two CUDA benches; the bench
#             binaries go to $OUT/bins.tar.gz so that a later call can carry them instead of building again
#   build-all build-x: CUDA, Vulkan, ONNX import and XGBoost (no GUI): the CLI, both GPU plugins, the runner and the
#             CUDA benches; the stages that build (evaluate, stability, sixteen-bit, fusion, torch-compile, ...) then
#             add their targets to it instead of configuring a folder each
#   build-vk  build-vk (Vulkan and CUDA, no ONNX) for the Vulkan stages: the benches and costscope-cli
#   vk-check  every carried graph at batch 1 and 8 on Vulkan checked against the CPU backend; calibrate --quick
#   bundle    scripts/make_cuda_conformance_bundle.py with build-gpu's costscope-cli (or a build-onnx of its own
#             when build-gpu has none) into .carry/bundle, the exported transformers included, and the graphs
#             converted to RLX HIR JSON into .carry/data
#   cuda      bench_cuda_backend: op cases, sgemm vs cuBLAS, element-wise vs copy, whole graphs, conformance bundle
#   fusion    build-fusion (CUDA on; no GUI, Vulkan or ONNX; needs only .carry/include): bench_cuda_fusion (fused vs
#             unfused outputs and times: small cases, a 2^26 chain, the GPT-2/BERT-shaped graphs as built and as an
#             ONNX export writes them), then costscope-cli run --per-node --fusion on and off on the bundled examples
#             and run --fusion compare --json (fusion verified; $OUT/fusion-compare-NAME.json)
#   sixteen-bit  build-sixteen (CUDA on; no GUI, Vulkan or ONNX; needs only .carry/include): bench_cuda_sixteen_bit
#             (native fp16/bf16: a GEMM chain, an element-wise chain, LayerNorm+Softmax and GPT-2 blocks against the
#             CPU backend, then bf16 vs fp32 vs bf16 widened to fp32 (COSTSCOPE_CUDA_NATIVE_16BIT=0) times; the
#             ONNX-like block's attention with q, k, v read in place and with COSTSCOPE_CUDA_QKV_VIEWS=0, in bf16,
#             fp16 and fp32 (our kernels in place), against the CPU backend: COPY and QKV lines give the slice-copy
#             kernels and the whole block's bf16 and fp32 times both ways; then fp8 GEMMs as cuBLASLt FP8 products
#             against the CPU backend, timed vs bf16 and widened); then --qkv-only once per kernel of ours
#             (COSTSCOPE_CUDA_ATTENTION=rows, tiled, flash32, flash64); the stage fails when any run does.
#             SIXTEEN_ARGS adds bench arguments (--quick: no GPT-2 timing; --fp8-only: the fp8 block alone)
#   conformance-cuda  the ONNX node suite (.carry/conformance_node.tar.gz) on --backend cuda through the build's
#             onnx_node_runner in worker isolation (CONFORMANCE_JOBS workers, default 8, each creating the backend
#             once), or where the build has no runner through costscope-cli run, one process per case
#             (CONFORMANCE_JOBS default 16); no ONNX Runtime; with CONFORMANCE_VULKAN=1 --backend vulkan too. The
#             build of build-x (scripts/device_evaluate_all.sh) or build-gpu, else the build stage first. Report and
#             per-case results in $OUT/conformance-BACKEND.{txt,json}. A node CUDA has no kernel for runs the CPU
#             backend's kernel on the host (engine/cuda/host_fallback.h) and its case counts as a pass: the report
#             says how many passes needed one (runner only); COSTSCOPE_CUDA_HOST_FALLBACK=0 gives the counts without
#   evaluate  calibrate (with kernel predictors) and costscope-cli evaluate --backend cuda (leave-one-family-out)
#   stability two calibrations of GPU 0 and bench_calibration_stability on them (the zoo within ±3 %)
#   precision build-precision (CUDA on; no GUI, Vulkan or ONNX): bench_cuda_precision calibrates the GEMM grid per
#             precision and compares the calibrated (and the matching datasheet preset's) GEMM predictions with
#             cuBLAS at held-out shapes; then costscope-cli analyze --precision on the bundled transformer
#   hf        build-hf (CUDA and ONNX import; no GUI, Vulkan or tests) while scripts/export_hf_models.py exports
#             GPT-2, BERT-base and the Llama-style 1B (tiny, then full size; fp32 and bf16, external data) into
#             $HF_DIR (default /tmp/hf); scripts/check_hf_exports.py then loads, analyses and runs each on CPU (tiny and
#             HF_CPU_MAX_PARAMS) and CUDA against PyTorch; the tiny exports come back as $OUT/hf_tiny.tar.gz
#   torch     scripts/device_torch_baseline.py: PyTorch eager and ONNX Runtime on gpt2_12l / bert_12l
#   torch-compile  build-compile (CUDA and ONNX import; no GUI or Vulkan): bench_cuda_fusion $FUSION_ARGS when
#             FUSION_BENCH=1, then scripts/bench_torch_compile.py: GPT-2 (width 768, batch 1 and 8), gpt2_12l and
#             bert_12l (batch 2) built and exported here, costscope-cli --fusion on/off vs torch.compile
#             (reduce-overhead) and eager, fp32 without TF32; TORCH_COMPILE_ARGS adds script arguments
#   acc-cuda  bench_accuracy --backend cuda on the carried graphs
#   vulkan    scripts/device_vulkan_bench.sh (element-wise vs vkCmdCopyBuffer, matmul 1024 and 4096)
#   acc-vulkan  bench_accuracy --backend vulkan on the carried graphs
# Carried (git-ignored) inputs, made on the development machine by scripts/prepare_device_carry.sh:
#   .carry/include   nlohmann/json.hpp, Vulkan headers     .carry/bin/glslc, .carry/lib/libshaderc.so.1
#                    cudnn_frontend's headers (cuDNN's SDPA; without them the CUDA backend builds without it)
#   .carry/rlx       ../shared/data/rlx                      .carry/onnx    gpt2_12l.onnx, bert_12l.onnx
#   .carry/bins      (optional) binaries from an earlier build stage, used instead of the build folders
#   .carry/onnxdata  ../shared/data/onnx/{node,light}
#   .carry/xgboost   libxgboost0, libxgboost-dev, libdmlc0 unpacked (dpkg -x), for the predictors' training
#   .carry/debs      libonnx1, libonnx-dev, libonnxifi, libprotobuf-dev (apt-get download)
#   .carry/conformance_node.tar.gz  (optional) the generated ONNX node suite, .conformance/node
#   .gl              the Vulkan loader packages (see the device tool's README)
# The bundle stage writes .carry/bundle (the conformance bundle) and .carry/data (rlx/, onnx/light/,
# onnx/transformers/ as RLX HIR JSON, bench_accuracy's data layout) on the GPU machine.
# CARRY and GL_DIR name those two folders when the script runs from another source tree (default: ./.carry, ./.gl).
# FUSION_ARGS adds bench_cuda_fusion arguments (--quick: batch 1 and 8, 20 timed runs).
# Time limits (seconds): CUDA_BENCH_TIMEOUT, TORCH_TIMEOUT, ACC_TIMEOUT (default 300 each); ACC_ARGS adds
# bench_accuracy arguments (--dump FILE, say).
# Usage: scripts/device_gpu_checks.sh STAGE...
set -uo pipefail

out="${OUT:-gpu-out}"
mkdir -p "$out"
root="$(pwd)"
carry="${CARRY:-$root/.carry}"
gl="${GL_DIR:-$root/.gl}"
onnx_prefix=/opt/onnx
onnx_lib="$onnx_prefix/usr/lib/x86_64-linux-gnu"
export LD_LIBRARY_PATH="$carry/lib:$carry/xgboost/usr/lib/x86_64-linux-gnu:$onnx_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

bin_dir() { # the carried binaries when there are some, else the build folders
    if [ -x "$carry/bins/$2" ]; then echo "$carry/bins"; else echo "$root/$1/tests/bench"; fi
}
# Carried binaries load their backend plugins from beside them (binaries inside a build tree find its plugins/).
[ -d "$carry/bins/plugins" ] && export COSTSCOPE_PLUGIN_PATH="$carry/bins/plugins"

vulkan_loader() {
    if ! ldconfig -p | grep -q libvulkan.so.1 && compgen -G "$gl/*.deb" >/dev/null; then
        for f in "$gl"/*.deb; do dpkg -x "$f" /; done
        ldconfig
    fi
    local icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    [ -f "$icd" ] && export VK_DRIVER_FILES="$icd"
}

stage_env() {
    date -u
    nvidia-smi --format=csv \
        --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu
    nvcc --version | tail -2
    cmake --version | head -1
    command -v ninja || echo "no ninja"
    ldconfig -p | grep -E "libonnx|libprotobuf|libopenblas|libfftw3f|libvulkan" || echo "none of onnx, protobuf, openblas, fftw, vulkan"
    python3 - <<'EOF'
import importlib
for name in ("torch", "onnxruntime", "onnx", "numpy"):
    try:
        m = importlib.import_module(name)
        print(name, m.__version__)
    except Exception as e:
        print(name, "missing:", e)
try:
    import onnxruntime as ort
    print("onnxruntime providers", ort.get_available_providers())
except Exception:
    pass
EOF
}

unpack_onnx() { # the carried libonnx and protobuf headers, once per machine
    [ -d "$onnx_lib/cmake/ONNX" ] && return 0
    mkdir -p "$onnx_prefix"
    for f in "${ONNX_DEBS:-$carry/debs}"/*.deb; do dpkg -x "$f" "$onnx_prefix"; done
}

onnx_flags=(-DONNX_DIR="$onnx_lib/cmake/ONNX" -DProtobuf_INCLUDE_DIR="$onnx_prefix/usr/include"
            -DProtobuf_LIBRARY=/usr/lib/x86_64-linux-gnu/libprotobuf.so.32)

stage_build() {
    local gen=()
    command -v ninja >/dev/null && gen=(-G Ninja)
    unpack_onnx
    cmake -S . -B build-gpu "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCOSTSCOPE_WITH_GUI=OFF \
        -DCOSTSCOPE_NLOHMANN_INCLUDE="$carry/include" \
        -DCOSTSCOPE_CUDNN_FRONTEND_INCLUDE="$carry/include" -DCOSTSCOPE_WITH_VULKAN=OFF \
        -DCOSTSCOPE_CUDA_ARCHITECTURES=90 "${onnx_flags[@]}" || return 1
    cmake --build build-gpu -j16 --target costscope-cli costscope_backend_cuda bench_cuda_backend bench_accuracy \
        onnx_node_runner || return 1
    local staged
    staged="$(mktemp -d)"
    cp build-gpu/tests/bench/bench_cuda_backend "$staged/"
    cp build-gpu/tests/bench/bench_accuracy "$staged/bench_accuracy_cuda"
    mkdir -p "$staged/plugins" && cp build-gpu/plugins/*.so "$staged/plugins/"
    strip "$staged"/* 2>/dev/null
    tar -C "$staged" -czf "$out/bins.tar.gz" .
    ls -la "$staged"
}

stage_build_vk() {
    local gen=()
    command -v ninja >/dev/null && gen=(-G Ninja)
    vulkan_loader
    # CUDA too where nvcc is there: the Vulkan bench then measures its CUDA references (copy, cuBLAS) in the same run.
    cmake -S . -B build-vk "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCOSTSCOPE_WITH_GUI=OFF -DCOSTSCOPE_WITH_ONNX=OFF \
        -DCOSTSCOPE_NLOHMANN_INCLUDE="$carry/include" \
        -DCOSTSCOPE_CUDNN_FRONTEND_INCLUDE="$carry/include" -DCOSTSCOPE_CUDA_ARCHITECTURES=90 \
        -DVulkan_INCLUDE_DIR="$carry/include" -DVulkan_LIBRARY=/usr/lib/x86_64-linux-gnu/libvulkan.so.1 \
        -DGLSLC_EXECUTABLE="$carry/bin/glslc" || return 1
    cmake --build build-vk -j16 --target bench_vulkan_backend bench_accuracy costscope-cli costscope_backend_vulkan \
        costscope_backend_cuda
}

# build-all: one build for every later stage of the call (CUDA, Vulkan, ONNX import, XGBoost; no GUI), in build-x, the
# folder scripts/device_evaluate_all.sh uses. Once it exists, build_cuda_only and torch-compile add their targets
# to it instead of configuring a folder of their own: each extra configuration costs minutes of the device's time.
stage_build_all() {
    local gen=()
    command -v ninja >/dev/null && gen=(-G Ninja)
    vulkan_loader
    unpack_onnx
    cmake -S . -B build-x "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCOSTSCOPE_WITH_GUI=OFF \
        -DCOSTSCOPE_NLOHMANN_INCLUDE="$carry/include" -DCOSTSCOPE_CUDNN_FRONTEND_INCLUDE="$carry/include" \
        -DCOSTSCOPE_CUDA_ARCHITECTURES=90 -DCOSTSCOPE_XGBOOST_ROOT="$carry/xgboost" \
        -DVulkan_INCLUDE_DIR="$carry/include" -DVulkan_LIBRARY=/usr/lib/x86_64-linux-gnu/libvulkan.so.1 \
        -DGLSLC_EXECUTABLE="$carry/bin/glslc" "${onnx_flags[@]}" >/dev/null || return 1
    cmake --build build-x -j16 --target costscope-cli costscope_backend_cuda costscope_backend_vulkan \
        onnx_node_runner bench_cuda_sixteen_bit bench_cuda_fusion 2>&1 | grep -E "error|FAILED" | head -30
    [ -x build-x/app/costscope-cli ] && [ -x build-x/tests/onnx_node_runner ]
}

# build_cuda_only DIR TARGET...: a build with CUDA and without GUI, ONNX or Vulkan (only .carry/include needed); with
# build-all's folder present, the targets are built there (and DIR is a link to it).
build_cuda_only() {
    local dir=$1 gen=()
    shift
    if [ -f build-x/CMakeCache.txt ]; then
        [ -e "$dir" ] || ln -s build-x "$dir"
        cmake --build build-x -j16 --target "$@" >/dev/null
        return
    fi
    command -v ninja >/dev/null && gen=(-G Ninja)
    cmake -S . -B "$dir" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCOSTSCOPE_WITH_GUI=OFF \
        -DCOSTSCOPE_WITH_ONNX=OFF -DCOSTSCOPE_WITH_VULKAN=OFF -DCOSTSCOPE_NLOHMANN_INCLUDE="$carry/include" \
        -DCOSTSCOPE_CUDNN_FRONTEND_INCLUDE="$carry/include" \
        -DCOSTSCOPE_CUDA_ARCHITECTURES=90 -DCOSTSCOPE_XGBOOST_ROOT="$carry/xgboost" >/dev/null || return 1
    cmake --build "$dir" -j16 --target "$@" >/dev/null
}

# The backends are plugins: the CLI must load the CUDA one, and start and run on the CPU without the toolkit.
stage_plugins() {
    build_cuda_only build-plugins costscope-cli costscope_backend_cuda bench_startup || return 1
    local cli=build-plugins/app/costscope-cli g
    "$cli" devices
    for g in resources/examples/*.hir.json "$carry"/rlx/*.hir.json; do
        [ -f "$g" ] || continue
        printf '%s: ' "$(basename "$g")"
        timeout 120 "$cli" run "$g" --backend cuda --runs 5 --reference cpu 2>&1 | grep -iE "check|differ|error|measured" \
            | tr '\n' ' '
        echo " (exit ${PIPESTATUS[0]})"
    done
    HOME="$(mktemp -d)" timeout 180 "$cli" calibrate --backend cuda --quick | tail -n 12
    local cudart
    cudart=$(ldd build-plugins/plugins/libcostscope_backend_cuda.so | awk '/libcudart/ {print $3}')
    echo "the CUDA plugin takes libcudart from $cudart"
    bash tests/app/check_without_cuda.sh "$cli" "$(dirname "$cudart")" resources/examples/cnn.hir.json
    build-plugins/tests/bench/bench_startup "$cli"
}

# Every GPU of the host: run --device all before and after a calibration of each GPU (issue 24). The GPUs are
# calibrated (kernel predictors included) at the same time, one process per GPU that sees only its own
# (CUDA_VISIBLE_DEVICES), each saving calibrated-cuda-<model>-<PCI bus id> as `calibrate --device all` names them;
# MULTIGPU_EVALUATE=1 then runs `evaluate` on each GPU at once under that GPU's profile (leave-one-family-out).
stage_multigpu() {
    build_cuda_only build-multigpu costscope-cli costscope_backend_cuda || return 1
    local cli=build-multigpu/app/costscope-cli dir="$out/multigpu" g tag i n
    mkdir -p "$dir"
    # The per-GPU profiles of this stage only, away from any the machine has.
    XDG_DATA_HOME="$(mktemp -d)"
    export XDG_DATA_HOME
    nvidia-smi --format=csv --query-gpu=index,name,pci.bus_id,memory.total,clocks.max.sm,clocks.max.mem
    "$cli" devices
    n=$(nvidia-smi -L | wc -l)
    python3 scripts/elementwise_chain_graph.py "$dir/elementwise_chain.hir.json" 8192 8192 16
    local graphs=(resources/examples/*.hir.json "$carry"/rlx/*.hir.json "$dir/elementwise_chain.hir.json")
    for tag in uncalibrated calibrated; do
        if [ "$tag" = calibrated ]; then
            echo "--- calibrate each GPU at once (--predictor-budget ${MULTIGPU_PREDICTOR_BUDGET:-60})"
            date -u +%T
            for ((i = 0; i < n; i++)); do
                CUDA_VISIBLE_DEVICES=$i OMP_NUM_THREADS=$(($(nproc) / n)) timeout 300 "$cli" calibrate --backend cuda --device all \
                    --predictor-budget "${MULTIGPU_PREDICTOR_BUDGET:-60}" >"$dir/calibrate-$i.log" 2>&1 &
            done
            wait
            date -u +%T
            grep -hE "^===|saved profile|copy bw|error" "$dir"/calibrate-*.log
            if [ "${MULTIGPU_EVALUATE:-0}" = 1 ]; then
                for ((i = 0; i < n; i++)); do
                    local profile
                    profile=$(sed -n "s/^saved profile '\([^']*\)'.*/\1/p" "$dir/calibrate-$i.log")
                    [ -n "$profile" ] || { echo "GPU $i: no calibrated profile, no evaluation"; continue; }
                    OMP_NUM_THREADS=$(($(nproc) / n)) timeout "${EVAL_TIMEOUT:-300}" "$cli" evaluate --backend cuda --device "$i" --profile "$profile" \
                        ${EVAL_ARGS:-} --json --save-runs "$dir/evaluate-runs-$i.json" >"$dir/evaluate-$i.json" \
                        2>"$dir/evaluate-$i.log" &
                done
                wait
                date -u +%T
                python3 scripts/multigpu_summary.py --evaluate "$dir"/evaluate-[0-9]*.json
            fi
        fi
        for g in "${graphs[@]}"; do
            [ -f "$g" ] || continue
            timeout 300 "$cli" run "$g" --backend cuda --device all --bind batch=256 --runs 20 --json \
                >"$dir/$(basename "$g" .hir.json).$tag.json"
            echo "--- $(basename "$g" .hir.json), $tag (exit $?)"
        done
    done
    python3 scripts/multigpu_summary.py "$dir"/*.{un,}calibrated.json
}

# Each graph of the carried data (RLX HIR JSON) at batch 1 and 8 on the Vulkan device, its first output checked
# against the CPU backend (costscope-cli run --reference cpu), then a quick `calibrate --backend vulkan`.
stage_vk_check() {
    vulkan_loader
    local cli=build-vk/app/costscope-cli f b
    "$cli" devices
    for f in "$carry"/data/*/*.hir.json "$carry"/data/onnx/*/*.hir.json; do
        [ -f "$f" ] || continue
        for b in 1 8; do
            printf '%s b%s: ' "$(basename "$f")" "$b"
            timeout 120 "$cli" run "$f" --backend vulkan --batch "$b" --runs 3 --warmup 1 --reference cpu 2>&1 \
                | grep -E "check|error|max abs|differ|measured" | tr '\n' ' '
            echo " (exit ${PIPESTATUS[0]})"
        done
    done
    HOME="$(mktemp -d)" timeout 120 "$cli" calibrate --backend vulkan --quick
}

stage_bundle() {
    local cli=build-gpu/app/costscope-cli
    if [ ! -x "$cli" ]; then
        local gen=()
        command -v ninja >/dev/null && gen=(-G Ninja)
        unpack_onnx
        cmake -S . -B build-onnx "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCOSTSCOPE_WITH_GUI=OFF \
            -DCOSTSCOPE_WITH_CUDA=OFF -DCOSTSCOPE_WITH_VULKAN=OFF -DCOSTSCOPE_BUILD_TESTS=OFF \
            -DCOSTSCOPE_NLOHMANN_INCLUDE="$carry/include" \
        -DCOSTSCOPE_CUDNN_FRONTEND_INCLUDE="$carry/include" "${onnx_flags[@]}" || return 1
        cmake --build build-onnx -j16 --target costscope-cli || return 1
        cli=build-onnx/app/costscope-cli
    fi
    python3 scripts/make_cuda_conformance_bundle.py "$cli" "$carry/onnxdata" "$carry/bundle" "$carry/onnx" || return 1
    mkdir -p "$carry/data/rlx" "$carry/data/onnx/light" "$carry/data/onnx/transformers"
    cp "$carry"/rlx/*.hir.json "$carry/data/rlx/"
    cp "$carry"/bundle/light_*.hir.json "$carry/data/onnx/light/"
    for m in gpt2_12l bert_12l; do
        "$cli" convert "$carry/onnx/$m.onnx" "$carry/data/onnx/transformers/$m.hir.json"
    done
    ls "$carry/data"/*/ "$carry/data/onnx"/*/
}

stage_torch_compile() {
    local gen=()
    command -v ninja >/dev/null && gen=(-G Ninja)
    unpack_onnx
    [ -f build-x/CMakeCache.txt ] && { [ -e build-compile ] || ln -s build-x build-compile; }
    [ -f build-x/CMakeCache.txt ] || cmake -S . -B build-compile "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCOSTSCOPE_WITH_GUI=OFF \
        -DCOSTSCOPE_NLOHMANN_INCLUDE="$carry/include" \
        -DCOSTSCOPE_CUDNN_FRONTEND_INCLUDE="$carry/include" -DCOSTSCOPE_WITH_VULKAN=OFF -DCOSTSCOPE_CUDA_ARCHITECTURES=90 \
        -DCOSTSCOPE_XGBOOST_ROOT="$carry/xgboost" "${onnx_flags[@]}" >/dev/null || return 1
    cmake --build build-compile -j16 --target costscope-cli costscope_backend_cuda bench_cuda_fusion >/dev/null \
        || return 1
    nvidia-smi --format=csv --query-gpu=name,memory.total,driver_version,clocks.max.sm
    if [ "${FUSION_BENCH:-0}" = 1 ]; then
        timeout "${CUDA_BENCH_TIMEOUT:-300}" build-compile/tests/bench/bench_cuda_fusion ${FUSION_ARGS:-}
        echo "bench_cuda_fusion exit $?"
    fi
    timeout "${TORCH_TIMEOUT:-420}" python3 scripts/bench_torch_compile.py "$root/build-compile/app/costscope-cli" \
        "$out/torch-compile" ${TORCH_COMPILE_ARGS:-}
}

stage_hf() {
    local gen=() dir="${HF_DIR:-/tmp/hf}" cli=build-hf/app/costscope-cli
    command -v ninja >/dev/null && gen=(-G Ninja)
    unpack_onnx
    nvidia-smi --format=csv --query-gpu=name,memory.total,driver_version
    (cmake -S . -B build-hf "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCOSTSCOPE_WITH_GUI=OFF -DCOSTSCOPE_BUILD_TESTS=OFF \
        -DCOSTSCOPE_NLOHMANN_INCLUDE="$carry/include" \
        -DCOSTSCOPE_CUDNN_FRONTEND_INCLUDE="$carry/include" -DCOSTSCOPE_WITH_VULKAN=OFF -DCOSTSCOPE_CUDA_ARCHITECTURES=90 \
        "${onnx_flags[@]}" && cmake --build build-hf -j14 --target costscope-cli costscope_backend_cuda) \
        >"$out/hf-build.log" 2>&1 &
    local build=$!
    export PYTHONUNBUFFERED=1
    timeout 200 python3 scripts/export_hf_models.py "$dir/tiny" --size tiny 2>&1 | grep -v Warning
    timeout "${HF_EXPORT_TIMEOUT:-330}" python3 scripts/export_hf_models.py "$dir/full" ${HF_EXPORT_ARGS:-} \
        >"$out/hf-export-full.log" 2>&1 &
    local full=$!
    wait "$build" || { tail -n 30 "$out/hf-build.log"; return 1; }
    tar -C "$dir" -czf "$out/hf_tiny.tar.gz" tiny
    python3 scripts/check_hf_exports.py "$cli" "$dir/tiny" "$out" --timeout 120 && mv "$out/hf_checks.json" \
        "$out/hf_checks_tiny.json"
    wait "$full"
    echo "full-size export exit $?"
    grep -v Warning "$out/hf-export-full.log" | tail -n 40
    python3 scripts/check_hf_exports.py "$cli" "$dir/full" "$out" --timeout "${HF_CHECK_TIMEOUT:-120}" \
        --cpu-max-params "${HF_CPU_MAX_PARAMS:-0}"
}

stage_cuda() {
    local d
    d="$(bin_dir build-gpu bench_cuda_backend)"
    local bundle=()
    [ -f "$carry/bundle/manifest.json" ] && bundle=("$carry/bundle")
    timeout "${CUDA_BENCH_TIMEOUT:-300}" "$d/bench_cuda_backend" "$carry/rlx" "${bundle[@]}"
}

stage_fusion() {
    build_cuda_only build-fusion bench_cuda_fusion costscope-cli costscope_backend_cuda || return 1
    timeout "${CUDA_BENCH_TIMEOUT:-300}" build-fusion/tests/bench/bench_cuda_fusion ${FUSION_ARGS:-}
    local status=$? cli=build-fusion/app/costscope-cli g f text code
    for g in resources/examples/*.hir.json; do
        for f in on off; do
            text=$(timeout 120 "$cli" run "$g" --backend cuda --runs 20 --per-node --fusion "$f" --reference cpu \
                --no-host-probe 2>&1)
            code=$?
            printf '%s --fusion %s: %s| %s fused kernels (exit %s)\n' "$(basename "$g")" "$f" \
                "$(grep -E "check|median" <<<"$text" | tr '\n' ' ')" "$(grep -c "one kernel" <<<"$text")" "$code"
            grep "one kernel" <<<"$text" | head -n 4
        done
        # Fusion verified: each fused kernel's measured gain beside the predicted ones (JSON kept in $OUT).
        local name json
        name=$(basename "$g" .hir.json)
        json="$out/fusion-compare-$name.json"
        timeout 120 "$cli" run "$g" --backend cuda --runs 20 --fusion compare --bind batch=1 --no-host-probe --json \
            >"$json" 2>"$out/fusion-compare-$name.log"
        code=$?
        printf '%s --fusion compare (exit %s): ' "$(basename "$g")" "$code"
        python3 - "$json" <<'PY' 2>/dev/null || tail -n 3 "$out/fusion-compare-$name.log"
import json, sys
r = json.load(open(sys.argv[1]))
s = r["within_25_share"]
print("%d kernels checked, within 25 %%: rlx gate %.0f %%, costscope %.0f %%"
      % (r["kernels_checked"], 100 * s["rlx_gate"], 100 * s["costscope"]))
for k in r["kernels"][:4]:
    p = k["predicted_gain_ns"]
    print("  %s: measured gain %.0f ns, rlx gate %.0f, costscope %.0f"
          % (k["kernel"], k["measured_gain_ns"], p["rlx_gate"], p["costscope"]))
PY
        [ "$code" -eq 0 ] || status=1
    done
    return $status
}

# The cost models on the zoo, leave-one-family-out (issue 20): calibrate (predictors included) and evaluate on GPU 0.
stage_evaluate() {
    build_cuda_only build-fusion costscope-cli costscope_backend_cuda || return 1
    local cli=build-fusion/app/costscope-cli
    /usr/bin/time -f "calibrate: %e s" timeout 400 "$cli" calibrate --backend cuda ${CALIBRATE_ARGS:-} || return 1
    timeout "${EVAL_TIMEOUT:-400}" "$cli" evaluate --backend cuda ${EVAL_ARGS:-} --json >"$out/evaluate-cuda.json" \
        --save-runs "$out/evaluate-cuda-runs.json" 2>"$out/evaluate-cuda.log" || { tail -n 20 "$out/evaluate-cuda.log"; return 1; }
    # The measurements travel back compressed (evaluate --runs judges them again on any machine).
    gzip -f "$out/evaluate-cuda-runs.json"
    python3 - "$out/evaluate-cuda.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(r["device"], r["profile"], r["protocol"], r["families"])
for m in r["models"]:
    g, n = m["graphs"], m["nodes"]
    print(f'{m["model"]:27s} graphs {g["count"]:4d} ±10% {100*g["within_10"]:5.1f} ±25% {100*g["within_25"]:5.1f} '
          f'MAPE {g["mape"]:6.1f} | nodes {n["count"]:5d} ±25% {100*n["within_25"]:5.1f}')
for w in r["worst"]:
    print("worst", w["family"], w["graph"], w["batch"], round(100 * w["error"]))
for n in r["worst_nodes"]:
    print("node", n["family"], n["graph"], n["batch"], n["node"], n["op"], round(n["predicted_ns"]), round(n["measured_ns"]))
for n in r["notes"][:20]:
    print("note", n)
PY
}

# Two calibrations of the same idle GPU, and how far apart they put every zoo graph (target: within ±3 %).
stage_stability() {
    build_cuda_only build-fusion costscope-cli costscope_backend_cuda bench_calibration_stability || return 1
    local cli=build-fusion/app/costscope-cli dir="${XDG_DATA_HOME:-$HOME/.local/share}/costscope/profiles"
    timeout 300 "$cli" calibrate --backend cuda --save stability-a ${CALIBRATE_ARGS:-} >/dev/null || return 1
    timeout 300 "$cli" calibrate --backend cuda --save stability-b ${CALIBRATE_ARGS:-} >/dev/null || return 1
    build-fusion/tests/bench/bench_calibration_stability "$dir/stability-a.json" "$dir/stability-b.json"
}

stage_sixteen_bit() {
    build_cuda_only build-sixteen bench_cuda_sixteen_bit costscope-cli costscope_backend_cuda || return 1
    local bench=build-sixteen/tests/bench/bench_cuda_sixteen_bit status=0 code kernel
    timeout "${CUDA_BENCH_TIMEOUT:-300}" "$bench" ${SIXTEEN_ARGS:-}
    code=$?
    echo "bench_cuda_sixteen_bit exit $code"
    [ "$code" -eq 0 ] || status=1
    # Each of our attention kernels reading q, k and v in place (the default run takes the tiled kernel at the small
    # size and the flash kernel at GPT-2's): the choice is read once a process, so one run each.
    for kernel in rows tiled flash32 flash64; do
        COSTSCOPE_CUDA_ATTENTION=$kernel timeout "${CUDA_BENCH_TIMEOUT:-300}" "$bench" --qkv-only
        code=$?
        echo "bench_cuda_sixteen_bit --qkv-only COSTSCOPE_CUDA_ATTENTION=$kernel exit $code"
        [ "$code" -eq 0 ] || status=1
    done
    return $status
}

stage_conformance_cuda() {
    local tarball="$carry/conformance_node.tar.gz" suite=/tmp/conformance/node cli="" runner="" backend how
    if [ ! -f "$tarball" ]; then
        echo "no $tarball: run scripts/conformance.sh generate, then scripts/prepare_device_carry.sh, where PyPI is"
        return 1
    fi
    [ -d "$suite" ] || { mkdir -p /tmp/conformance && tar -C /tmp/conformance -xzf "$tarball"; } || return 1
    for c in build-x/app/costscope-cli build-gpu/app/costscope-cli; do
        [ -x "$c" ] && cli=$c && break
    done
    [ -n "$cli" ] || { stage_build >/dev/null && cli=build-gpu/app/costscope-cli; } || return 1
    # The runner of the same build: its workers create the CUDA context once each, where a CLI started per case pays
    # that start 1 884 times (twice past this stage's time limit). Worker isolation for Vulkan too, so that no process
    # forks with a GPU driver loaded. A build without the runner falls back to the CLI per case.
    runner=${cli%/app/costscope-cli}/tests/onnx_node_runner
    [ -x "$runner" ] || runner=""
    for backend in cuda $([ "${CONFORMANCE_VULKAN:-0}" = 1 ] && echo vulkan); do
        [ "$backend" = vulkan ] && vulkan_loader
        how=(--cli "$cli" --jobs "${CONFORMANCE_JOBS:-16}")
        [ -n "$runner" ] && how=(--runner "$runner" --isolation worker --jobs "${CONFORMANCE_JOBS:-8}")
        timeout 280 python3 scripts/conformance/run_node_suite.py "${how[@]}" --suite "$suite" --backend "$backend" \
            --deadline 240 --no-ort --results "$out/conformance-$backend.json" >"$out/conformance-$backend.txt" 2>&1
        echo "conformance $backend exit $?"
        sed -n '1,4p' "$out/conformance-$backend.txt"
    done
}

stage_precision() {
    local gen=()
    command -v ninja >/dev/null && gen=(-G Ninja)
    cmake -S . -B build-precision "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCOSTSCOPE_WITH_GUI=OFF \
        -DCOSTSCOPE_WITH_ONNX=OFF -DCOSTSCOPE_WITH_VULKAN=OFF -DCOSTSCOPE_NLOHMANN_INCLUDE="$carry/include" \
        -DCOSTSCOPE_CUDNN_FRONTEND_INCLUDE="$carry/include" \
        -DCOSTSCOPE_CUDA_ARCHITECTURES=90 >/dev/null || return 1
    cmake --build build-precision -j16 --target bench_cuda_precision costscope-cli costscope_backend_cuda 2>&1 \
        | grep -E "error|FAILED" | head -30
    [ -x build-precision/tests/bench/bench_cuda_precision ] || return 1
    local gpu preset=resources/profiles/nvidia-h100.json
    gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
    echo "GPU: $gpu"
    case "$gpu" in *H200*) preset=resources/profiles/nvidia-h200.json ;; esac
    timeout 400 build-precision/tests/bench/bench_cuda_precision "$preset" --json "$out/precision.json"
    echo "bench_cuda_precision exit $?"
    for p in fp32 tf32 bf16 fp8; do
        build-precision/app/costscope-cli analyze resources/examples/tiny_transformer.hir.json --model costscope \
            --profile "$(basename "$preset" .json)" --bind batch=512 --precision "$p" | head -2
    done
}

stage_torch() {
    local tmp
    tmp="$(mktemp -d)"
    PYTHONUNBUFFERED=1 timeout "${TORCH_TIMEOUT:-300}" python3 scripts/device_torch_baseline.py "$carry/onnx" "$tmp"
    cp "$tmp/torch_baseline.json" "$out/" 2>/dev/null
}

stage_acc_cuda() {
    local d
    d="$(bin_dir build-gpu bench_accuracy_cuda)"
    local exe="$d/bench_accuracy_cuda"
    [ -x "$exe" ] || exe="$d/bench_accuracy"
    timeout "${ACC_TIMEOUT:-300}" "$exe" "$carry/data" --backend cuda ${ACC_ARGS:-}
}

stage_vulkan() {
    vulkan_loader
    local d
    d="$(bin_dir build-vk bench_vulkan_backend)"
    timeout 120 scripts/device_vulkan_bench.sh "$d/bench_vulkan_backend"
    echo "--- again: 2^28 elements, 20 repeats"
    timeout 120 scripts/device_vulkan_bench.sh "$d/bench_vulkan_backend" --matmul 4096 --elements 268435456 --repeats 20
}

stage_acc_vulkan() {
    vulkan_loader
    local d
    d="$(bin_dir build-vk bench_accuracy_vk)"
    local exe="$d/bench_accuracy_vk"
    [ -x "$exe" ] || exe="$d/bench_accuracy"
    timeout "${ACC_TIMEOUT:-300}" "$exe" "$carry/data" --backend vulkan ${ACC_ARGS:-}
}

for stage in "$@"; do
    echo "=== $stage $(date -u +%T)"
    "stage_${stage//-/_}" 2>&1 | tee "$out/$stage.log"
    echo "=== $stage done, status ${PIPESTATUS[0]} $(date -u +%T)"
done
