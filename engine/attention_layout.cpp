// SPDX-License-Identifier: MIT
#include "attention_layout.h"

#include <string>

namespace costscope {

namespace {
std::string dimsText(const std::vector<std::int64_t>& d)
{
    std::string s = "[";
    for (std::size_t i = 0; i < d.size(); ++i)
        s += (i ? "," : "") + std::to_string(d[i]);
    return s + "]";
}

std::int64_t productOf(const std::vector<std::int64_t>& d, std::size_t from, std::size_t to)
{
    std::int64_t n = 1;
    for (std::size_t i = from; i < to && i < d.size(); ++i)
        n *= d[i];
    return n;
}
} // namespace

Result<AttentionLayout> attentionLayout(const std::vector<std::int64_t>& q, const std::vector<std::int64_t>& k,
                                        const std::vector<std::int64_t>& v, std::int64_t heads, std::int64_t headDim)
{
    AttentionLayout l;
    l.heads = heads;
    l.headDim = headDim;
    const std::string expect = " (packed [..., seq, num_heads*head_dim = " + std::to_string(heads * headDim)
                               + "] or per head [..., num_heads = " + std::to_string(heads)
                               + ", seq, head_dim = " + std::to_string(headDim) + "])";
    if (heads < 1 || headDim < 1)
        return Diagnostic::error("Attention: num_heads " + std::to_string(heads) + " and head_dim "
                                 + std::to_string(headDim) + " must be positive");
    if (q.size() < 2)
        return Diagnostic::error("Attention: q " + dimsText(q) + " fits no layout" + expect);
    const std::size_t r = q.size();
    // Packed wins where both fit (one head: the same bytes either way).
    if (q.back() == heads * headDim) {
        l.perHead = false;
    } else if (r >= 3 && q.back() == headDim && q[r - 3] == heads) {
        l.perHead = true;
    } else {
        return Diagnostic::error("Attention: q " + dimsText(q) + " fits no layout" + expect);
    }
    if (k != v)
        return Diagnostic::error("Attention: k " + dimsText(k) + " and v " + dimsText(v) + " differ");
    const std::size_t kr = k.size();
    const bool kFits =
        l.perHead ? kr == r && k.back() == headDim && k[kr - 3] >= 1 && heads % k[kr - 3] == 0
                  : kr == r && k.back() % headDim == 0 && k.back() >= headDim && heads % (k.back() / headDim) == 0;
    if (!kFits)
        return Diagnostic::error("Attention: k and v " + dimsText(k) + " do not fit q " + dimsText(q) + " with "
                                 + std::to_string(heads) + " heads of " + std::to_string(headDim)
                                 + " (KV heads must divide the query heads)");
    l.sq = q[r - 2];
    l.sk = k[kr - 2];
    if (l.perHead) {
        l.kvHeads = k[kr - 3];
        l.batch = productOf(q, 0, r - 3);
        if (productOf(k, 0, kr - 3) != l.batch)
            return Diagnostic::error("Attention: the batch dims of q " + dimsText(q) + " and k " + dimsText(k)
                                     + " differ");
        l.q = {heads * l.sq * headDim, l.sq * headDim, headDim};
        l.kv = {l.kvHeads * l.sk * headDim, l.sk * headDim, headDim};
    } else {
        l.kvHeads = k.back() / headDim;
        l.batch = productOf(q, 0, r - 2);
        if (productOf(k, 0, kr - 2) != l.batch)
            return Diagnostic::error("Attention: the batch dims of q " + dimsText(q) + " and k " + dimsText(k)
                                     + " differ");
        l.q = {l.sq * heads * headDim, headDim, heads * headDim};
        l.kv = {l.sk * l.kvHeads * headDim, headDim, l.kvHeads * headDim};
    }
    return l;
}

} // namespace costscope
