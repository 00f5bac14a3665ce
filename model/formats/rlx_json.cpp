// SPDX-License-Identifier: MIT
#include "formats/rlx_json.h"

#include "formats/json_attrs.h"
#include "formats/rlx_symbols.h"
#include "ir/shape_inference.h"
#include "ir/validate.h"

#include <charconv>

namespace costscope {

namespace {

// Node keys Costscope adds to RLX's layout (RLX ignores keys it does not know): an unknown op's attributes, and
// the graphs of a control-flow op (If, Loop, Scan) with their own nodes in the same layout.
constexpr const char* kAttrsKey = "costscope_attrs";
constexpr const char* kSubgraphsKey = "costscope_subgraphs";

// Thrown inside the parser only, turned into a Diagnostic at the API boundary.
struct ParseFailure {
    Diagnostic diag;
};

[[noreturn]] void fail(const Node& n, const std::string& msg)
{
    throw ParseFailure{Diagnostic::atNode(Diagnostic::Severity::Error, n.id, n.displayName(), msg)};
}

[[noreturn]] void failAt(std::size_t index, const std::string& msg)
{
    throw ParseFailure{Diagnostic::error("nodes[" + std::to_string(index) + "]: " + msg)};
}

std::string scopeFromParamName(const std::string& name)
{
    auto dot = name.rfind('.');
    if (dot == std::string::npos)
        return {};
    std::string scope = name.substr(0, dot);
    for (char& c : scope)
        if (c == '.')
            c = '/';
    return scope;
}

// A "costscope_symbols" entry: decimal symbol number → name.
std::int64_t symbolNumber(const std::string& key, const OJson& name)
{
    std::int64_t number = 0;
    const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), number);
    if (ec != std::errc{} || end != key.data() + key.size() || !name.is_string())
        throw ParseFailure{Diagnostic::error("costscope_symbols entry \"" + key.substr(0, 40)
                                             + "\" must map a symbol number to a name")};
    return number;
}

Attrs structAttrs(const OJson& payload)
{
    Attrs attrs;
    for (auto it = payload.begin(); it != payload.end(); ++it)
        attrs.set(it.key(), attrFromJson(it.value()));
    return attrs;
}

TensorData constantBytes(const OJson& data, const Node& n)
{
    if (!data.is_array())
        fail(n, "Constant data must be an array of bytes");
    std::vector<std::uint8_t> bytes;
    bytes.reserve(data.size());
    for (const OJson& b : data) {
        if (!b.is_number_integer() || b.get<std::int64_t>() < 0 || b.get<std::int64_t>() > 255)
            fail(n, "Constant data must hold bytes 0..255, found " + b.dump());
        bytes.push_back(static_cast<std::uint8_t>(b.get<int>()));
    }
    return makeTensorData(std::move(bytes));
}

// Reads an op in any of its forms; Constant data moves into the node.
void readOp(const OJson& raw, Node& n)
{
    const OJson* x = &raw;
    if (x->is_object() && x->size() == 1 && x->begin().key() == "Mir")
        x = &x->begin().value();
    if (x->is_string()) {
        const std::string name = x->get<std::string>();
        auto kind = opKindFromName(name);
        if (kind && opInfo(*kind).form == PayloadForm::Unit)
            n.op = Op::make(*kind);
        else if (kind)
            fail(n, "op " + name + " needs a payload");
        else
            n.op = Op::unknown(name);
        return;
    }
    if (!x->is_object() || x->size() != 1)
        fail(n, "op must be a name or an object with one key, found " + x->dump().substr(0, 80));
    const std::string name = x->begin().key();
    const OJson& payload = x->begin().value();
    auto kind = opKindFromName(name);
    if (!kind) {
        n.op = Op::unknown(name, payload.dump());
        return;
    }
    switch (opInfo(*kind).form) {
    case PayloadForm::Unit:
        n.op = Op::unknown(name, payload.dump()); // a known name with an unexpected payload: keep it verbatim
        return;
    case PayloadForm::Scalar: {
        // RLX writes {"Activation": "Relu"}; a sub-op with parameters (LeakyRelu's alpha, from ONNX) has no RLX
        // spelling, so Costscope writes {"Activation": {"op": "LeakyRelu", "alpha": 0.1}} and reads both.
        if (payload.is_object() && payload.contains("op") && payload["op"].is_string()) {
            n.op = Op::make(*kind, structAttrs(payload));
            return;
        }
        if (!payload.is_string())
            fail(n, name + " payload must be a string such as \"Add\" or an object with a string \"op\", found "
                        + payload.dump().substr(0, 80));
        Attrs a;
        a.set("op", payload.get<std::string>());
        n.op = Op::make(*kind, std::move(a));
        return;
    }
    case PayloadForm::Struct:
        if (!payload.is_object())
            fail(n, name + " payload must be an object, found " + payload.dump().substr(0, 80));
        if (*kind == OpKind::Constant && payload.contains("data")) {
            n.data = constantBytes(payload["data"], n);
            OJson rest = payload;
            rest.erase("data");
            n.op = Op::make(*kind, structAttrs(rest));
        } else {
            n.op = Op::make(*kind, structAttrs(payload));
        }
        if (*kind == OpKind::Param)
            if (auto pn = n.op.attrs.getString("name"))
                n.scope = scopeFromParamName(*pn);
        return;
    }
}

