// SPDX-License-Identifier: MIT
// Shape rules see attributes and dims straight from files: any op with any attribute values and input shapes must
// give a shape within limits (rank, every dim in 0..2^62) or an error, with no overflow or out-of-range access (UBSan/ASan watch).
#include "ir/shape_inference.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
class Bytes {
public:
    Bytes(const std::uint8_t* d, std::size_t n) : m_d(d), m_n(n) {}
    std::uint8_t byte() { return m_i < m_n ? m_d[m_i++] : 0; }
    // Mostly small values, sometimes extremes, so both ordinary and hostile attributes are tried.
    std::int64_t value()
    {
        const std::uint8_t sel = byte();
        if (sel < 200)
            return static_cast<std::int64_t>(byte() % 20) - 4;
        std::int64_t v = 0;
        for (int i = 0; i < 8; ++i)
            v = static_cast<std::int64_t>(static_cast<std::uint64_t>(v) << 8 | byte());
        return v;
    }

private:
    const std::uint8_t* m_d;
    std::size_t m_n;
    std::size_t m_i = 0;
};

const char* const kKeys[] = {"kernel_size", "stride", "padding", "padding_end", "dilation", "groups", "ceil_mode",
                             "output_padding", "axis", "axes", "perm", "new_shape", "starts", "ends", "steps",
                             "target_shape", "pads", "repeats", "start", "len", "k", "n_segments", "num_heads",
                             "head_dim", "trans_a", "trans_b", "keep_dim", "n_mels"};
const char* const kSymbols[] = {"batch", "seq", "h"};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace costscope;
    Bytes in(data, size);
    const auto& catalogue = opCatalogue();
    Attrs attrs;
    const int attrCount = in.byte() % 6;
    for (int a = 0; a < attrCount; ++a) {
        const char* key = kKeys[in.byte() % std::size(kKeys)];
        std::vector<std::int64_t> list(in.byte() % 5);
        for (auto& v : list)
            v = in.value();
        attrs.set(key, list.size() == 1 ? AttrValue(list[0]) : AttrValue(list));
    }
    if (in.byte() % 2)
        attrs.set("to", std::string("I64"));
    Op op = Op::make(catalogue[in.byte() % catalogue.size()].kind, std::move(attrs));
    std::vector<Shape> shapes(in.byte() % 6);
    std::vector<Node> nodes(shapes.size());
    std::vector<const Node*> pointers;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const std::size_t rank = in.byte() % 6;
        for (std::size_t r = 0; r < rank; ++r) {
            const std::uint8_t sel = in.byte();
            if (sel < 30)
                shapes[i].dims.push_back(Dim::named(kSymbols[sel % std::size(kSymbols)]));
            else
                shapes[i].dims.push_back(Dim::fixed(std::llabs(in.value() % (std::int64_t{1} << 62))));
        }
        shapes[i].dtype = in.byte() % 2 ? DType::I64 : DType::F32;
        nodes[i].shape = shapes[i];
        if (shapes[i].dtype == DType::I64) {
            std::vector<std::int64_t> values(in.byte() % 5);
            for (auto& v : values)
                v = in.value();
            std::vector<std::uint8_t> bytes(values.size() * 8);
            if (!values.empty())
                std::memcpy(bytes.data(), values.data(), bytes.size());
            nodes[i].data = makeTensorData(std::move(bytes));
        }
        pointers.push_back(&nodes[i]);
    }
    auto out = inferShape(op, shapes, pointers);
    if (!out)
        return 0;
    if (out->rank() > kMaxRank)
        std::abort();
    for (const Dim& d : out->dims)
        if (d.isStatic() && (d.value < 0 || d.value > (std::int64_t{1} << 62)))
            std::abort();
    return 0;
}
