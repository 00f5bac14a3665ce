// SPDX-License-Identifier: MIT
#pragma once

#include "cpu/kernel.h"

namespace costscope::cpu {

// Kernels for ONNX ops of opsets 18 to 21 that import as unknown ops, and for the later outputs of multi-output ops
// (a node per output, its onnx_output attribute saying which): by file.
KernelStatus runResize(KernelContext&, const Inputs&, HostTensor&);                 // onnx_resize.cpp
KernelStatus runCenterCropPad(KernelContext&, const Inputs&, HostTensor&);          // onnx_crop_col2im.cpp
KernelStatus runCol2Im(KernelContext&, const Inputs&, HostTensor&);                 // onnx_crop_col2im.cpp
KernelStatus runGroupNormalization(KernelContext&, const Inputs&, HostTensor&);     // onnx_norm_outputs.cpp
KernelStatus runLayerNormalizationOutputs(KernelContext&, const Inputs&, HostTensor&); // onnx_norm_outputs.cpp
KernelStatus runSplitOutput(KernelContext&, const Inputs&, HostTensor&);            // onnx_split.cpp

// Which output of its ONNX op a node stands for (0 unless onnx_output says otherwise).
inline std::int64_t onnxOutput(const KernelContext& ctx)
{
    return ctx.attrs().intOr("onnx_output", 0);
}

} // namespace costscope::cpu