Shape readShape(const OJson& s, const Node& n, const std::map<std::int64_t, std::string>& symbolNames)
{
    if (!s.is_object() || !s.contains("dims") || !s.contains("dtype"))
        fail(n, "shape must be an object with \"dims\" and \"dtype\"");
    const OJson& dims = s["dims"];
    const OJson& dtype = s["dtype"];
    if (!dims.is_array())
        fail(n, "shape dims must be an array");
    if (!dtype.is_string())
        fail(n, "shape dtype must be a string");
    Shape shape;
    auto t = parseDType(dtype.get<std::string>());
    if (!t)
        fail(n, "unknown dtype \"" + dtype.get<std::string>() + "\"");
    shape.dtype = *t;
    if (dims.size() > kMaxRank)
        fail(n, "rank " + std::to_string(dims.size()) + " is over the limit of " + std::to_string(kMaxRank));
    for (const OJson& d : dims) {
        if (!d.is_object() || d.size() != 1)
            fail(n, "a dim must be {\"Static\": n} or {\"Dynamic\": s}, found " + d.dump().substr(0, 60));
        const std::string& tag = d.begin().key();
        const OJson& v = d.begin().value();
        if (!v.is_number_integer())
            fail(n, "dim value must be an integer, found " + v.dump().substr(0, 60));
        if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
            fail(n, "dim " + v.dump() + " does not fit in 64 bits");
        if (tag == "Static") {
            if (v.get<std::int64_t>() < 0)
                fail(n, "dim " + v.dump() + " is negative");
            shape.dims.push_back(Dim::fixed(v.get<std::int64_t>()));
        } else if (tag == "Dynamic") {
            shape.dims.push_back(Dim::named(rlxSymbolName(v.get<std::int64_t>(), symbolNames)));
        } else {
            fail(n, "unknown dim kind \"" + tag + "\"");
        }
    }
    return shape;
}

std::vector<Subgraph> readSubgraphs(const OJson& list, const Node& n,
                                    const std::map<std::int64_t, std::string>& symbolNames);

Node readNode(const OJson& j, std::size_t index, const std::map<std::int64_t, std::string>& symbolNames)
{
    if (!j.is_object())
        failAt(index, "a node must be an object");
    if (!j.contains("id") || !j["id"].is_number_integer())
        failAt(index, "node has no integer \"id\"");
    Node n;
    n.id = j["id"].get<NodeId>();
    if (j.contains("name") && j["name"].is_string())
        n.name = j["name"].get<std::string>();
    else if (j.contains("name") && !j["name"].is_null())
        fail(n, "name must be a string or null");
    if (!j.contains("op"))
        fail(n, "node has no \"op\"");
    readOp(j["op"], n);
    if (!j.contains("inputs") || !j["inputs"].is_array())
        fail(n, "node has no \"inputs\" array");
    for (const OJson& in : j["inputs"]) {
        if (!in.is_number_integer())
            fail(n, "inputs must be node ids, found " + in.dump().substr(0, 60));
        n.inputs.push_back(in.get<NodeId>());
    }
    if (!j.contains("shape"))
        fail(n, "node has no \"shape\"");
    n.shape = readShape(j["shape"], n, symbolNames);
    if (j.contains(kAttrsKey)) {
        if (!j[kAttrsKey].is_object() || n.op.kind != OpKind::Unknown)
            fail(n, std::string(kAttrsKey) + " must be an object, on an op Costscope does not know");
        n.op.attrs = structAttrs(j[kAttrsKey]);
    }
    if (j.contains(kSubgraphsKey))
        n.subgraphs = readSubgraphs(j[kSubgraphsKey], n, symbolNames);
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& k = it.key();
        if (k != "id" && k != "op" && k != "inputs" && k != "shape" && k != "name" && k != kAttrsKey
            && k != kSubgraphsKey)
            n.extras.emplace_back(k, RawJson{it.value().dump()});
    }
    return n;
}

