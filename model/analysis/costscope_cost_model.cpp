// SPDX-License-Identifier: MIT
#include "analysis/costscope_cost_model.h"
#include "analysis/reuse_distance.h"
#include "ir/constant_fold.h"

#include "analysis/dtype_rates.h"
#include "analysis/gemm_rate.h"
#include "analysis/kernel_predictor.h"
#include "analysis/kernel_rate.h"
#include "analysis/memory_rate.h"
#include "analysis/op_cost.h"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace costscope {

namespace {

constexpr std::size_t kClassCount = static_cast<std::size_t>(OpClass::Unknown) + 1;

// Positions of nodes by id. Graph::find builds a shared lazy index, which is not safe to do from several sweep
// threads at once; this lookup is private to one pass and skips the map when ids are positions.
class NodePositions {
public:
    explicit NodePositions(const Graph& g) : m_size(g.nodes.size())
    {
        for (std::size_t i = 0; i < g.nodes.size() && m_dense; ++i)
            m_dense = g.nodes[i].id == static_cast<NodeId>(i);
        if (!m_dense)
            for (std::size_t i = 0; i < g.nodes.size(); ++i)
                m_index.emplace(g.nodes[i].id, i);
    }
    std::optional<std::size_t> of(NodeId id) const
    {
        if (m_dense)
            return id >= 0 && static_cast<std::size_t>(id) < m_size ? std::optional<std::size_t>(id) : std::nullopt;
        auto it = m_index.find(id);
        return it == m_index.end() ? std::nullopt : std::optional<std::size_t>(it->second);
    }

private:
    std::size_t m_size;
    bool m_dense = true;
    std::unordered_map<NodeId, std::size_t> m_index;
};

std::array<double, kClassCount> correctionFactors(const DeviceProfile& p)
{
    std::array<double, kClassCount> f{};
    for (std::size_t c = 0; c < kClassCount; ++c) {
        auto it = p.corrections.find(std::string(opClassName(static_cast<OpClass>(c))));
        f[c] = it != p.corrections.end() && it->second > 0 ? it->second : 1.0;
    }
    return f;
}

bool usesGemmRate(const OpWork& w)
{
    return w.gemmM > 0 && w.gemmK > 0 && w.gemmN > 0;
}

// The profile's wave model of the backend kernel that runs `kind`, when it has one.
const TileWaves* tiledKernel(OpKind kind, const DeviceProfile& p)
{
    switch (kind) {
    case OpKind::MatMul:
    case OpKind::Gemm:
    case OpKind::FusedMatMulBiasAct: return p.matmulWaves.valid() ? &p.matmulWaves : nullptr;
    case OpKind::Conv: return p.convWaves.valid() ? &p.convWaves : nullptr;
    case OpKind::Attention:
        return p.attentionWaves.valid() ? &p.attentionWaves : nullptr;
    default: return nullptr;
    }
}

// Compute time of a Conv run one sample and group at a time (DeviceProfile::convPerSample): each GEMM at its own
// shape's rate, plus the im2col elements written at the im2col rate, plus the fixed cost of each call.
double perSampleConvNs(const OpWork& w, const GemmRate& gemmRate, const DeviceProfile& p)
{
    const OpWork::PerSample& s = w.perSample;
    const double callFlops = 2.0 * double(s.m) * double(s.k) * double(s.n);
    double ns = double(s.calls) * callFlops / std::max(gemmRate.at(s.m, s.k, s.n), 1e-9);
    if (p.im2colBw > 0)
        ns += 4.0 * s.columnElements / p.im2colBw;
    return ns + double(s.calls) * p.convCallNs;
}

struct Rates {
    const DeviceProfile& profile;
    const GemmRate& gemm;
    const KernelRate& kernel;
    const std::array<double, kClassCount>& byClass;
    const PrecisionRates& precision;
};

// Compute time of one kernel's work: a GEMM-shaped op at its shape's rate (or the profile's wave model of the
// kernel), another op at its measured kernel rate or its class's fraction of peak.
double computeNs(const Op& op, const OpWork& w, const Rates& r)
{
    const DeviceProfile& p = r.profile;
    const bool gemm = usesGemmRate(w);
    if (const TileWaves* waves = tiledKernel(op.kind, p); waves && gemm) {
        if (op.kind == OpKind::Attention) // rows of batch·heads·queries, each walking keys × head dim
            return waves->ns(w.gemmM, w.gemmN * w.gemmK, 1);
        return op.kind == OpKind::Conv ? waves->ns(w.gemmN, w.gemmK, w.gemmM, w.gemmGroups)
                                       : waves->ns(w.gemmM, w.gemmK, w.gemmN);
    }
    if (op.kind == OpKind::Conv && p.convPerSample && w.perSample.calls > 0)
        return perSampleConvNs(w, r.gemm, p);
    const std::optional<double> kernel = gemm ? std::nullopt : r.kernel.at(op, w.flops);
    const double rate =
        gemm ? std::max(r.precision.gemm(w.precision, r.gemm.at(w.gemmM, w.gemmK, w.gemmN), w.gemmM, w.gemmK, w.gemmN),
                        1e-9)
        : kernel ? std::max(*kernel, 1e-9)
                 : r.byClass[static_cast<std::size_t>(op.info().opClass)] * r.precision.vectorScale(w.precision);
    double ns = w.flops / rate; // GFLOP/s = FLOP/ns
    if (op.kind == OpKind::Conv && p.im2colBw > 0 && gemm)
        ns += 4.0 * static_cast<double>(w.gemmM) * static_cast<double>(w.gemmK) / p.im2colBw;
    return ns;
}

// Bytes a GEMM backend that packs B reads and writes on top of the op's own.
double packedBytes(const Op& op, const OpWork& w, const DeviceProfile& p)
{
    if (!p.gemmPacksB || !usesGemmRate(w) || op.kind == OpKind::Conv)
        return 0;
    return 2.0 * 4.0 * static_cast<double>(w.gemmK) * static_cast<double>(w.gemmN);
}

// The profile's predictor of the kernel class that runs this node, or null (the analytic terms price it).
const KernelPredictor* predictorFor(const DeviceProfile& p, const Node& node, const OpWork& w)
{
    if (!p.kernelPredictors || p.kernelPredictors->empty())
        return nullptr;
    auto it = p.kernelPredictors->find(kernelClassOf(node, w));
    return it != p.kernelPredictors->end() && it->second.valid() ? &it->second : nullptr;
}

} // namespace

