// SPDX-License-Identifier: MIT
// ONNX Einsum, by brute force over every label's range (explicit "->" or the implicit output of labels seen once, in
// alphabetical order; "..." for the dims no label names, aligned to the right). Computed in F64.
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace costscope::cpu {

namespace {
// Labels of one term, with "..." expanded to the last of `ellipsisDims` labels ('0', '1', ...: digits never name a
// dim), so that ellipses of different ranks align to the right.
std::optional<std::string> expandTerm(const std::string& term, std::size_t rank, std::size_t ellipsisDims)
{
    const auto dots = term.find("...");
    if (dots == std::string::npos)
        return term.size() == rank ? std::optional<std::string>(term) : std::nullopt;
    const std::size_t named = term.size() - 3;
    if (rank < named || rank - named > ellipsisDims)
        return std::nullopt;
    std::string labels;
    for (std::size_t i = ellipsisDims - (rank - named); i < ellipsisDims; ++i)
        labels += static_cast<char>('0' + i);
    return term.substr(0, dots) + labels + term.substr(dots + 3);
}
} // namespace

KernelStatus runEinsum(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    std::string eq = ctx.attrs().stringOr("equation", "");
    eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
    const auto arrow = eq.find("->");
    const std::string lhs = eq.substr(0, arrow);
    std::vector<std::string> terms;
    for (std::size_t start = 0;;) {
        const auto comma = lhs.find(',', start);
        terms.push_back(lhs.substr(start, comma - start));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    if (terms.size() != in.size())
        return fail("Einsum: '" + eq + "' names " + std::to_string(terms.size()) + " inputs, has "
                    + std::to_string(in.size()));
    std::size_t ellipsisDims = 0;
    for (std::size_t i = 0; i < in.size(); ++i)
        if (terms[i].find("...") != std::string::npos && in[i]->rank() + 3 >= terms[i].size())
            ellipsisDims = std::max(ellipsisDims, in[i]->rank() + 3 - terms[i].size());
    std::map<char, std::int64_t> sizes;
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < in.size(); ++i) {
        auto expanded = expandTerm(terms[i], in[i]->rank(), ellipsisDims);
        if (!expanded)
            return fail("Einsum: term '" + terms[i] + "' does not fit " + describe(*in[i]));
        labels.push_back(*expanded);
        for (std::size_t d = 0; d < expanded->size(); ++d) {
            auto [it, fresh] = sizes.emplace((*expanded)[d], in[i]->dim(d));
            if (!fresh && it->second != in[i]->dim(d) && it->second != 1 && in[i]->dim(d) != 1)
                return fail("Einsum: label '" + std::string(1, (*expanded)[d]) + "' has two sizes");
            it->second = std::max(it->second, in[i]->dim(d));
        }
    }
    std::string outLabels;
    if (arrow != std::string::npos) {
        outLabels = eq.substr(arrow + 2);
        if (const auto dots = outLabels.find("..."); dots != std::string::npos) {
            std::string ellipsis;
            for (std::size_t i = 0; i < ellipsisDims; ++i)
                ellipsis += static_cast<char>('0' + i);
            outLabels = outLabels.substr(0, dots) + ellipsis + outLabels.substr(dots + 3);
        }
    } else {
        for (std::size_t i = 0; i < ellipsisDims; ++i)
            outLabels += static_cast<char>('0' + i);
        for (const auto& [label, size] : sizes)
            if (!std::isdigit(static_cast<unsigned char>(label)) && std::count(lhs.begin(), lhs.end(), label) == 1)
                outLabels += label;
    }
    std::vector<char> all;
    for (const auto& [label, size] : sizes)
        all.push_back(label);
    Dims outDims;
    for (char l : outLabels) {
        if (!sizes.count(l))
            return fail("Einsum: output label '" + std::string(1, l) + "' is in no input");
        outDims.push_back(sizes[l]);
    }
    std::vector<HostTensor> wide;
    for (const HostTensor* t : in)
        wide.push_back(toF64(ctx.pool, *t));
    HostTensor result(outDims, DType::F64);
    std::map<char, std::int64_t> at;
    Dims counter(all.size(), 0);
    for (bool more = true; more;) {
        for (std::size_t i = 0; i < all.size(); ++i)
            at[all[i]] = counter[i];
        double term = 1;
        for (std::size_t i = 0; i < in.size() && term != 0; ++i) {
            std::int64_t offset = 0;
            for (std::size_t d = 0; d < labels[i].size(); ++d)
                offset = offset * in[i]->dim(d) + (in[i]->dim(d) == 1 ? 0 : at[labels[i][d]]);
            term *= wide[i].values<double>()[static_cast<std::size_t>(offset)];
        }
        std::int64_t o = 0;
        for (std::size_t d = 0; d < outLabels.size(); ++d)
            o = o * outDims[d] + at[outLabels[d]];
        result.values<double>()[static_cast<std::size_t>(o)] += term;
        std::size_t i = all.size();
        while (i > 0 && ++counter[i - 1] == sizes[all[i - 1]])
            counter[--i] = 0;
        more = i > 0;
    }
    return fromWide(ctx, result, in[0]->dtype(), out);
}

} // namespace costscope::cpu