Graph readGraph(const OJson& root, const std::map<std::int64_t, std::string>& symbolNames);

std::vector<Subgraph> readSubgraphs(const OJson& list, const Node& n,
                                    const std::map<std::int64_t, std::string>& symbolNames)
{
    if (!list.is_array())
        fail(n, std::string(kSubgraphsKey) + " must be an array");
    std::vector<Subgraph> subs;
    for (const OJson& s : list) {
        if (!s.is_object() || !s.contains("attribute") || !s["attribute"].is_string() || !s.contains("graph")
            || !s.contains("outer_inputs") || !s["outer_inputs"].is_array())
            fail(n, std::string(kSubgraphsKey)
                        + " entries need \"attribute\" (a string), \"outer_inputs\" (an array) and \"graph\"");
        Subgraph sub;
        sub.attribute = s["attribute"].get<std::string>();
        for (const OJson& p : s["outer_inputs"]) {
            if (!p.is_number_unsigned() || p.get<std::size_t>() >= n.inputs.size())
                fail(n, "its " + sub.attribute + "'s outer_inputs must be positions in the node's "
                            + std::to_string(n.inputs.size()) + " inputs, found " + p.dump().substr(0, 40));
            sub.outerInputs.push_back(p.get<std::size_t>());
        }
        Graph g;
        try {
            g = readGraph(s["graph"], symbolNames);
        } catch (const ParseFailure& f) {
            fail(n, "its " + sub.attribute + ": " + f.diag.format("graph"));
        }
        if (Diagnostics problems = validateGraph(g); !problems.empty())
            fail(n, "its " + sub.attribute + ": " + problems.front().format("graph"));
        sub.graph = std::make_shared<const Graph>(std::move(g));
        subs.push_back(std::move(sub));
    }
    return subs;
}

Graph readGraph(const OJson& root, const std::map<std::int64_t, std::string>& symbolNames)
{
    if (!root.is_object())
        throw ParseFailure{Diagnostic::error("top level must be an object with \"nodes\" and \"outputs\"")};
    if (!root.contains("nodes") || !root["nodes"].is_array())
        throw ParseFailure{Diagnostic::error("missing \"nodes\" array")};
    if (!root.contains("outputs") || !root["outputs"].is_array())
        throw ParseFailure{Diagnostic::error("missing \"outputs\" array")};
    Graph g;
    if (root.contains("name")) {
        if (!root["name"].is_string())
            throw ParseFailure{Diagnostic::error("\"name\" must be a string")};
        g.name = root["name"].get<std::string>();
    }
    const OJson& nodes = root["nodes"];
    g.nodes.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i)
        g.nodes.push_back(readNode(nodes[i], i, symbolNames));
    for (const OJson& o : root["outputs"]) {
        if (!o.is_number_integer())
            throw ParseFailure{Diagnostic::error("outputs must be node ids, found " + o.dump().substr(0, 60))};
        g.outputs.push_back(o.get<NodeId>());
    }
    for (auto it = root.begin(); it != root.end(); ++it) {
        const std::string& k = it.key();
        if (k != "name" && k != "nodes" && k != "outputs" && k != "costscope_symbols")
            g.extras.emplace_back(k, RawJson{it.value().dump()});
    }
    return g;
}

OJson writeOp(const Node& n)
{
    const Op& op = n.op;
    if (op.kind == OpKind::Unknown) {
        if (op.unknownPayload.empty())
            return OJson{{"Mir", op.name}};
        return OJson{{"Mir", OJson{{op.name, OJson::parse(op.unknownPayload)}}}};
    }
    const OpInfo& info = op.info();
    OJson inner;
    switch (info.form) {
    case PayloadForm::Unit: inner = op.name; break;
    case PayloadForm::Scalar:
        if (op.attrs.entries().size() > 1) {
            OJson payload = OJson::object();
            for (const auto& [k, v] : op.attrs.entries())
                payload[k] = attrToJson(v);
            inner = OJson{{op.name, payload}};
        } else {
            inner = OJson{{op.name, op.subOp()}};
        }
        break;
    case PayloadForm::Struct: {
        OJson payload = OJson::object();
        if (op.kind == OpKind::Constant && n.data)
            payload["data"] = std::vector<std::uint8_t>(n.data->begin(), n.data->end());
        for (const auto& [k, v] : op.attrs.entries())
            payload[k] = attrToJson(v);
        inner = OJson{{op.name, payload}};
        break;
    }
    }
    if (op.kind == OpKind::Input || op.kind == OpKind::Param)
        return inner;
    return OJson{{"Mir", inner}};
}

