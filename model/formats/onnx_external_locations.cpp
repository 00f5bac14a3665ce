// SPDX-License-Identifier: MIT
#include "formats/onnx_plugin.h"

#include <onnx/onnx_pb.h>

#include <set>

namespace costscope {

namespace {
void collect(const onnx::TensorProto& t, std::set<std::string>* into)
{
    if (t.data_location() != onnx::TensorProto::EXTERNAL)
        return;
    for (const auto& entry : t.external_data())
        if (entry.key() == "location")
            into->insert(entry.value());
}

void collect(const onnx::GraphProto& g, std::set<std::string>* into)
{
    for (const auto& t : g.initializer())
        collect(t, into);
    for (const auto& n : g.node())
        for (const auto& a : n.attribute()) {
            collect(a.t(), into);
            for (const auto& t : a.tensors())
                collect(t, into);
            if (a.has_g())
                collect(a.g(), into);
            for (const auto& sub : a.graphs())
                collect(sub, into);
        }
}
} // namespace

namespace onnx_import {
std::vector<std::string> onnxExternalDataLocations(const std::string& bytes)
{
    onnx::ModelProto model;
    if (!model.ParseFromString(bytes))
        return {};
    std::set<std::string> locations;
    collect(model.graph(), &locations);
    return {locations.begin(), locations.end()};
}

} // namespace onnx_import

} // namespace costscope
