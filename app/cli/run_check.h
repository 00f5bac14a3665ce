// SPDX-License-Identifier: MIT
#pragma once

#include "tensor.h"

#include <string>

namespace costscope::cli {

// The comparison of an output with a reference tensor, element by element.
struct OutputCheck {
    std::string reference; // a file path or "cpu"
    double maxAbsError = 0;
    double maxRelError = 0;
    double rtol = 1e-3;
    double atol = 1e-7;
    std::string problem; // shape/dtype mismatch; empty when comparable
    bool pass = false;
};

// Passes when shapes agree and every |got - want| <= atol + rtol * |want| (NaN matches NaN).
OutputCheck checkOutput(const HostTensor& got, const HostTensor& want, double rtol, double atol);

} // namespace costscope::cli