OJson writeShape(const Shape& s, RlxSymbolNumbers& numbers)
{
    OJson dims = OJson::array();
    for (const Dim& d : s.dims)
        dims.push_back(d.isStatic() ? OJson{{"Static", d.value}} : OJson{{"Dynamic", numbers.numberOf(d.symbol)}});
    return OJson{{"dims", dims}, {"dtype", std::string(dtypeName(s.dtype))}};
}

OJson writeGraph(const Graph& g, RlxSymbolNumbers& numbers)
{
    OJson nodes = OJson::array();
    for (const Node& n : g.nodes) {
        OJson j;
        j["id"] = n.id;
        j["op"] = writeOp(n);
        j["inputs"] = n.inputs;
        j["shape"] = writeShape(n.shape, numbers);
        j["name"] = n.name ? OJson(*n.name) : OJson(nullptr);
        // An op Costscope does not know keeps its payload verbatim; what the importers added beside it (where an
        // ONNX op's inputs sit, which output a node stands for) is written too, so that the reloaded graph runs.
        if (n.op.kind == OpKind::Unknown && !n.op.attrs.empty()) {
            OJson attrs = OJson::object();
            for (const auto& [k, v] : n.op.attrs.entries())
                attrs[k] = attrToJson(v);
            j[kAttrsKey] = std::move(attrs);
        }
        if (!n.subgraphs.empty()) {
            OJson subs = OJson::array();
            for (const Subgraph& s : n.subgraphs)
                subs.push_back(OJson{{"attribute", s.attribute},
                                     {"outer_inputs", s.outerInputs},
                                     {"graph", s.graph ? writeGraph(*s.graph, numbers) : OJson::object()}});
            j[kSubgraphsKey] = std::move(subs);
        }
        for (const auto& [k, v] : n.extras)
            j[k] = OJson::parse(v.text);
        nodes.push_back(std::move(j));
    }
    OJson root;
    root["name"] = g.name;
    root["nodes"] = std::move(nodes);
    root["outputs"] = g.outputs;
    for (const auto& [k, v] : g.extras)
        root[k] = OJson::parse(v.text);
    return root;
}

} // namespace

Result<Graph> parseRlxJson(const std::string& text, Diagnostics* warnings)
{
    if (auto at = nestingTooDeepAt(text))
        return jsonNestingError(text, *at);
    OJson root;
    try {
        root = OJson::parse(text);
    } catch (const nlohmann::json::exception& e) {
        return jsonSyntaxError(text, e);
    }
    Graph g;
    try {
        std::map<std::int64_t, std::string> symbolNames;
        if (root.is_object() && root.contains("costscope_symbols") && root["costscope_symbols"].is_object())
            for (auto it = root["costscope_symbols"].begin(); it != root["costscope_symbols"].end(); ++it)
                symbolNames[symbolNumber(it.key(), it.value())] = it.value().get<std::string>();
        g = readGraph(root, symbolNames);
    } catch (const ParseFailure& f) {
        return f.diag;
    } catch (const nlohmann::json::exception& e) {
        return Diagnostic::error(std::string("unexpected JSON content: ") + e.what());
    }
    Diagnostics problems = validateGraph(g);
    if (!problems.empty())
        return problems.front();
    if (warnings) {
        for (const Node& n : g.nodes)
            if (n.op.kind == OpKind::Unknown)
                warnings->push_back(Diagnostic::atNode(Diagnostic::Severity::Warning, n.id, n.displayName(),
                                                       "unknown op " + n.op.name
                                                           + ": kept as written, costed as memory-bound"));
        auto shapeWarnings = checkStatedShapes(g);
        warnings->insert(warnings->end(), shapeWarnings.begin(), shapeWarnings.end());
    }
    return g;
}

std::string writeRlxJson(const Graph& g)
{
    RlxSymbolNumbers numbers;
    OJson root = writeGraph(g, numbers);
    if (!numbers.custom().empty()) {
        OJson names = OJson::object();
        for (const auto& [num, name] : numbers.custom())
            names[std::to_string(num)] = name;
        root["costscope_symbols"] = names;
    }
    return root.dump();
}

} // namespace costscope
