// SPDX-License-Identifier: MIT
#include "ir/shape_infer_util.h"

namespace costscope::shape_rules {

namespace {
// RLX's Fft works in place on rows of interleaved re/im F32 pairs ([rows, 2·n_fft]), so the shape is kept; a
// complex input keeps its dtype.
Result<Shape> fft(const InferInput& x)
{
    Shape out = x.in[0];
    if (out.rank() == 0)
        return x.fail("input must have rank 1 or more");
    if (out.dtype != DType::C64 && out.dtype != DType::C128)
        out.dtype = DType::F32;
    return out;
}

// [batch·n_segments, n] rows of spectra → [batch, 2k]: k (bin, power) pairs per batch item.
Result<Shape> welchPeaks(const InferInput& x)
{
    const Shape& in = x.in[0];
    if (in.rank() != 2)
        return x.fail("input must be [batch·n_segments, n], got " + in.toString());
    const std::int64_t k = x.op.attrs.intOr("k", 16);
    auto segments = x.op.attrs.getInt("n_segments");
    if (!segments)
        return x.fail("attribute n_segments is missing");
    if (*segments < 1 || k < 0 || k > kMaxDim / 2)
        return x.fail("k " + std::to_string(k) + " or n_segments " + std::to_string(*segments) + " is out of range");
    const Dim& rows = in.dims[0];
    Dim batch = rows;
    if (rows.isStatic()) {
        if (rows.value % *segments != 0)
            return x.fail(rows.toString() + " rows are not a multiple of n_segments " + std::to_string(*segments));
        batch = Dim::fixed(rows.value / *segments);
    } else if (*segments != 1) {
        batch = Dim::named(rows.symbol + "/" + std::to_string(*segments));
    }
    return Shape{{batch, Dim::fixed(2 * k)}, DType::F32};
}

// RLX's LogMel carries no parameters, so the mel filter count is unknown: the shape is kept unless the op states
// n_mels (an imported variant), which replaces the last dim.
Result<Shape> logMel(const InferInput& x)
{
    Shape out = x.in[0];
    if (auto mels = x.op.attrs.getInt("n_mels")) {
        if (out.rank() == 0 || *mels < 1 || *mels > kMaxDim)
            return x.fail("n_mels " + std::to_string(*mels) + " does not fit input " + out.toString());
        out.dims.back() = Dim::fixed(*mels);
    }
    return out;
}
} // namespace

Result<Shape> inferSpectral(const InferInput& x)
{
    switch (x.op.kind) {
    case OpKind::Fft: return fft(x);
    case OpKind::WelchPeaks: return welchPeaks(x);
    default: return logMel(x);
    }
}

} // namespace costscope::shape_rules
