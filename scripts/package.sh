#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the release tree and the Debian package (dependencies derived by dpkg-shlibdeps).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset release
cmake --build --preset release -j "$(nproc)"
(cd build/release && cpack -G DEB)
ls -1 build/release/*.deb
