// SPDX-License-Identifier: MIT
#pragma once
// The precision what-if: an fp32 graph as it would be stored and computed in another precision, for the cost
// model to re-price (the CLI's analyze --precision and the GUI's Precision combo).

#include "ir/diagnostic.h"
#include "ir/graph.h"
#include "ir/precision.h"

#include <vector>

namespace costscope::edit {

// The precisions the what-if offers, in the order the GUI lists them.
inline constexpr Precision kWhatIfPrecisions[] = {Precision::Fp32, Precision::Tf32, Precision::Bf16, Precision::Fp16,
                                                  Precision::Fp8};

// `g` with its F32 tensors in `p`:
// - fp32: unchanged;
// - tf32: tensors stay F32; the matmul-class nodes (MatMul, Gemm, Conv, Attention...) reading F32 are marked to
//   compute in TF32 (ir/precision.h's compute_precision attribute);
// - bf16, fp16, fp8 (E4M3, the inference format): every F32 tensor, leaves included, takes that dtype; stored
//   F32 data is converted (round to nearest even), Cast and ConstantOfShape targets of F32 follow. Other dtypes
//   (indices, masks, F64) are left as they are.
// int8 and fp64 are refused: int8 needs quantisation (scales, QDQ), not a change of dtype.
// Fused nodes keep their members' dtypes: their boundary tensors change, their inner GEMM stays priced as fp32.
Result<Graph> withPrecision(const Graph& g, Precision p);

} // namespace costscope::edit
