// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace costscope::vk {

// One compute shader compiled at build time (shaders/<name>.comp).
struct EmbeddedShader {
    std::string_view name;
    const std::uint32_t* words;
    std::size_t wordCount;
};

// Defined in the .cpp that embed_spirv.cmake generates.
std::span<const EmbeddedShader> embeddedShaders();

// Every shader has the same interface: binding 0 holds the dispatch's parameter words, bindings 1..kTensorBindings
// the tensors it reads and writes.
constexpr std::uint32_t kTensorBindings = 6;
constexpr std::uint32_t kLocalSize = 256; // 1-D shaders' workgroup size

} // namespace costscope::vk
