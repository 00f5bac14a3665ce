// SPDX-License-Identifier: MIT
#pragma once
// Attention groups (fusion_plan.h) whose q, k and v are slices of one tensor along its last dim: the packed QKV
// projection of a transformer, cut by Split (imported as Narrow), Slice or Narrow, then Reshaped into heads. A
// backend whose attention kernel takes strides reads q, k and v in place, as views of that tensor (its row stride
// the tensor's last dim, each operand at its offset along it), and need not run a slice whose value nothing else
// reads. Qt-free and backend-free: the CUDA backend applies it (cuda/lower_fused.cpp), the tests check it on the CPU.

#include "fusion_plan.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace costscope {

struct QkvView {
    std::size_t group = 0;                // index into FusionPlan::groups
    std::size_t base = 0;                 // node position of the tensor q, k and v are slices of
    std::int64_t rowStride = 0;           // elements: the base's last dim
    std::array<std::int64_t, 3> offset{}; // elements: where q, k and v start along that dim
    // Per operand (q, k, v): the slicing node, then the view ops (Reshape...) up to the group's operand.
    std::array<std::vector<std::size_t>, 3> chain;
};

struct QkvViewPlan {
    std::vector<QkvView> views;
    std::vector<int> viewOf;   // per group index: its view's index, or -1
    std::vector<bool> skipped; // per node position: a slice whose copy need not run (only in-place readers)

    const QkvView* viewFor(std::size_t group) const
    {
        return group < viewOf.size() && viewOf[group] >= 0 ? &views[std::size_t(viewOf[group])] : nullptr;
    }
    bool isSkipped(std::size_t pos) const { return pos < skipped.size() && skipped[pos]; }
};

// The attention groups of `fusion` that can read q, k and v in place, and the slices no other node reads; only groups
// whose q has one of `types` where that is not empty (the types whose attention kernels take strides: the CUDA
// backend's F32, F16 and BF16).
QkvViewPlan planQkvViews(const Graph& g, const Bindings& bindings, const FusionPlan& fusion,
                         const std::vector<DType>& types = {});

} // namespace costscope
