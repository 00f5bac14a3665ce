// SPDX-License-Identifier: MIT
#pragma once
// Writes small ONNX models and TensorProto files for tests, through libonnx's protobuf classes (tests using it link
// onnx_proto and protobuf).

#include <onnx/onnx_pb.h>

#include <QString>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace costscope::test {

inline void writeBytes(const QString& path, const std::string& bytes)
{
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << bytes;
}

inline std::string bytesOf(const std::vector<float>& v)
{
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

// A TensorProto file of float values (an --input or --reference of costscope-cli run).
inline void writeTensorFile(const QString& path, const std::vector<float>& values, std::vector<std::int64_t> dims)
{
    onnx::TensorProto t;
    t.set_data_type(onnx::TensorProto::FLOAT);
    for (auto d : dims)
        t.add_dims(d);
    t.set_raw_data(bytesOf(values));
    writeBytes(path, t.SerializeAsString());
}

inline void writeIntTensorFile(const QString& path, const std::vector<std::int64_t>& values)
{
    onnx::TensorProto t;
    t.set_data_type(onnx::TensorProto::INT64);
    t.add_dims(static_cast<std::int64_t>(values.size()));
    for (auto v : values)
        t.add_int64_data(v);
    writeBytes(path, t.SerializeAsString());
}

// A one-graph model of the default domain at one opset.
class OnnxModel {
public:
    explicit OnnxModel(int opset)
    {
        m_model.set_ir_version(8);
        m_model.add_opset_import()->set_version(opset);
        m_model.mutable_graph()->set_name("test");
    }
    onnx::GraphProto& graph() { return *m_model.mutable_graph(); }

    onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs)
    {
        auto* n = graph().add_node();
        n->set_op_type(op);
        n->set_name(outputs.empty() ? op : outputs.front());
        for (const auto& i : inputs)
            n->add_input(i);
        for (const auto& o : outputs)
            n->add_output(o);
        return *n;
    }
    // Dims below 0 are symbolic ("d<axis>").
    void input(const std::string& name, const std::vector<std::int64_t>& dims)
    {
        declare(graph().add_input(), name, dims);
    }
    void output(const std::string& name, const std::vector<std::int64_t>& dims)
    {
        declare(graph().add_output(), name, dims);
    }
    // An output whose shape the file does not state (the import must infer it).
    void outputWithoutShape(const std::string& name)
    {
        auto* v = graph().add_output();
        v->set_name(name);
        v->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    }
    void intInput(const std::string& name, std::int64_t size)
    {
        auto* v = graph().add_input();
        v->set_name(name);
        v->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
        v->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(size);
    }
    void ints(const std::string& name, const std::vector<std::int64_t>& values)
    {
        auto* t = graph().add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::INT64);
        t->add_dims(static_cast<std::int64_t>(values.size()));
        for (auto v : values)
            t->add_int64_data(v);
    }
    void floats(const std::string& name, const std::vector<float>& values)
    {
        auto* t = graph().add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::FLOAT);
        t->add_dims(static_cast<std::int64_t>(values.size()));
        t->set_raw_data(bytesOf(values));
    }
    void save(const QString& path) const { writeBytes(path, m_model.SerializeAsString()); }

    static void attr(onnx::NodeProto& n, const std::string& name, std::int64_t v)
    {
        auto* a = n.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(v);
    }
    static void attr(onnx::NodeProto& n, const std::string& name, const std::string& v)
    {
        auto* a = n.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::STRING);
        a->set_s(v);
    }
    static void attr(onnx::NodeProto& n, const std::string& name, const std::vector<std::int64_t>& v)
    {
        auto* a = n.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INTS);
        for (auto x : v)
            a->add_ints(x);
    }

private:
    static void declare(onnx::ValueInfoProto* v, const std::string& name, const std::vector<std::int64_t>& dims)
    {
        v->set_name(name);
        auto* tt = v->mutable_type()->mutable_tensor_type();
        tt->set_elem_type(onnx::TensorProto::FLOAT);
        auto* shape = tt->mutable_shape();
        for (std::size_t i = 0; i < dims.size(); ++i)
            if (dims[i] >= 0)
                shape->add_dim()->set_dim_value(dims[i]);
            else
                shape->add_dim()->set_dim_param("d" + std::to_string(i));
    }

    onnx::ModelProto m_model;
};

} // namespace costscope::test
