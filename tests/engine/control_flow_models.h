// SPDX-License-Identifier: MIT
#pragma once

// Small ONNX models with If, Loop and Scan, written with libonnx's protobuf classes, that the CPU, Vulkan and CUDA
// control-flow tests all run.
#include "formats/onnx_import.h"
#include "measure.h"
#include "onnx_writer.h"
#include "tensor.h"

#include <QFile>
#include <QTemporaryDir>

namespace costscope::test {

// A subgraph: inputs and outputs of unknown shape (as exporters often write them), nodes added by the caller.
struct Body {
    onnx::GraphProto g;
    explicit Body(const std::string& name) { g.set_name(name); }
    onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& in, const std::string& out)
    {
        auto* n = g.add_node();
        n->set_op_type(op);
        n->set_name(out);
        for (const auto& i : in)
            n->add_input(i);
        n->add_output(out);
        return *n;
    }
    void value(bool input, const std::string& name, int type)
    {
        auto* v = input ? g.add_input() : g.add_output();
        v->set_name(name);
        v->mutable_type()->mutable_tensor_type()->set_elem_type(type);
    }
};

inline void graphAttr(onnx::NodeProto& n, const std::string& name, const onnx::GraphProto& g)
{
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::GRAPH);
    *a->mutable_g() = g;
}

inline void scalarInput(OnnxModel& m, const std::string& name, int type)
{
    auto* v = m.graph().add_input();
    v->set_name(name);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(type);
    v->mutable_type()->mutable_tensor_type()->mutable_shape();
}

inline Result<Graph> import(const OnnxModel& m)
{
    QTemporaryDir dir;
    const QString path = dir.filePath("m.onnx");
    m.save(path);
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Diagnostic::error("cannot read back the model");
    const QByteArray bytes = f.readAll();
    return importOnnx(std::string(bytes.constData(), static_cast<std::size_t>(bytes.size())), nullptr);
}

inline HostTensor f32(std::vector<std::int64_t> dims, std::vector<float> v)
{
    return HostTensor::fromBytes(std::move(dims), DType::F32, v.data(), v.size() * sizeof(float));
}
inline HostTensor boolean(bool b)
{
    return HostTensor::fromBytes({}, DType::Bool, &b, 1);
}
inline HostTensor i64(std::int64_t v)
{
    return HostTensor::fromBytes({}, DType::I64, &v, sizeof v);
}

inline std::vector<float> floats(const HostTensor& t)
{
    std::vector<float> v;
    for (std::uint64_t i = 0; i < t.elements(); ++i)
        v.push_back(static_cast<float>(t.valueAsDouble(i)));
    return v;
}

// A Loop body over (i, c_in, y_in) that passes its condition on as its first output; the caller adds y_out.
inline Body loopBody()
{
    Body body("loop_body");
    body.value(true, "i", onnx::TensorProto::INT64);
    body.value(true, "c_in", onnx::TensorProto::BOOL);
    body.value(true, "y_in", onnx::TensorProto::FLOAT);
    body.node("Identity", {"c_in"}, "c_out");
    body.value(false, "c_out", onnx::TensorProto::BOOL);
    return body;
}

// y_out = y_in + `addend` (a value of the enclosing graph), also stacked as the scan output scan_out.
inline Body accumulatingLoopBody(const std::string& addend)
{
    Body body = loopBody();
    body.node("Add", {"y_in", addend}, "y_out");
    body.node("Identity", {"y_out"}, "scan_out");
    body.value(false, "y_out", onnx::TensorProto::FLOAT);
    body.value(false, "scan_out", onnx::TensorProto::FLOAT);
    return body;
}

// A Scan body: s_out = s_in + x_t, each step's s_out also stacked as the scan output partial.
inline Body runningSumBody()
{
    Body body("scan_body");
    body.value(true, "s_in", onnx::TensorProto::FLOAT);
    body.value(true, "x_t", onnx::TensorProto::FLOAT);
    body.node("Add", {"s_in", "x_t"}, "s_out");
    body.node("Identity", {"s_out"}, "partial");
    body.value(false, "s_out", onnx::TensorProto::FLOAT);
    body.value(false, "partial", onnx::TensorProto::FLOAT);
    return body;
}

