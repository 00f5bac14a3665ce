// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace costscope {

// JSON text kept verbatim for attribute values no typed form covers (nested objects of RLX payloads).
struct RawJson {
    std::string text;
    friend bool operator==(const RawJson&, const RawJson&) = default;
};

using AttrValue = std::variant<std::monostate, bool, std::int64_t, double, std::string, std::vector<std::int64_t>,
                               std::vector<double>, std::vector<std::string>, RawJson>;

// Ordered attribute list: order is kept so that files round-trip as written.
class Attrs {
public:
    using Entry = std::pair<std::string, AttrValue>;

    void set(const std::string& key, AttrValue v);
    const AttrValue* find(const std::string& key) const;
    bool has(const std::string& key) const { return find(key) != nullptr; }
    void erase(const std::string& key);

    std::optional<std::int64_t> getInt(const std::string& key) const;
    std::optional<double> getDouble(const std::string& key) const; // ints convert
    std::optional<std::string> getString(const std::string& key) const;
    std::optional<std::vector<std::int64_t>> getInts(const std::string& key) const;
    std::optional<bool> getBool(const std::string& key) const;

    std::int64_t intOr(const std::string& key, std::int64_t dflt) const { return getInt(key).value_or(dflt); }
    double doubleOr(const std::string& key, double dflt) const { return getDouble(key).value_or(dflt); }
    std::string stringOr(const std::string& key, std::string dflt) const
    {
        return getString(key).value_or(std::move(dflt));
    }
    std::vector<std::int64_t> intsOr(const std::string& key, std::vector<std::int64_t> dflt) const
    {
        return getInts(key).value_or(std::move(dflt));
    }

    const std::vector<Entry>& entries() const { return m_entries; }
    bool empty() const { return m_entries.empty(); }
    friend bool operator==(const Attrs&, const Attrs&) = default;

private:
    std::vector<Entry> m_entries;
};

std::string attrToString(const AttrValue& v);

} // namespace costscope
