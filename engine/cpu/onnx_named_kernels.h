// SPDX-License-Identifier: MIT
#pragma once

#include "cpu/kernel.h"

namespace costscope::cpu {

// Kernels for ONNX ops that import as unknown ops (the op catalogue has no kind for them) and run by name, beyond
// those kernel.h lists, and for the later outputs of multi-output ops (a node per output, its onnx_output attribute
// saying which): first the ops of opsets 18 to 21, then others, by file.
KernelStatus runResize(KernelContext&, const Inputs&, HostTensor&);                    // onnx_resize.cpp
KernelStatus runCenterCropPad(KernelContext&, const Inputs&, HostTensor&);             // onnx_crop_col2im.cpp
KernelStatus runCol2Im(KernelContext&, const Inputs&, HostTensor&);                    // onnx_crop_col2im.cpp
KernelStatus runGroupNormalization(KernelContext&, const Inputs&, HostTensor&);        // onnx_norm_outputs.cpp
KernelStatus runLayerNormalizationOutputs(KernelContext&, const Inputs&, HostTensor&); // onnx_norm_outputs.cpp
KernelStatus runSplitOutput(KernelContext&, const Inputs&, HostTensor&);               // onnx_split.cpp
// Ops of any opset the op catalogue has no kind for.
KernelStatus runTopK(KernelContext&, const Inputs&, HostTensor&);                  // onnx_selection.cpp
KernelStatus runHardmax(KernelContext&, const Inputs&, HostTensor&);               // onnx_selection.cpp
KernelStatus runOneHot(KernelContext&, const Inputs&, HostTensor&);                // onnx_selection.cpp
KernelStatus runEyeLike(KernelContext&, const Inputs&, HostTensor&);               // onnx_selection.cpp
KernelStatus runCompress(KernelContext&, const Inputs&, HostTensor&);              // onnx_selection.cpp
KernelStatus runScatterElements(KernelContext&, const Inputs&, HostTensor&);       // onnx_scatter_gather.cpp
KernelStatus runScatterND(KernelContext&, const Inputs&, HostTensor&);             // onnx_scatter_gather.cpp
KernelStatus runGatherND(KernelContext&, const Inputs&, HostTensor&);              // onnx_scatter_gather.cpp
KernelStatus runSpaceToDepth(KernelContext&, const Inputs&, HostTensor&);          // onnx_space_norm.cpp
KernelStatus runDepthToSpace(KernelContext&, const Inputs&, HostTensor&);          // onnx_space_norm.cpp
KernelStatus runLpNormalization(KernelContext&, const Inputs&, HostTensor&);       // onnx_space_norm.cpp
KernelStatus runSwish(KernelContext&, const Inputs&, HostTensor&);                 // onnx_space_norm.cpp
KernelStatus runDet(KernelContext&, const Inputs&, HostTensor&);                   // onnx_space_norm.cpp
KernelStatus runBitCast(KernelContext&, const Inputs&, HostTensor&);               // onnx_signal_sequence.cpp
KernelStatus runHannWindow(KernelContext&, const Inputs&, HostTensor&);            // onnx_signal_sequence.cpp
KernelStatus runHammingWindow(KernelContext&, const Inputs&, HostTensor&);         // onnx_signal_sequence.cpp
KernelStatus runBlackmanWindow(KernelContext&, const Inputs&, HostTensor&);        // onnx_signal_sequence.cpp
KernelStatus runReverseSequence(KernelContext&, const Inputs&, HostTensor&);       // onnx_signal_sequence.cpp
KernelStatus runMean(KernelContext&, const Inputs&, HostTensor&);                  // onnx_signal_sequence.cpp
KernelStatus runCastLike(KernelContext&, const Inputs&, HostTensor&);              // onnx_signal_sequence.cpp
KernelStatus runEinsum(KernelContext&, const Inputs&, HostTensor&);                // onnx_einsum.cpp
KernelStatus runNonMaxSuppression(KernelContext&, const Inputs&, HostTensor&);     // onnx_nms.cpp
KernelStatus runRotaryEmbedding(KernelContext&, const Inputs&, HostTensor&);       // onnx_rotary.cpp
KernelStatus runGridSample(KernelContext&, const Inputs&, HostTensor&);            // onnx_grid_sample.cpp
KernelStatus runLpPool(KernelContext&, const Inputs&, HostTensor&);                // onnx_pool_grid.cpp
KernelStatus runAffineGrid(KernelContext&, const Inputs&, HostTensor&);            // onnx_pool_grid.cpp
KernelStatus runDynamicQuantizeLinear(KernelContext&, const Inputs&, HostTensor&); // onnx_pool_grid.cpp
KernelStatus runDft(KernelContext&, const Inputs&, HostTensor&);                   // onnx_dft.cpp
KernelStatus runQLinearMatMul(KernelContext&, const Inputs&, HostTensor&);         // onnx_qlinear_matmul.cpp
KernelStatus runUnique(KernelContext&, const Inputs&, HostTensor&);                // onnx_unique.cpp
KernelStatus runRnn(KernelContext&, const Inputs&, HostTensor&);                   // onnx_recurrent.cpp
KernelStatus runGru(KernelContext&, const Inputs&, HostTensor&);                   // onnx_recurrent.cpp
KernelStatus runLstm(KernelContext&, const Inputs&, HostTensor&);                  // onnx_recurrent.cpp
KernelStatus runControlFlowOp(KernelContext&, const Inputs&, HostTensor&);         // control_flow.cpp: If, Loop, Scan

// The kernel of a node standing for output `output` of an ONNX op run by name: findOnnxKernel's for output 0, else
// one that computes that output, or nullptr where the CPU backend computes only output 0 of the op.
KernelFn findOnnxOutputKernel(std::string_view opType, std::int64_t output);

// Which output of its ONNX op a node stands for (0 unless onnx_output says otherwise).
inline std::int64_t onnxOutput(const KernelContext& ctx)
{
    return ctx.attrs().intOr("onnx_output", 0);
}

} // namespace costscope::cpu