double CostscopeCostModel::classEfficiency(OpClass c)
{
    // Typical fractions of fp32 peak that tuned libraries reach for these kernels when they are compute-bound;
    // they rarely are, so the memory term usually decides. Fitted corrections refine the result per device.
    switch (c) {
    case OpClass::ElementWise: return 0.5;
    case OpClass::Norm:
    case OpClass::Softmax:
    case OpClass::Reduce:
    case OpClass::Pool: return 0.3;
    case OpClass::Spectral: return 0.2;
    case OpClass::MatMul:
    case OpClass::Conv:
    case OpClass::Attention: return 0.7;
    default: return 0.1;
    }
}

GraphWork CostscopeCostModel::work(const Graph& g, const Bindings& b) const
{
    GraphWork gw;
    gw.io = ioProfile(g, b);
    const NodePositions positions(g);
    std::vector<std::optional<std::uint64_t>> elements(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        elements[i] = g.nodes[i].shape.elements(b);
    gw.nodes.reserve(g.nodes.size());
    gw.outputBytes.assign(g.nodes.size(), 0.0);
    gw.outputElements.assign(g.nodes.size(), 0.0);
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        gw.outputElements[i] = elements[i] ? static_cast<double>(*elements[i]) : 0.0;
    std::vector<TensorRef> inputs;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& node = g.nodes[i];
        inputs.clear();
        for (NodeId in : node.inputs) {
            const auto at = positions.of(in);
            inputs.push_back(at ? TensorRef{&g.nodes[*at].shape, elements[*at]} : TensorRef{});
        }
        gw.nodes.push_back(opWork(node, inputs, TensorRef{&node.shape, elements[i]}, b));
        if (isFoldableConstant(g, node)) { // made once when the backend compiles: a stored tensor
            OpWork stored;
            stored.free = true;
            gw.nodes.back() = std::move(stored);
        }
    }
    for (NodeId out : g.outputs)
        if (const auto at = positions.of(out); at && elements[*at])
            gw.outputBytes[*at] = static_cast<double>(*elements[*at]) * byteSize(g.nodes[*at].shape.dtype);
    gw.inputReuseBytes = inputReuseBytes(g, gw.nodes, b);
    return gw;
}

GraphCost CostscopeCostModel::estimate(const Graph& g, const DeviceProfile& p, const Bindings& b) const
{
    return price(g, work(g, b), p);
}