// y, ys = Loop(M, cond, y0) with body y = y + x (x read from the enclosing graph), ys stacking every y.
inline OnnxModel loopModel(bool constantTripCount)
{
    OnnxModel m(17);
    Body body = accumulatingLoopBody("x");
    if (constantTripCount) {
        auto* t = m.graph().add_initializer();
        t->set_name("M");
        t->set_data_type(onnx::TensorProto::INT64);
        t->add_int64_data(3);
    } else {
        scalarInput(m, "M", onnx::TensorProto::INT64);
    }
    m.input("x", {2});
    m.input("y0", {2});
    auto& loop = m.node("Loop", {"M", "", "y0"}, {"y", "ys"});
    graphAttr(loop, "body", body.g);
    m.output("y", {2});
    m.output("ys", {3, 2});
    return m;
}

// y = If(cond) then x + x else x * x, for x [3].
inline OnnxModel ifModel()
{
    OnnxModel m(17);
    Body then("then_body"), other("else_body");
    then.node("Add", {"x", "x"}, "t");
    then.value(false, "t", onnx::TensorProto::FLOAT);
    other.node("Mul", {"x", "x"}, "e");
    other.value(false, "e", onnx::TensorProto::FLOAT);
    scalarInput(m, "cond", onnx::TensorProto::BOOL);
    m.input("x", {3});
    auto& n = m.node("If", {"cond"}, {"y"});
    graphAttr(n, "then_branch", then.g);
    graphAttr(n, "else_branch", other.g);
    m.output("y", {3});
    return m;
}

// sum, partials = Scan(init, xs) along axis 1 of xs [2, 3], backwards: the running sum of each column.
inline OnnxModel scanModel()
{
    OnnxModel m(17);
    Body body = runningSumBody();
    m.input("init", {2});
    m.input("xs", {2, 3});
    auto& scan = m.node("Scan", {"init", "xs"}, {"sum", "partials"});
    OnnxModel::attr(scan, "num_scan_inputs", std::int64_t{1});
    OnnxModel::attr(scan, "scan_input_axes", std::vector<std::int64_t>{1});
    OnnxModel::attr(scan, "scan_input_directions", std::vector<std::int64_t>{1});
    graphAttr(scan, "body", body.g);
    m.output("sum", {2});
    m.output("partials", {3, 2});
    return m;
}

// Device work on both sides of a Loop whose trip count is an input (so its scan output's length is known only once
// it ran): x2 = x * x; y, ys = Loop(M, "", y0) with body y = y + x2; sq = ys * ys.
inline OnnxModel loopBetweenOpsModel()
{
    OnnxModel m(17);
    Body body = accumulatingLoopBody("x2");
    scalarInput(m, "M", onnx::TensorProto::INT64);
    m.input("x", {2});
    m.input("y0", {2});
    m.node("Mul", {"x", "x"}, {"x2"});
    auto& loop = m.node("Loop", {"M", "", "y0"}, {"y", "ys"});
    graphAttr(loop, "body", body.g);
    m.node("Mul", {"ys", "ys"}, {"sq"});
    m.output("y", {2});
    m.outputWithoutShape("sq");
    return m;
}

// Control flow inside control flow, reading a value two graphs out: y = Loop(3, "", y0) whose body is
// y = If(flag) then y + x else y - x (flag and x are inputs of the outer graph).
inline OnnxModel nestedModel()
{
    OnnxModel m(17);
    Body then("then_body"), other("else_body");
    then.node("Add", {"y_in", "x"}, "t");
    then.value(false, "t", onnx::TensorProto::FLOAT);
    other.node("Sub", {"y_in", "x"}, "e");
    other.value(false, "e", onnx::TensorProto::FLOAT);
    Body body = loopBody();
    auto& branch = body.node("If", {"flag"}, "y_out");
    graphAttr(branch, "then_branch", then.g);
    graphAttr(branch, "else_branch", other.g);
    body.value(false, "y_out", onnx::TensorProto::FLOAT);
    auto* t = m.graph().add_initializer();
    t->set_name("M");
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_int64_data(3);
    scalarInput(m, "flag", onnx::TensorProto::BOOL);
    m.input("x", {2});
    m.input("y0", {2});
    auto& loop = m.node("Loop", {"M", "", "y0"}, {"y"});
    graphAttr(loop, "body", body.g);
    m.output("y", {2});
    return m;
}

