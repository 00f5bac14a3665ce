// SPDX-License-Identifier: MIT
// ONNX RNN, GRU and LSTM: forward, reverse or bidirectional, both layouts, initial states, biases, sequence_lens,
// clip, GRU's linear_before_reset, LSTM's peepholes and input_forget, and the activations of the defaults and the
// common alternatives. Y is output 0, Y_h output 1, LSTM's Y_c output 2 (a node each). Computed in F64.
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"

#include <cmath>

namespace costscope::cpu {

namespace {
struct Activation {
    std::string name;
    double alpha = 0, beta = 0;

    double operator()(double x) const
    {
        if (name == "Tanh")
            return std::tanh(x);
        if (name == "Relu")
            return std::max(0.0, x);
        if (name == "HardSigmoid")
            return std::clamp(alpha * x + beta, 0.0, 1.0);
        if (name == "LeakyRelu")
            return x >= 0 ? x : alpha * x;
        if (name == "ThresholdedRelu")
            return x > alpha ? x : 0;
        if (name == "ScaledTanh")
            return alpha * std::tanh(beta * x);
        if (name == "Affine")
            return alpha * x + beta;
        if (name == "Elu")
            return x >= 0 ? x : alpha * (std::exp(x) - 1);
        if (name == "Softsign")
            return x / (1 + std::abs(x));
        if (name == "Softplus")
            return std::log1p(std::exp(x));
        return 1 / (1 + std::exp(-x)); // Sigmoid
    }
};

template <class T>
std::vector<T> listAttr(const Attrs& a, const std::string& key)
{
    const AttrValue* v = a.find(key);
    if (const auto* list = v ? std::get_if<std::vector<T>>(v) : nullptr)
        return *list;
    return {};
}

// The activations of each direction: the attribute's, else the op's defaults; alphas and betas are consumed in
// order by the activations that take them.
std::vector<Activation> activations(const Attrs& a, const std::vector<std::string>& defaults, int directions)
{
    std::vector<std::string> names = listAttr<std::string>(a, "activations");
    while (names.size() < defaults.size() * static_cast<std::size_t>(directions))
        names.push_back(defaults[names.size() % defaults.size()]);
    const std::vector<double> alphas = listAttr<double>(a, "activation_alpha");
    const std::vector<double> betas = listAttr<double>(a, "activation_beta");
    std::vector<Activation> out;
    std::size_t ai = 0, bi = 0;
    for (const std::string& n : names) {
        Activation f{n};
        const bool takesAlpha = n == "HardSigmoid" || n == "LeakyRelu" || n == "ThresholdedRelu" || n == "ScaledTanh"
                                || n == "Affine" || n == "Elu";
        const bool takesBeta = n == "HardSigmoid" || n == "ScaledTanh" || n == "Affine";
        f.alpha = takesAlpha && ai < alphas.size() ? alphas[ai++]
                  : n == "HardSigmoid"             ? 0.2
                  : n == "LeakyRelu"               ? 0.01
                                                   : 1.0;
        f.beta = takesBeta && bi < betas.size() ? betas[bi++]
                 : n == "HardSigmoid"           ? 0.5
                 : n == "ScaledTanh"            ? 1.0
                                                : 0.0;
        out.push_back(f);
    }
    return out;
}

enum class Cell { Rnn, Gru, Lstm };

KernelStatus runRecurrent(KernelContext& ctx, const Inputs& in, HostTensor& out, Cell cell)
{
    const Attrs& attrs = ctx.attrs();
    const HostTensor *xT = onnxInput(ctx, in, 0), *wT = onnxInput(ctx, in, 1), *rT = onnxInput(ctx, in, 2);
    if (!xT || !wT || !rT || xT->rank() != 3 || wT->rank() != 3 || rT->rank() != 3)
        return fail("RNN, GRU and LSTM need X, W and R of rank 3");
    const HostTensor *bT = onnxInput(ctx, in, 3), *lensT = onnxInput(ctx, in, 4), *h0T = onnxInput(ctx, in, 5);
    const HostTensor* c0T = cell == Cell::Lstm ? onnxInput(ctx, in, 6) : nullptr;
    const HostTensor* pT = cell == Cell::Lstm ? onnxInput(ctx, in, 7) : nullptr;
    const bool batchFirst = attrs.intOr("layout", 0) != 0;
    const std::int64_t seq = xT->dim(batchFirst ? 1 : 0), batch = xT->dim(batchFirst ? 0 : 1), input = xT->dim(2);
    const std::int64_t gates = cell == Cell::Rnn ? 1 : cell == Cell::Gru ? 3 : 4;
    const std::int64_t hidden = attrs.intOr("hidden_size", rT->dim(2));
    const std::string direction = attrs.stringOr("direction", "forward");
    const int dirs = direction == "bidirectional" ? 2 : 1;
    if (wT->dim(0) != dirs || wT->dim(1) != gates * hidden || wT->dim(2) != input || rT->dim(2) != hidden)
        return fail("RNN, GRU or LSTM: W " + describe(*wT) + " and R " + describe(*rT) + " do not fit X "
                    + describe(*xT));
    const std::vector<std::string> defaults = cell == Cell::Rnn   ? std::vector<std::string>{"Tanh"}
                                              : cell == Cell::Gru ? std::vector<std::string>{"Sigmoid", "Tanh"}
                                                                  : std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"};
    const std::vector<Activation> act = activations(attrs, defaults, dirs);
    const double clip = attrs.doubleOr("clip", 0.0);
    auto clipped = [&](double v) { return clip > 0 ? std::clamp(v, -clip, clip) : v; };
    const bool linearBeforeReset = attrs.intOr("linear_before_reset", 0) != 0;
    const bool inputForget = attrs.intOr("input_forget", 0) != 0;
    const HostTensor x = toF64(ctx.pool, *xT), w = toF64(ctx.pool, *wT), r = toF64(ctx.pool, *rT);
    const HostTensor b = bT ? toF64(ctx.pool, *bT) : HostTensor({dirs, 2 * gates * hidden}, DType::F64);
    const HostTensor p = pT ? toF64(ctx.pool, *pT) : HostTensor({dirs, 3 * hidden}, DType::F64);
    HostTensor y(batchFirst ? Dims{batch, seq, dirs, hidden} : Dims{seq, dirs, batch, hidden}, DType::F64);
    HostTensor yh(batchFirst ? Dims{batch, dirs, hidden} : Dims{dirs, batch, hidden}, DType::F64);
    HostTensor yc = yh;
    auto xAt = [&](std::int64_t t, std::int64_t n, std::int64_t k) {
        return x.values<double>()[static_cast<std::size_t>(((batchFirst ? n * seq + t : t * batch + n)) * input + k)];
    };
    auto stateIndex = [&](int d, std::int64_t n) {
        return static_cast<std::size_t>((batchFirst ? n * dirs + d : d * batch + n) * hidden);
    };
    std::vector<double> h(static_cast<std::size_t>(hidden)), c(h), g(static_cast<std::size_t>(gates * hidden));
    for (int d = 0; d < dirs; ++d) {
        const bool reverse = direction == "reverse" || d == 1;
        const double* wd = w.values<double>().data() + d * gates * hidden * input;
        const double* rd = r.values<double>().data() + d * gates * hidden * hidden;
        const double* wb = b.values<double>().data() + d * 2 * gates * hidden;
        const double* rb = wb + gates * hidden;
        const double* pd = p.values<double>().data() + d * 3 * hidden;
        const Activation *f = &act[static_cast<std::size_t>(d) * defaults.size()],
                         *gAct = defaults.size() > 1 ? f + 1 : f;
        const Activation* hAct = defaults.size() > 2 ? f + 2 : gAct;
        for (std::int64_t n = 0; n < batch; ++n) {
            const std::int64_t len =
                lensT ? std::clamp<std::int64_t>(lensT->valueAsInt(static_cast<std::uint64_t>(n)), 0, seq) : seq;
            for (std::int64_t k = 0; k < hidden; ++k) {
                const std::size_t at = stateIndex(d, n) + static_cast<std::size_t>(k);
                h[static_cast<std::size_t>(k)] = h0T ? toF64(ctx.pool, *h0T).values<double>()[at] : 0;
                c[static_cast<std::size_t>(k)] = c0T ? toF64(ctx.pool, *c0T).values<double>()[at] : 0;
            }
            for (std::int64_t step = 0; step < len; ++step) {
                const std::int64_t t = reverse ? len - 1 - step : step;
                // g = X W^T + Wb (+ H R^T + Rb where the cell adds it before the activation)
                for (std::int64_t j = 0; j < gates * hidden; ++j) {
                    double v = wb[j];
                    for (std::int64_t k = 0; k < input; ++k)
                        v += xAt(t, n, k) * wd[j * input + k];
                    g[static_cast<std::size_t>(j)] = v;
                }
                auto hr = [&](std::int64_t j, const std::vector<double>& state) {
                    double v = rb[j];
                    for (std::int64_t k = 0; k < hidden; ++k)
                        v += state[static_cast<std::size_t>(k)] * rd[j * hidden + k];
                    return v;
                };
                std::vector<double> next(static_cast<std::size_t>(hidden));
                for (std::int64_t k = 0; k < hidden; ++k) {
                    const auto u = static_cast<std::size_t>(k);
                    if (cell == Cell::Rnn) {
                        next[u] = (*f)(clipped(g[u] + hr(k, h)));
                    } else if (cell == Cell::Gru) {
                        const double z = (*f)(clipped(g[u] + hr(k, h)));
                        const double rg = (*f)(clipped(g[u + static_cast<std::size_t>(hidden)] + hr(k + hidden, h)));
                        double candidate = 0;
                        if (linearBeforeReset) {
                            candidate = g[u + 2 * static_cast<std::size_t>(hidden)] + rg * hr(k + 2 * hidden, h);
                        } else {
                            std::vector<double> reset(h);
                            for (std::int64_t q = 0; q < hidden; ++q) {
                                const double rq =
                                    (*f)(clipped(g[static_cast<std::size_t>(q + hidden)] + hr(q + hidden, h)));
                                reset[static_cast<std::size_t>(q)] = rq * h[static_cast<std::size_t>(q)];
                            }
                            candidate = g[u + 2 * static_cast<std::size_t>(hidden)] + hr(k + 2 * hidden, reset);
                        }
                        const double hc = (*gAct)(clipped(candidate));
                        next[u] = (1 - z) * hc + z * h[u];
                    } else {
                        const std::size_t hid = static_cast<std::size_t>(hidden);
                        const double i = (*f)(clipped(g[u] + hr(k, h) + pd[k] * c[u]));
                        double fg = (*f)(clipped(g[u + 2 * hid] + hr(k + 2 * hidden, h) + pd[k + 2 * hidden] * c[u]));
                        if (inputForget)
                            fg = 1 - i;
                        const double cc = (*gAct)(clipped(g[u + 3 * hid] + hr(k + 3 * hidden, h)));
                        const double cNew = fg * c[u] + i * cc;
                        const double o = (*f)(clipped(g[u + hid] + hr(k + hidden, h) + pd[k + hidden] * cNew));
                        next[u] = o * (*hAct)(cNew);
                        g[u + 3 * hid] = cNew; // the new cell state, kept until every unit has read the old one
                    }
                }
                if (cell == Cell::Lstm)
                    for (std::int64_t k = 0; k < hidden; ++k)
                        c[static_cast<std::size_t>(k)] = g[static_cast<std::size_t>(k + 3 * hidden)];
                h = next;
                for (std::int64_t k = 0; k < hidden; ++k) {
                    const std::int64_t at = batchFirst ? ((n * seq + t) * dirs + d) * hidden + k
                                                       : ((t * dirs + d) * batch + n) * hidden + k;
                    y.values<double>()[static_cast<std::size_t>(at)] = h[static_cast<std::size_t>(k)];
                }
            }
            for (std::int64_t k = 0; k < hidden; ++k) {
                yh.values<double>()[stateIndex(d, n) + static_cast<std::size_t>(k)] = h[static_cast<std::size_t>(k)];
                yc.values<double>()[stateIndex(d, n) + static_cast<std::size_t>(k)] = c[static_cast<std::size_t>(k)];
            }
        }
    }
    const std::int64_t which = onnxOutput(ctx);
    return fromWide(ctx, which == 0 ? y : which == 1 ? yh : yc, xT->dtype(), out);
}
} // namespace

KernelStatus runRnn(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    return runRecurrent(ctx, in, out, Cell::Rnn);
}

KernelStatus runGru(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    return runRecurrent(ctx, in, out, Cell::Gru);
}

KernelStatus runLstm(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    return runRecurrent(ctx, in, out, Cell::Lstm);
}

} // namespace costscope::cpu
