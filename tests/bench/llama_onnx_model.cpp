// SPDX-License-Identifier: MIT
#include "llama_onnx_model.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <vector>

namespace costscope::bench {

namespace {
using TP = onnx::TensorProto;

// The exporter's file layout: tensors of 1 KiB and more go to the data file, each at an offset aligned to 4 KiB
// (onnx.save's default alignment), smaller ones stay in the model.
constexpr std::uint64_t kExternalThreshold = 1024;
constexpr std::uint64_t kAlignment = 4096;

class Writer {
public:
    Writer(const std::filesystem::path& onnxPath, bool bf16)
        : m_bf16(bf16), m_dataName(onnxPath.filename().string() + ".data"),
          m_data(std::filesystem::path(onnxPath).concat(".data"), std::ios::binary | std::ios::trunc)
    {
        if (!m_data)
            throw std::runtime_error("cannot write " + onnxPath.string() + ".data");
        m_model.set_ir_version(10);
        m_model.set_producer_name("pytorch");
        m_model.set_producer_version("2.11.0 (costscope bench_onnx_load generator)");
        m_model.add_opset_import()->set_version(20);
        m_model.mutable_graph()->set_name("main_graph");
    }

    onnx::GraphProto& graph() { return *m_model.mutable_graph(); }
    int weightType() const { return m_bf16 ? TP::BFLOAT16 : TP::FLOAT; }

    // A weight of pseudo-random values in the model's dtype (fp32 or bf16).
    std::string weight(const std::string& name, const std::vector<std::int64_t>& dims)
    {
        std::uint64_t count = 1;
        for (auto d : dims)
            count *= static_cast<std::uint64_t>(d);
        m_parameters += static_cast<std::int64_t>(count);
        return tensor(name, weightType(), dims, count * (m_bf16 ? 2 : 4),
                      [&](std::vector<char>& chunk, std::uint64_t) { fillPattern(chunk); });
    }
    // A small constant of int64 values.
    std::string ints(const std::string& name, const std::vector<std::int64_t>& values, bool scalar = false)
    {
        std::vector<std::int64_t> dims;
        if (!scalar)
            dims.push_back(static_cast<std::int64_t>(values.size()));
        return bytes(name, TP::INT64, dims, values.data(), values.size() * 8);
    }
    // A scalar float in the given element type (FLOAT or BFLOAT16).
    std::string scalar(const std::string& name, float value, int type)
    {
        if (type == TP::BFLOAT16) {
            std::uint32_t bits = 0;
            std::memcpy(&bits, &value, 4);
            const auto half = static_cast<std::uint16_t>(bits >> 16);
            return bytes(name, type, {}, &half, 2);
        }
        return bytes(name, type, {}, &value, 4);
    }
    // A boolean tensor: the causal mask's lower triangle (or all true).
    std::string mask(const std::string& name, int seq, bool causal)
    {
        std::vector<std::uint8_t> v(static_cast<std::size_t>(seq) * static_cast<std::size_t>(seq), 1);
        for (int i = 0; i < seq && causal; ++i)
            for (int j = i + 1; j < seq; ++j)
                v[static_cast<std::size_t>(i) * static_cast<std::size_t>(seq) + static_cast<std::size_t>(j)] = 0;
        return bytes(name, TP::BOOL, {1, 1, seq, seq}, v.data(), v.size());
    }
    std::string boolScalar(const std::string& name)
    {
        const std::uint8_t one = 1;
        return bytes(name, TP::BOOL, {}, &one, 1);
    }

    std::string node(const std::string& op, const std::vector<std::string>& inputs, const std::string& output)
    {
        auto* n = graph().add_node();
        n->set_op_type(op);
        n->set_name("node_" + output);
        for (const auto& i : inputs)
            n->add_input(i);
        n->add_output(output);
        return output;
    }
    void intAttr(const std::string& name, std::int64_t v)
    {
        auto* a = lastNode().add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(v);
    }
    void intsAttr(const std::string& name, const std::vector<std::int64_t>& v)
    {
        auto* a = lastNode().add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INTS);
        for (auto x : v)
            a->add_ints(x);
    }

    void value(onnx::ValueInfoProto* v, const std::string& name, int type, const std::vector<std::int64_t>& dims)
    {
        v->set_name(name);
        auto* t = v->mutable_type()->mutable_tensor_type();
        t->set_elem_type(type);
        auto* shape = t->mutable_shape();
        for (auto d : dims)
            shape->add_dim()->set_dim_value(d);
    }