// An int64 Constant node of `body` named `name`: a scalar, or a list when `list`.
inline void intConstant(Body& body, const std::string& name, std::vector<std::int64_t> values, bool list)
{
    auto* a = body.node("Constant", {}, name).add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    auto* t = a->mutable_t();
    t->set_data_type(onnx::TensorProto::INT64);
    if (list)
        t->add_dims(static_cast<std::int64_t>(values.size()));
    for (std::int64_t v : values)
        t->add_int64_data(v);
}

// Shape operands computed from the iteration number (as in ONNX's test_loop11): y, ys = Loop(4, "", y0) with body
// y = y + x[i : i + 1] for x [4] read from the enclosing graph.
inline OnnxModel sliceByIterationModel()
{
    OnnxModel m(17);
    Body body = loopBody();
    intConstant(body, "one", {1}, false);
    intConstant(body, "axes", {0}, true);
    body.node("Add", {"i", "one"}, "end");
    body.node("Unsqueeze", {"i", "axes"}, "starts");
    body.node("Unsqueeze", {"end", "axes"}, "ends");
    body.node("Slice", {"x", "starts", "ends"}, "x_i");
    body.node("Add", {"y_in", "x_i"}, "y_out");
    body.node("Identity", {"y_out"}, "scan_out");
    body.value(false, "y_out", onnx::TensorProto::FLOAT);
    body.value(false, "scan_out", onnx::TensorProto::FLOAT);
    auto* t = m.graph().add_initializer();
    t->set_name("M");
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_int64_data(4);
    m.input("x", {4});
    m.input("y0", {1});
    auto& loop = m.node("Loop", {"M", "", "y0"}, {"y", "ys"});
    graphAttr(loop, "body", body.g);
    m.output("y", {1});
    m.output("ys", {4, 1});
    return m;
}

// A model with its inputs, run the same on every backend.
struct ControlFlowCase {
    const char* name;
    OnnxModel model;
    std::vector<HostTensor> inputs;
};

inline std::vector<ControlFlowCase> controlFlowCases()
{
    const auto x = f32({2}, {1, 10}), y0 = f32({2}, {0, 5});
    std::vector<ControlFlowCase> cases;
    cases.push_back({"if_then", ifModel(), {boolean(true), f32({3}, {1, 2, 3})}});
    cases.push_back({"if_else", ifModel(), {boolean(false), f32({3}, {1, 2, 3})}});
    cases.push_back({"loop_constant_trips", loopModel(true), {x, y0}});
    cases.push_back({"loop_trips_input", loopModel(false), {i64(4), x, y0}});
    cases.push_back({"loop_between_ops", loopBetweenOpsModel(), {i64(3), x, y0}});
    cases.push_back({"loop_no_trips", loopBetweenOpsModel(), {i64(0), x, y0}});
    cases.push_back({"loop_slices_by_iteration", sliceByIterationModel(), {f32({4}, {1, 2, 3, 4}), f32({1}, {10})}});
    cases.push_back({"scan", scanModel(), {f32({2}, {0, 100}), f32({2, 3}, {1, 2, 3, 4, 5, 6})}});
    cases.push_back({"nested_then", nestedModel(), {boolean(true), x, y0}});
    cases.push_back({"nested_else", nestedModel(), {boolean(false), x, y0}});
    return cases;
}

// The graph's outputs after one run on `backend` (device 0), instrumented or not.
inline Result<std::vector<HostTensor>> runOn(Backend& backend, const Graph& g, const std::vector<HostTensor>& inputs,
                                             bool instrumented = false)
{
    auto plan = preparePlan(backend, g, {}, 0, inputs);
    if (!plan)
        return plan.error();
    if (instrumented) {
        if (auto r = (*plan)->runInstrumented(); !r)
            return r.error();
    } else if (auto r = (*plan)->run(); !r) {
        return r.error();
    }
    return (*plan)->readOutputs();
}

} // namespace costscope::test
