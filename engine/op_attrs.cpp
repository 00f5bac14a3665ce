// SPDX-License-Identifier: MIT
#include "op_attrs.h"

#include <cmath>

namespace costscope {

std::vector<std::int64_t> spatialAttr(const Attrs& attrs, const std::string& key, std::size_t n, std::int64_t dflt)
{
    std::vector<std::int64_t> v = attrs.intsOr(key, {});
    if (v.size() == 1 && n > 1)
        v.assign(n, v[0]);
    if (v.size() != n)
        v.assign(n, dflt);
    return v;
}

Result<double> fftScale(const Attrs& attrs, bool inverse, std::int64_t n)
{
    const std::string norm = attrs.stringOr("norm", "Backward");
    if (norm == "Ortho")
        return 1.0 / std::sqrt(double(n));
    if ((norm == "Backward" && inverse) || (norm == "Forward" && !inverse))
        return 1.0 / double(n);
    if (norm != "Backward" && norm != "Forward")
        return Diagnostic::error("Fft: unknown norm '" + norm + "'");
    return 1.0;
}

Result<AttentionMask> attentionMask(const Attrs& attrs)
{
    AttentionMask m;
    const AttrValue* v = attrs.find("mask_kind");
    if (!v || std::holds_alternative<std::monostate>(*v))
        return m;
    if (auto s = attrs.getString("mask_kind")) {
        if (*s == "None")
            return m;
        if (*s == "Causal")
            m.kind = AttentionMask::Causal;
        else if (*s == "Bias" || *s == "Custom")
            m.kind = AttentionMask::Input;
        else
            return Diagnostic::error("unknown mask_kind '" + *s + "'");
        return m;
    }
    // RLX writes a sliding window as a JSON object ({"SlidingWindow": 128}), kept raw by the reader.
    if (const auto* raw = std::get_if<RawJson>(v)) {
        const std::size_t digit = raw->text.find_first_of("0123456789");
        if (raw->text.find("SlidingWindow") != std::string::npos && digit != std::string::npos) {
            m.kind = AttentionMask::Window;
            m.window = std::stoll(raw->text.substr(digit));
            return m;
        }
    }
    return Diagnostic::error("unsupported mask_kind " + attrToString(*v));
}

} // namespace costscope