    WrittenModel finish(const std::filesystem::path& onnxPath)
    {
        m_data.close();
        if (!m_data)
            throw std::runtime_error("cannot write " + onnxPath.string() + ".data");
        std::ofstream out(onnxPath, std::ios::binary | std::ios::trunc);
        if (!out || !m_model.SerializeToOstream(&out))
            throw std::runtime_error("cannot write " + onnxPath.string());
        return {m_parameters, m_offset, m_model.graph().node_size()};
    }

private:
    onnx::NodeProto& lastNode() { return *graph().mutable_node(graph().node_size() - 1); }

    void fillPattern(std::vector<char>& chunk)
    {
        // Small values around zero in either dtype: a xorshift's bits masked into a finite exponent range.
        for (std::size_t i = 0; i + 4 <= chunk.size(); i += 4) {
            m_state ^= m_state << 13;
            m_state ^= m_state >> 7;
            m_state ^= m_state << 17;
            const auto bits = static_cast<std::uint32_t>((m_state & 0x807fffffu) | 0x3c000000u);
            std::memcpy(chunk.data() + i, &bits, 4);
        }
    }

    std::string bytes(const std::string& name, int type, const std::vector<std::int64_t>& dims, const void* p,
                      std::uint64_t size)
    {
        return tensor(name, type, dims, size, [&](std::vector<char>& chunk, std::uint64_t at) {
            std::memcpy(chunk.data(), static_cast<const char*>(p) + at, chunk.size());
        });
    }

    template <class Fill>
    std::string tensor(const std::string& name, int type, const std::vector<std::int64_t>& dims, std::uint64_t size,
                       Fill fill)
    {
        TP* t = graph().add_initializer();
        t->set_name(name);
        t->set_data_type(type);
        for (auto d : dims)
            t->add_dims(d);
        if (size < kExternalThreshold) {
            std::vector<char> all(size);
            fill(all, 0);
            t->set_raw_data(all.data(), all.size());
            return name;
        }
        const std::uint64_t start = (m_offset + kAlignment - 1) / kAlignment * kAlignment;
        std::vector<char> pad(start - m_offset, 0);
        m_data.write(pad.data(), static_cast<std::streamsize>(pad.size()));
        constexpr std::uint64_t kChunk = std::uint64_t{1} << 22;
        std::vector<char> chunk;
        for (std::uint64_t at = 0; at < size; at += kChunk) {
            chunk.resize(std::min(kChunk, size - at));
            fill(chunk, at);
            m_data.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        }
        m_offset = start + size;
        t->set_data_location(TP::EXTERNAL);
        auto add = [&](const char* key, const std::string& v) {
            auto* e = t->add_external_data();
            e->set_key(key);
            e->set_value(v);
        };
        add("location", m_dataName);
        add("offset", std::to_string(start));
        add("length", std::to_string(size));
        return name;
    }

