// SPDX-License-Identifier: MIT
#include "analysis/welch_graphs.h"

#include <cmath>

namespace costscope {

namespace {
Node node(NodeId id, Op op, std::vector<NodeId> inputs, Shape shape)
{
    Node n;
    n.id = id;
    n.op = std::move(op);
    n.inputs = std::move(inputs);
    n.shape = std::move(shape);
    return n;
}

Graph fftGraph(std::int64_t batch, const WelchParams& p)
{
    const std::int64_t rows = batch * p.nSegments;
    Graph g;
    Attrs input;
    input.set("name", std::string("segs"));
    Attrs sub;
    sub.set("op", std::string("Sub"));
    Attrs concat;
    concat.set("axis", std::int64_t{1});
    Attrs fft;
    fft.set("inverse", false);
    fft.set("norm", std::string("Backward"));
    g.add(node(0, Op::make(OpKind::Input, input), {}, Shape::of({rows, p.nFft})));
    g.add(node(1, Op::make(OpKind::Binary, sub), {0, 0}, Shape::of({rows, p.nFft})));
    g.add(node(2, Op::make(OpKind::Concat, concat), {0, 1}, Shape::of({rows, 2 * p.nFft})));
    g.add(node(3, Op::make(OpKind::Fft, fft), {2}, Shape::of({rows, 2 * p.nFft})));
    return g;
}
} // namespace

Graph welchFusedGraph(std::int64_t batch, const WelchParams& p)
{
    Graph g = fftGraph(batch, p);
    g.name = "welch_peaks_fused";
    Attrs peaks;
    peaks.set("k", p.k);
    peaks.set("n_segments", p.nSegments);
    g.add(node(4, Op::make(OpKind::WelchPeaks, peaks), {3}, Shape::of({batch, 2 * p.k})));
    g.outputs = {4};
    return g;
}

Graph welchFftOnlyGraph(std::int64_t batch, const WelchParams& p)
{
    Graph g = fftGraph(batch, p);
    g.name = "welch_peaks_fft_only";
    g.outputs = {3};
    return g;
}

IoProfile welchHostProfile(std::int64_t batch, const WelchParams& p)
{
    const auto b = static_cast<std::uint64_t>(batch);
    const auto rows = b * static_cast<std::uint64_t>(p.nSegments);
    const auto n = static_cast<std::uint64_t>(p.nFft);
    const auto peaks = b * static_cast<std::uint64_t>(p.k) * 2 * 4;
    IoProfile io;
    io.kernelLaunches = rows + b;
    io.hostOutputBytes = peaks;
    io.deviceTrafficBytes = rows * n * 4 + rows * n * 2 * 4 + peaks;
    return io;
}

double welchUsefulBytes(std::int64_t batch, const WelchParams& p)
{
    const auto b = static_cast<double>(batch);
    return b * static_cast<double>(p.nSegments) * static_cast<double>(p.nFft) * 4
        + b * static_cast<double>(p.k) * 2 * 4;
}

double algorithmBandwidth(double usefulBytes, double ns)
{
    return ns > 0 && std::isfinite(ns) ? usefulBytes / ns : 0;
}

} // namespace costscope
