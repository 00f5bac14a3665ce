// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace costscope {

using NodeId = std::int64_t;

// A problem found in a file or graph, with where it is: a node, or a line and column of the text.
struct Diagnostic {
    enum class Severity { Warning, Error };
    Severity severity = Severity::Error;
    std::string message;
    std::optional<NodeId> node;
    std::string nodeName;
    int line = 0; // 1-based; 0 when not known
    int column = 0;

    static Diagnostic error(std::string msg) { return {Severity::Error, std::move(msg), {}, {}, 0, 0}; }
    static Diagnostic warning(std::string msg) { return {Severity::Warning, std::move(msg), {}, {}, 0, 0}; }
    static Diagnostic atNode(Severity s, NodeId id, std::string name, std::string msg)
    {
        return {s, std::move(msg), id, std::move(name), 0, 0};
    }
    bool isError() const { return severity == Severity::Error; }
    // "FILE: node 17 (name): what", "FILE:LINE:COL: what" or "FILE: what".
    std::string format(const std::string& file) const;
};

using Diagnostics = std::vector<Diagnostic>;

bool hasErrors(const Diagnostics& d);

// A value or the error that prevented it.
template <class T>
class Result {
public:
    Result(T value) : m_v(std::move(value)) {}
    Result(Diagnostic error) : m_v(std::move(error)) {}
    bool ok() const { return std::holds_alternative<T>(m_v); }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<T>(m_v); }
    const T& value() const { return std::get<T>(m_v); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    const Diagnostic& error() const { return std::get<Diagnostic>(m_v); }

private:
    std::variant<T, Diagnostic> m_v;
};

} // namespace costscope