    onnx::ModelProto m_model;
    bool m_bf16;
    std::string m_dataName;
    std::ofstream m_data;
    std::uint64_t m_offset = 0;
    std::int64_t m_parameters = 0;
    std::uint64_t m_state = 0x9e3779b97f4a7c15ull;
};

// The names the exporter gives values: a prefix and a running number.
class Names {
public:
    std::string operator()(const std::string& prefix) { return prefix + "_" + std::to_string(m_next++); }

private:
    int m_next = 1000; // above the fixed names of the shared constants (val_83 ... val_353)
};

struct Shared {
    std::string two, axes, eps, half, zero, lowest, normWeight, qkvShape, attnShape, kvExpand, vShape, kFlat, kTShape;
    std::string sliceLo, sliceMid, sliceHi, sliceAxis, sliceStep, unsqueezeAxis, bias;
};

std::string rmsNorm(Writer& w, Names& name, const Shared& s, std::string x)
{
    if (w.weightType() == TP::BFLOAT16) {
        x = w.node("Cast", {x}, name("_to_copy"));
        w.intAttr("to", TP::FLOAT);
    }
    const auto pow = w.node("Pow", {x, s.two}, name("pow"));
    const auto mean = w.node("ReduceMean", {pow, s.axes}, name("mean"));
    w.intAttr("noop_with_empty_axes", 0);
    w.intAttr("keepdims", 1);
    const auto add = w.node("Add", {mean, s.eps}, name("add"));
    const auto root = w.node("Sqrt", {add}, name("val"));
    const auto rsqrt = w.node("Reciprocal", {root}, name("rsqrt"));
    auto normed = w.node("Mul", {x, rsqrt}, name("mul"));
    if (w.weightType() == TP::BFLOAT16) {
        normed = w.node("Cast", {normed}, name("_to_copy"));
        w.intAttr("to", TP::BFLOAT16);
    }
    return w.node("Mul", {s.normWeight, normed}, name("mul"));
}

std::string rotate(Writer& w, Names& name, const Shared& s, const std::string& t, const std::string& cos,
                   const std::string& sin)
{
    const auto scaled = w.node("Mul", {t, cos}, name("mul"));
    const auto first = w.node("Slice", {t, s.sliceLo, s.sliceMid, s.sliceAxis, s.sliceStep}, name("slice"));
    const auto second = w.node("Slice", {t, s.sliceMid, s.sliceHi, s.sliceAxis, s.sliceStep}, name("slice"));
    const auto neg = w.node("Neg", {second}, name("neg"));
    const auto cat = w.node("Concat", {neg, first}, name("cat"));
    w.intAttr("axis", -1);
    const auto turned = w.node("Mul", {cat, sin}, name("mul"));
    return w.node("Add", {scaled, turned}, name("add"));
}

std::string heads(Writer& w, Names& name, const Shared& s, const std::string& x, const std::string& weight)
{
    const auto linear = w.node("MatMul", {x, weight}, name("linear"));
    const auto view = w.node("Reshape", {linear, s.qkvShape}, name("view"));
    w.intAttr("allowzero", 1);
    const auto t = w.node("Transpose", {view}, name("transpose"));
    w.intsAttr("perm", {0, 2, 1, 3});
    return t;
}

std::string layer(Writer& w, Names& name, const Shared& s, const LlamaShape& shape, int index, const std::string& x)
{
    const std::int64_t h = shape.hidden, kv = shape.hidden / shape.heads * shape.kvHeads,
                       hd = shape.hidden / shape.heads;
    const std::string p = "model.model.layers." + std::to_string(index) + ".";
    const auto normed = rmsNorm(w, name, s, x);
    const auto q = heads(w, name, s, normed, w.weight(p + "self_attn.q_proj.weight", {h, h}));
    const auto k = heads(w, name, s, normed, w.weight(p + "self_attn.k_proj.weight", {h, kv}));
    const auto v = heads(w, name, s, normed, w.weight(p + "self_attn.v_proj.weight", {h, kv}));
    const auto cos = w.weight(name("unsqueeze"), {1, 1, shape.seq, hd});
    const auto sin = w.weight(name("unsqueeze"), {1, 1, shape.seq, hd});
    const auto qr = rotate(w, name, s, q, cos, sin);
    const auto kr = rotate(w, name, s, k, cos, sin);
    const auto kx =
        w.node("Expand", {w.node("Unsqueeze", {kr, s.unsqueezeAxis}, name("unsqueeze")), s.kvExpand}, name("expand"));
    const auto vx =
        w.node("Expand", {w.node("Unsqueeze", {v, s.unsqueezeAxis}, name("unsqueeze")), s.kvExpand}, name("expand"));
    const auto vv = w.node("Reshape", {vx, s.vShape}, name("_unsafe_view"));
    w.intAttr("allowzero", 1);
    const auto kFlat = w.node("Reshape", {kx, s.kFlat}, name("val"));
    const auto kT = w.node("Transpose", {kFlat}, name("val"));
    w.intsAttr("perm", {0, 2, 1});
    const auto kT4 = w.node("Reshape", {kT, s.kTShape}, name("val"));
    w.intAttr("allowzero", 0);
    const auto qs = w.node("Mul", {qr, s.half}, name("val"));
    const auto ks = w.node("Mul", {kT4, s.half}, name("val"));
    const auto scores = w.node("Add", {w.node("MatMul", {qs, ks}, name("val")), s.bias}, name("val"));
    const auto probs = w.node("Softmax", {scores}, name("val"));
    w.intAttr("axis", -1);
    const auto nan = w.node("IsNaN", {probs}, name("val"));
    const auto safe = w.node("Where", {nan, s.zero, probs}, name("val"));
    const auto attn = w.node("MatMul", {safe, vv}, name("scaled_dot_product_attention"));
    const auto back = w.node("Transpose", {attn}, name("transpose"));
    w.intsAttr("perm", {0, 2, 1, 3});
    const auto merged = w.node("Reshape", {back, s.attnShape}, name("view"));
    w.intAttr("allowzero", 1);
    const auto o = w.node("MatMul", {merged, w.weight(p + "self_attn.o_proj.weight", {h, h})}, name("linear"));
    const auto mid = w.node("Add", {x, o}, name("add"));
    const auto n2 = rmsNorm(w, name, s, mid);
    const auto gate = w.node("MatMul", {n2, w.weight(p + "mlp.gate_proj.weight", {h, shape.mlp})}, name("linear"));
    const auto silu = w.node("Mul", {gate, w.node("Sigmoid", {gate}, name("val"))}, name("silu"));
    const auto up = w.node("MatMul", {n2, w.weight(p + "mlp.up_proj.weight", {h, shape.mlp})}, name("linear"));
    const auto prod = w.node("Mul", {silu, up}, name("mul"));
    const auto down = w.node("MatMul", {prod, w.weight(p + "mlp.down_proj.weight", {shape.mlp, h})}, name("linear"));
    return w.node("Add", {mid, down}, name("add"));
}
} // namespace