GraphCost CostscopeCostModel::price(const Graph& g, const GraphWork& gw, const DeviceProfile& p) const
{
    GraphCost gc;
    gc.model = name();
    gc.profile = p.name;
    gc.device = p.device;
    gc.calibration = p.calibration;
    gc.transferredFrom = p.transferredFrom;
    gc.io = gw.io;
    gc.nodes.reserve(g.nodes.size());

    const GemmRate gemmRate(p);
    const auto corrections = correctionFactors(p);
    const double peak = p.peakGflops > 0 ? p.peakGflops : p.sgemmGflops;
    const double readbackBw = p.readbackBw() > 0 ? p.readbackBw() : 1.0;
    std::array<double, kClassCount> classRate{};
    for (std::size_t c = 0; c < kClassCount; ++c)
        classRate[c] = std::max(peak * classEfficiency(static_cast<OpClass>(c)), 1e-9);
    const MemoryRate memoryRate(p);
    const KernelRate kernelRate(p);
    const PrecisionRates precisionRates(p);
    const Rates rates{p, gemmRate, kernelRate, classRate, precisionRates};
    double bestBw = std::max(p.memoryBw, 1e-9);
    for (const BandwidthPoint& b : p.memoryBwTable)
        bestBw = std::max(bestBw, b.gbps);

    double total = p.roundtripNs;
    for (std::size_t i = 0; i < g.nodes.size() && i < gw.nodes.size(); ++i) {
        const Node& node = g.nodes[i];
        const OpWork& w = gw.nodes[i];
        NodeCost nc;
        nc.id = node.id;
        nc.flops = w.flops;
        nc.bytes = w.bytes;
        nc.note = w.note;
        if (w.skipped) {
            nc.skipped = true;
            gc.skipped.push_back(node.id);
            gc.nodes.push_back(std::move(nc));
            continue;
        }
        const OpInfo& info = node.op.info();
        const auto cls = static_cast<std::size_t>(w.fused ? w.fused->opClass : info.opClass);
        if (!w.free) {
            double bytes = static_cast<double>(w.bytes);
            if (w.fused) {
                // One kernel doing each member's work at that member's own rate (a GEMM at the GEMM rate), over
                // the bytes that cross the set's boundary.
                for (const FusedMemberWork& m : w.fused->members) {
                    nc.computeNs += m.repeat * computeNs(m.op, m.work, rates);
                    bytes += m.repeat * packedBytes(m.op, m.work, p);
                }
            } else {
                nc.computeNs = computeNs(node.op, w, rates);
                bytes += packedBytes(node.op, w, p);
            }
            nc.memoryNs = bytes / memoryRate.at(bytes);
            nc.dispatchNs = p.dispatchNs;
            const double analytic = std::max(nc.computeNs, nc.memoryNs) + nc.dispatchNs;
            // The predictors learned full-precision kernels; tensor-core ones are the analytic terms' to price.
            const KernelPredictor* learned = isReducedFloat(w.precision) ? nullptr : predictorFor(p, node, w);
            if (learned) {
                // The learned ratio replaces the class correction; the roofline bounds it from below.
                const double floor = std::max(w.flops / peak, bytes / bestBw);
                const double elements = i < gw.outputElements.size() ? gw.outputElements[i] : 0.0;
                const double reuse = i < gw.inputReuseBytes.size() ? gw.inputReuseBytes[i] : -1.0;
                nc.totalNs = learned->predictNs(kernelFeatures(node, w, analytic, elements, reuse), analytic, floor);
                nc.learned = true;
            } else
                nc.totalNs = analytic * corrections[cls];
        } else if (p.viewCopyBw > 0 && w.viewBytes > 0) {
            // A backend without aliasing views copies the tensor: one read and one write.
            nc.memoryNs = 2.0 * static_cast<double>(w.viewBytes) / p.viewCopyBw;
            nc.dispatchNs = p.dispatchNs;
            nc.totalNs = (nc.memoryNs + nc.dispatchNs) * corrections[cls];
        }
        if (info.hostSync || (w.fused && w.fused->hostSync))
            nc.syncNs = p.roundtripNs;
        if (!p.unifiedMemory)
            nc.readbackNs = gw.outputBytes[i] / readbackBw;
        nc.totalNs += nc.syncNs + nc.readbackNs;
        total += nc.totalNs;
        gc.nodes.push_back(std::move(nc));
    }
    if (p.graphComposition.valid()) {
        // The kernels as one submission runs them (graph_composition.h), plus what each node adds outside them.
        double kernelNs = 0, kernels = 0, outside = 0;
        for (const NodeCost& nc : gc.nodes) {
            const double kernel = nc.kernelNs();
            kernelNs += kernel;
            kernels += kernel > 0 ? 1 : 0;
            outside += nc.syncNs + nc.readbackNs;
        }
        total = p.graphComposition.wholeNs(kernelNs, kernels) + outside;
    }
    gc.totalNs = total;
    return gc;
}

} // namespace costscope
