// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"
#include "ir/graph.h"

#include <string>

namespace costscope {

// What a fused node (ir/fused_op.h) stands for, read from the members it carries. Both cost models price a fused
// node as these kernels, so that fusing a MatMul with its bias and activation costs a GEMM with an epilogue rather
// than an unknown op (which RLX parity prices by its output alone and the Costscope model at a tenth of peak).
struct FusedKernel {
    Graph members;       // entering tensors as Inputs with their producers' ids; members.outputs = {the exit}
    // The class the kernel is corrected and shown as: the first GEMM-like member's (MatMul, Conv, Attention), else
    // the first member's that is neither element-wise nor a layout op, else ElementWise.
    OpClass opClass = OpClass::ElementWise;
    std::string form;    // "GEMM with epilogue", "element-wise chain", "softmax with element-wise ops", ...
    bool hostSync = false; // a member forces a host round trip: the fused kernel still hands over once
};

// The kernel a fused op stands for; an error when the op is not fused or its members do not load.
Result<FusedKernel> fusedKernel(const Op& op);

} // namespace costscope