WrittenModel writeLlamaOnnx(const std::filesystem::path& onnxPath, const LlamaShape& shape)
{
    if (shape.layers < 1 || shape.heads < 1 || shape.kvHeads < 1 || shape.hidden % shape.heads != 0
        || shape.heads % shape.kvHeads != 0 || (shape.hidden / shape.heads) % 2 != 0)
        throw std::runtime_error("not a Llama shape: hidden must split into an even head size, heads into KV heads");
    Writer w(onnxPath, shape.bf16);
    Names name;
    const int type = w.weightType();
    const std::int64_t seq = shape.seq, hd = shape.hidden / shape.heads, rep = shape.heads / shape.kvHeads;
    // RMSNorm computes in fp32 in either dtype; attention's scale and mask in the model's dtype.
    Shared s;
    s.two = w.scalar("val_83", 2.0f, TP::FLOAT);
    s.axes = w.ints("val_85", {-1});
    s.eps = w.scalar("val_86", 1e-6f, TP::FLOAT);
    s.half = w.scalar("val_193", static_cast<float>(1.0 / std::sqrt(std::sqrt(static_cast<double>(hd)))), type);
    s.zero = w.scalar("val_197", 0.0f, type);
    s.lowest = w.scalar("val_198", std::numeric_limits<float>::lowest(), type);
    s.normWeight = w.weight("model.model.layers.0.input_layernorm.weight", {shape.hidden});
    s.qkvShape = w.ints("val_94", {1, seq, -1, hd});
    s.attnShape = w.ints("val_209", {1, seq, -1});
    s.kvExpand = w.ints("val_158", {1, shape.kvHeads, rep, seq, hd});
    s.vShape = w.ints("val_177", {1, shape.heads, seq, hd});
    s.kFlat = w.ints("val_189/shape", {shape.heads, seq, hd});
    s.kTShape = w.ints("val_191", {1, shape.heads, hd, seq});
    s.sliceLo = w.ints("val_111", {0});
    s.sliceMid = w.ints("val_115", {hd / 2});
    s.sliceHi = w.ints("val_127", {std::numeric_limits<std::int64_t>::max()});
    s.sliceAxis = w.ints("val_119", {3});
    s.sliceStep = w.ints("val_120", {1});
    s.unsqueezeAxis = w.ints("val_48", {2});

    w.value(w.graph().add_input(), "input_ids", TP::INT64, {1, seq});
    const auto embed = w.weight("model.model.embed_tokens.weight", {shape.vocab, shape.hidden});
    std::string x = w.node("Gather", {embed, "input_ids"}, "embedding");
    w.intAttr("axis", 0);
    const auto causal = w.node("And", {w.boolScalar("new_ones"), w.mask("le", shape.seq, true)}, "bitwise_and");
    const auto mask = w.node("And", {causal, w.mask("eq", shape.seq, false)}, "bitwise_and_1");
    s.bias = w.node("Where", {mask, s.zero, s.lowest}, "val_199");
    for (int i = 0; i < shape.layers; ++i)
        x = layer(w, name, s, shape, i, x);
    const auto last = rmsNorm(w, name, s, x);
    w.node("MatMul", {last, w.weight("val_353", {shape.hidden, shape.vocab})}, "output");
    w.value(w.graph().add_output(), "output", type, {1, seq, shape.vocab});
    return w.finish(onnxPath);
}

} // namespace costscope::bench
