// SPDX-License-Identifier: MIT
#include "formats/onnx_plugin.h"

#include "formats/onnx_builder.h"
#include "formats/onnx_external_data.h"
#include "formats/onnx_tensors.h"
#include "ir/validate.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <exception>
#include <mutex>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

namespace costscope {

namespace {
// The newest default-domain opset whose ops the import reads with their own meaning (docs/onnx_import.md): libonnx
// 1.12 has schemas up to 17; the ops opsets 18 to 21 changed or added are mapped and shape-inferred here.
constexpr int kNewestReadOpset = 21;

// The newest default-domain opset this build's libonnx has schemas for.
int newestKnownOpset()
{
    const auto& ranges = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    auto it = ranges.find(onnx::ONNX_DOMAIN);
    return it == ranges.end() ? 0 : it->second.second;
}

int defaultDomainOpset(const onnx::ModelProto& m, Diagnostics* warnings)
{
    for (const auto& o : m.opset_import())
        if (o.domain().empty() || o.domain() == "ai.onnx")
            return static_cast<int>(o.version());
    const int assumed = newestKnownOpset();
    if (warnings)
        warnings->push_back(Diagnostic::warning("the model names no opset for the default domain; assuming opset "
                                                + std::to_string(assumed)));
    return assumed;
}

// Gives unnamed dynamic input dims the name the import shows them with, before inference, so that the dims derived
// from them carry that name too instead of a fresh one per tensor.
void nameUnknownInputDims(onnx::GraphProto& g)
{
    for (auto& input : *g.mutable_input()) {
        if (!input.type().has_tensor_type() || !input.type().tensor_type().has_shape())
            continue;
        auto* shape = input.mutable_type()->mutable_tensor_type()->mutable_shape();
        for (int axis = 0; axis < shape->dim_size(); ++axis) {
            auto* d = shape->mutable_dim(axis);
            if (!d->has_dim_value() && (!d->has_dim_param() || d->dim_param().empty()))
                d->set_dim_param("unk_" + input.name() + "_" + std::to_string(axis));
        }
    }
}

// libonnx's inference stops at the first node of a domain the model imports no opset for, leaving every later
// tensor without a shape; declaring such domains lets it skip just those nodes.
void declareNodeDomains(onnx::ModelProto& m)
{
    std::set<std::string> declared;
    for (const auto& o : m.opset_import())
        declared.insert(o.domain());
    for (const auto& n : m.graph().node())
        if (!n.domain().empty() && n.domain() != "ai.onnx" && declared.insert(n.domain()).second) {
            auto* o = m.add_opset_import();
            o->set_domain(n.domain());
            o->set_version(1);
        }
}

// A graph input named twice breaks ONNX's single-assignment rule: which declaration a node reads is ambiguous,
// so such a model is refused (before libonnx's inference, which fuzzing showed it can also upset).
std::optional<Diagnostic> duplicateGraphInput(const onnx::GraphProto& g)
{
    std::set<std::string> names;
    for (const auto& in : g.input())
        if (!names.insert(in.name()).second)
            return Diagnostic::error("graph input '" + onnx_import::validUtf8(in.name())
                                     + "' is declared twice: an ONNX graph names each value once");
    return std::nullopt;
}

// libonnx 1.12's Gemm-6 shape inference reads dim 1 of B (of A when transposed) without checking the rank and
// crashes on a 1-D input (found by fuzz_onnx_import: SEGV in TensorShapeProto_Dimension::MergeImpl). Every Gemm
// schema's inference is wrapped once with the rank check later versions make; a failed check leaves that node's
// output without a shape, as lenient inference does for any node it cannot handle.
void guardGemmInference()
{
    static std::once_flag once;
    std::call_once(once, [] {
        std::set<const onnx::OpSchema*> wrapped;
        for (int version = 1; version <= newestKnownOpset(); ++version) {
            const onnx::OpSchema* found = onnx::OpSchemaRegistry::Schema("Gemm", version, onnx::ONNX_DOMAIN);
            if (!found || !wrapped.insert(found).second)
                continue;
            // The registry hands out const schemas; replacing one inference function is the only change made.
            auto* schema = const_cast<onnx::OpSchema*>(found);
            const onnx::InferenceFunction original = schema->GetTypeAndShapeInferenceFunction();
            if (!original)
                continue;
            schema->TypeAndShapeInferenceFunction([original](onnx::InferenceContext& ctx) {
                for (std::size_t i = 0; i < 2 && i < ctx.getNumInputs(); ++i) {
                    const onnx::TypeProto* t = ctx.getInputType(i);
                    if (t && t->has_tensor_type() && t->tensor_type().has_shape()
                        && t->tensor_type().shape().dim_size() != 2)
                        fail_shape_inference("Gemm input ", i, " has rank ", t->tensor_type().shape().dim_size(),
                                             ", not 2");
                }
                original(ctx);
            });
        }
    });
}

void inferShapes(onnx::ModelProto& m, Diagnostics* warnings)
{
    guardGemmInference();
    nameUnknownInputDims(*m.mutable_graph());
    declareNodeDomains(m);
    // Lenient mode: a node the inference cannot handle leaves its outputs without shape instead of failing
    // the whole model; data propagation resolves shapes computed by Shape/Gather/Concat chains.
    const onnx::ShapeInferenceOptions options(false, 0, true);
    try {
        onnx::shape_inference::InferShapes(m, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& e) {
        if (warnings)
            warnings->push_back(Diagnostic::warning(std::string("ONNX shape inference failed (") + e.what()
                                                    + "); using the shapes the file states"));
    }
}

void recordModelInfo(Graph& g, const onnx::ModelProto& m, int opset)
{
    g.extras.emplace_back("onnx_opset", RawJson{std::to_string(opset)});
    g.extras.emplace_back("onnx_ir_version", RawJson{std::to_string(m.ir_version())});
    if (!m.producer_name().empty()) {
        const std::string producer = onnx_import::validUtf8(m.producer_name() + " " + m.producer_version());
        g.extras.emplace_back("onnx_producer", RawJson{nlohmann::json(producer).dump()});
    }
}
} // namespace

namespace onnx_import {
Result<Graph> importOnnx(const std::string& bytes, Diagnostics* warnings, const std::string& modelFolder)
{
    if (bytes.empty())
        return Diagnostic::error("the file is empty: no ONNX model in it");
    onnx::ModelProto model;
    if (!model.ParseFromString(bytes))
        return Diagnostic::error("not a valid ONNX model: the protobuf data is truncated or corrupt ("
                                 + std::to_string(bytes.size()) + " bytes)");
    if (!model.has_graph() || model.ir_version() <= 0)
        return Diagnostic::error("not an ONNX model: no graph or IR version in the protobuf data");
    const int opset = defaultDomainOpset(model, warnings);
    if (opset > kNewestReadOpset && warnings)
        warnings->push_back(Diagnostic::warning(
            "the model uses opset " + std::to_string(opset) + ", newer than the newest Costscope reads ("
            + std::to_string(kNewestReadOpset) + "); ops are read with their opset " + std::to_string(kNewestReadOpset)
            + " meaning (Attention and RMSNormalization of opset 23 too)"));
    if (auto duplicate = duplicateGraphInput(model.graph()))
        return *duplicate;
    inferShapes(model, warnings);
    std::optional<onnx_import::ExternalData> external;
    if (!modelFolder.empty())
        external.emplace(modelFolder);
    auto graph = onnx_import::GraphBuilder(model.graph(), opset, warnings, external ? &*external : nullptr).build();
    if (!graph)
        return graph.error();
    recordModelInfo(*graph, model, opset);
    Diagnostics problems = validateGraph(*graph);
    for (const Diagnostic& d : problems)
        if (d.isError())
            return d;
    return graph;
}

} // namespace onnx_import

} // namespace costscope
