// SPDX-License-Identifier: MIT
#include "formats/json_attrs.h"
#include "formats/rlx_json.h"
#include "formats/graph_file.h"
#include "ir/shape_inference.h"
#include "test_paths.h"

#include <QDir>
#include <QTest>

#include <algorithm>
#include <cstring>
#include <set>

using namespace costscope;
using namespace costscope::test;

namespace {
// "F32[2,batch,3]" → Shape; dims that are not numbers are symbols.
Shape shapeOf(const std::string& text)
{
    const auto open = text.find('[');
    Shape s;
    s.dtype = *parseDType(text.substr(0, open));
    std::string body = text.substr(open + 1, text.size() - open - 2);
    std::size_t pos = 0;
    while (!body.empty() && pos <= body.size()) {
        const auto comma = std::min(body.find(',', pos), body.size());
        const std::string d = body.substr(pos, comma - pos);
        s.dims.push_back(d.find_first_not_of("0123456789") == std::string::npos ? Dim::fixed(std::stoll(d))
                                                                                 : Dim::named(d));
        pos = comma + 1;
    }
    return s;
}

Op opOf(const std::string& label, const std::string& attrsJson)
{
    const auto dot = label.find('.');
    const auto kind = opKindFromName(label.substr(0, dot));
    if (!kind)
        return Op::unknown(label);
    Attrs attrs;
    const OJson j = OJson::parse(attrsJson);
    for (auto it = j.begin(); it != j.end(); ++it)
        attrs.set(it.key(), attrFromJson(it.value()));
    if (dot != std::string::npos)
        attrs.set("op", label.substr(dot + 1));
    return Op::make(*kind, std::move(attrs));
}

struct Row {
    const char* op;
    const char* attrs;
    const char* inputs;   // shapes separated by ';'
    const char* expected; // a shape, or "error: <substring of the message>"
    std::vector<std::int64_t> lastInputValues = {}; // I64 data of the last input, when the op reads values
};

// One row per op kind at least, then symbolic cases, then inputs that do not fit.
const std::vector<Row>& rows()
{
    static const std::vector<Row> r = {
        {"MatMul", "{}", "F32[2,8];F32[8,4]", "F32[2,4]"},
        {"MatMul", "{}", "F32[5,1,2,8];F32[3,8,4]", "F32[5,3,2,4]"},
        {"MatMul", "{}", "F32[8];F32[8,4]", "F32[4]"},
        {"MatMul", "{}", "F32[2,8];F32[8]", "F32[2]"},
        {"FusedMatMulBiasAct", R"({"activation":"Gelu"})", "F32[2,8];F32[8,4];F32[4]", "F32[2,4]"},
        {"Attention", R"({"num_heads":4,"head_dim":16})", "F32[2,10,64];F32[2,12,64];F32[2,12,64]", "F32[2,10,64]"},
        {"Attention", R"({"num_heads":4,"head_dim":16})", "F32[2,4,10,16];F32[2,4,12,16];F32[2,4,12,16];F32[10,12]",
         "F32[2,4,10,16]"},
        {"Fft", R"({"inverse":false,"norm":"Backward"})", "F32[16,512]", "F32[16,512]"},
        {"LogMel", "{}", "F32[4,257]", "F32[4,257]"},
        {"LogMel", R"({"n_mels":80})", "F32[4,257]", "F32[4,80]"},
        {"WelchPeaks", R"({"k":16,"n_segments":2})", "F32[16,512]", "F32[8,32]"},
        {"Binary.Add", "{}", "F32[2,8,16,16];F32[1,8,1,1]", "F32[2,8,16,16]"},
        {"Binary.Mul", "{}", "F32[3,1];F32[4]", "F32[3,4]"},
        {"Activation.Relu", "{}", "F32[2,3]", "F32[2,3]"},
        {"Compare.Le", "{}", "F32[2,3];F32[]", "Bool[2,3]"},
        {"Cast", R"({"to":"I64"})", "F32[]", "I64[]"},
        {"Where", "{}", "Bool[2,1];F32[1,3];F32[2,3]", "F32[2,3]"},
        {"Reshape", R"({"new_shape":[1,8,1,1]})", "F32[8]", "F32[1,8,1,1]"},
        {"Reshape", R"({"new_shape":[0,-1]})", "F32[2,3,4]", "F32[2,12]"},
        {"Reshape", "{}", "F32[2,3,4];I64[2]", "F32[6,4]", {-1, 4}},
        {"Transpose", R"({"perm":[1,0]})", "F32[10,16]", "F32[16,10]"},
        {"Transpose", "{}", "F32[2,3,4]", "F32[4,3,2]"},
        {"Narrow", R"({"axis":-1,"start":2,"len":3})", "F32[4,8]", "F32[4,3]"},
        {"Slice", R"({"starts":[1],"ends":[9223372036854775807],"axes":[1],"steps":[2]})", "F32[4,8]", "F32[4,4]"},
        {"Slice", R"({"starts":[-1],"ends":[-9223372036854775807],"axes":[0],"steps":[-1]})", "F32[5]", "F32[5]"},
        {"Slice", R"({"starts":[0],"ends":[2]})", "F32[4,8];I64[1];I64[1];I64[1]", "F32[4,2]", {1}},
        {"Concat", R"({"axis":1})", "F32[2,8];F32[2,8]", "F32[2,16]"},
        {"Expand", R"({"target_shape":[2,3,4]})", "F32[3,1]", "F32[2,3,4]"},
        {"Gather", R"({"axis":0})", "F32[100,16];I64[2,5]", "F32[2,5,16]"},
        {"Gather", R"({"axis":1})", "F32[3,100,16];I64[]", "F32[3,16]"},
        {"Reduce", R"({"op":"Mean","axes":[3,2],"keep_dim":true})", "F32[2,16,8,8]", "F32[2,16,1,1]"},
        {"Reduce", R"({"op":"Sum","axes":[-1],"keep_dim":false})", "F32[2,16,8]", "F32[2,16]"},
        {"Reduce", R"({"op":"ArgMax","axes":[1],"keep_dim":false})", "F32[2,16]", "I64[2]"},
        {"Reduce", R"({"op":"Max"})", "F32[2,16]", "F32[1,1]"},
        {"Softmax", R"({"axis":-1})", "F32[2,10]", "F32[2,10]"},
        {"LayerNorm", R"({"axis":-1,"eps":1e-5})", "F32[2,4,16];F32[16];F32[16]", "F32[2,4,16]"},
        {"RmsNorm", R"({"axis":-1})", "F32[2,4,16];F32[16]", "F32[2,4,16]"},
        {"Conv", R"({"kernel_size":[3,3],"stride":[1,1],"padding":[1,1],"dilation":[1,1],"groups":1})",
         "F32[2,3,16,16];F32[8,3,3,3]", "F32[2,8,16,16]"},
        {"Conv", R"({"stride":[2,2],"padding":[0,0],"padding_end":[1,1]})", "F32[1,4,7,7];F32[6,4,3,3]",
         "F32[1,6,3,3]"},
        {"Conv", R"({"groups":2,"dilation":[2]})", "F32[1,4,10];F32[6,2,3];F32[6]", "F32[1,6,6]"},
        {"Pool", R"({"kind":"Max","kernel_size":[2,2],"stride":[2,2],"padding":[0,0]})", "F32[2,8,16,16]",
         "F32[2,8,8,8]"},
        {"Pool", R"({"kind":"Max","kernel_size":[2],"stride":[2],"ceil_mode":true})", "F32[1,1,5]", "F32[1,1,3]"},
        {"Pool", R"({"kind":"Avg","kernel_size":[3],"stride":[2],"padding":[1],"ceil_mode":1})", "F32[1,1,6]",
         "F32[1,1,4]"},
        {"Gemm", "{}", "F32[2,8];F32[8,4];F32[4]", "F32[2,4]"},
        {"Gemm", R"({"trans_a":1,"trans_b":true})", "F32[8,2];F32[4,8]", "F32[2,4]"},
        {"BatchNorm", "{}", "F32[2,8,4,4];F32[8];F32[8];F32[8];F32[8]", "F32[2,8,4,4]"},
        {"Lrn", R"({"size":5})", "F32[2,8,4,4]", "F32[2,8,4,4]"},
        {"GlobalPool", R"({"kind":"Avg"})", "F32[2,8,7,7]", "F32[2,8,1,1]"},
        {"Dropout", "{}", "F32[2,8]", "F32[2,8]"},
        {"Sum", "{}", "F32[2,8];F32[8];F32[2,1]", "F32[2,8]"},
        {"Unsqueeze", R"({"axes":[0,-1]})", "F32[3,4]", "F32[1,3,4,1]"},
        {"Squeeze", R"({"axes":[1]})", "F32[3,1,4]", "F32[3,4]"},
        {"Squeeze", "{}", "F32[1,3,1,4]", "F32[3,4]"},
        {"Flatten", "{}", "F32[2,3,4,5]", "F32[2,60]"},
        {"Flatten", R"({"axis":0})", "F32[2,3]", "F32[1,6]"},
        {"ConstantOfShape", "{}", "I64[3]", "F32[2,3,4]", {2, 3, 4}},
        {"Pad", R"({"pads":[0,1,0,2]})", "F32[2,3]", "F32[2,6]"},
        {"Clip", "{}", "F32[2,3];F32[];F32[]", "F32[2,3]"},
        {"Tile", R"({"repeats":[2,3]})", "F32[2,3];I64[2]", "F32[4,9]"},
        {"ConvTranspose", R"({"stride":[2,2],"padding":[1,1],"output_padding":[1,1]})",
         "F32[1,4,5,5];F32[4,3,3,3]", "F32[1,3,10,10]"},
        {"InstanceNorm", "{}", "F32[2,8,4,4];F32[8];F32[8]", "F32[2,8,4,4]"},
        {"LogSoftmax", R"({"axis":1})", "F32[2,10]", "F32[2,10]"},
        {"GatherElements", R"({"axis":1})", "F32[3,4];I64[3,2]", "F32[3,2]"},
        {"Identity", "{}", "I32[7]", "I32[7]"},

        // Symbols flow through.
        {"MatMul", "{}", "F32[batch,seq,64];F32[64,128]", "F32[batch,seq,128]"},
        {"MatMul", "{}", "F32[batch,seq,k];F32[64,128]", "F32[batch,seq,128]"},
        {"Binary.Add", "{}", "F32[batch,1];F32[1,8]", "F32[batch,8]"},
        {"Binary.Add", "{}", "F32[batch,8];F32[4,8]", "F32[4,8]"},
        {"Binary.Add", "{}", "F32[1,8];F32[batch,8]", "F32[batch,8]"},
        {"Reshape", R"({"new_shape":[-1,16]})", "F32[batch,64]", "F32[batch*4,16]"},
        {"Reshape", R"({"new_shape":[0,-1]})", "F32[batch,4,16]", "F32[batch,64]"},
        {"Concat", R"({"axis":0})", "F32[batch,3];F32[seq,3]", "F32[batch+seq,3]"},
        {"Conv", R"({"padding":[1,1]})", "F32[batch,3,h,w];F32[8,3,3,3]", "F32[batch,8,h,w]"},
        {"Pool", R"({"kernel_size":[2],"stride":[2]})", "F32[batch,8,len]", "F32[batch,8,Pool(len)]"},
        {"Slice", R"({"starts":[0],"ends":[9223372036854775807],"axes":[1]})", "F32[2,seq]", "F32[2,seq]"},
        {"Pad", R"({"pads":[0,2,0,2]})", "F32[2,seq]", "F32[2,seq+4]"},
        {"Tile", R"({"repeats":[3,1]})", "F32[batch,4];I64[2]", "F32[batch*3,4]"},
        {"Transpose", R"({"perm":[1,0]})", "F32[batch,seq]", "F32[seq,batch]"},
        {"Gather", "{}", "F32[vocab,16];I64[batch,seq]", "F32[batch,seq,16]"},
        {"WelchPeaks", R"({"k":4,"n_segments":2})", "F32[rows,256]", "F32[rows/2,8]"},
        {"Flatten", "{}", "F32[batch,3,4]", "F32[batch,12]"},

        // Inputs that do not fit.
        {"MatMul", "{}", "F32[2,8];F32[10,4]", "error: MatMul: inner dims differ: F32[2,8] x F32[10,4] (8 vs 10)"},
        {"MatMul", "{}", "F32[3,2,8];F32[4,8,4]", "error: MatMul: batch dims do not broadcast"},
        {"Gemm", "{}", "F32[2,8];F32[4,8]", "error: Gemm: inner dims differ"},
        {"Conv", "{}", "F32[2,3,16,16];F32[8,4,3,3]", "error: Conv: input has 3 channels, weight expects 4"},
        {"Conv", R"({"groups":2})", "F32[1,4,8];F32[5,2,3]", "error: Conv: output channels 5 are not divisible"},
        {"Conv", R"({"kernel_size":[5,5]})", "F32[1,3,8,8];F32[8,3,3,3]", "error: Conv: kernel_size does not match"},
        {"Conv", "{}", "F32[1,3,2,2];F32[8,3,3,3]", "error: Conv: window of 3 exceeds the padded input"},
        {"Conv", R"({"stride":[1]})", "F32[1,3,8,8];F32[8,3,3,3]", "error: Conv: stride has 1 values"},
        {"Conv", "{}", "F32[1,3,8,8]", "error: Conv: takes 2 to 3 input(s), has 1"},
        {"ConvTranspose", "{}", "F32[1,4,5,5];F32[3,3,3,3]", "error: ConvTranspose: input has 4 channels, weight "
                                                             "expects 3"},
        {"Pool", "{}", "F32[1,1,4,4]", "error: Pool: attribute kernel_size is missing"},
        {"Transpose", R"({"perm":[0,0]})", "F32[2,3]", "error: Transpose: perm [0,0] is not a permutation"},
        {"Transpose", R"({"perm":[0,1,2]})", "F32[2,3]", "error: Transpose: perm [0,1,2] is not a permutation"},
        {"Transpose", R"({"perm":[]})", "F32[2,3]", "error: Transpose: perm [] is not a permutation"},
        {"Pool", R"({"kernel_size":[1],"stride":[9223372036854775807],"ceil_mode":true})",
         "F32[1,1,4611686018427387904]", "F32[1,1,1]"},
        {"Softmax", R"({"axis":2})", "F32[2,3]", "error: Softmax: axis 2 is out of range for rank 2"},
        {"Concat", R"({"axis":-3})", "F32[2,3];F32[2,3]", "error: Concat: axis -3 is out of range for rank 2"},
        {"Concat", R"({"axis":0})", "F32[2,3];F32[2,4]", "error: Concat: input 1 F32[2,4] differs from F32[2,3]"},
        {"Reduce", R"({"axes":[5]})", "F32[2,3]", "error: Reduce: axis 5 is out of range for rank 2"},
        {"Gather", R"({"axis":2})", "F32[2,3];I64[4]", "error: Gather: axis 2 is out of range"},
        {"Unsqueeze", R"({"axes":[0,0]})", "F32[2,3]", "error: Unsqueeze: axis 0 is given twice"},
        {"Squeeze", R"({"axes":[0]})", "F32[2,3]", "error: Squeeze: cannot squeeze dim 0 of size 2"},
        {"Narrow", R"({"axis":0,"start":3,"len":4})", "F32[5]", "error: Narrow: start 3 + len 4 exceeds dim 0"},
        {"Reshape", R"({"new_shape":[3,5]})", "F32[2,8]", "error: Reshape: cannot reshape F32[2,8] to F32[3,5]"},
        {"Reshape", R"({"new_shape":[-1,3]})", "F32[2,8]", "error: Reshape: cannot reshape F32[2,8] into a multiple"},
        {"Binary.Add", "{}", "F32[2,8];F32[3,8]", "error: Binary.Add: cannot broadcast F32[2,8] with F32[3,8] (dim "
                                                  "0: 2 vs 3)"},
        {"Attention", R"({"num_heads":4,"head_dim":16})", "F32[2,10,60];F32[2,12,64];F32[2,12,64]",
         "error: Attention: q has 60 features but num_heads 4 x head_dim 16 = 64"},
        {"WelchPeaks", R"({"k":16,"n_segments":3})", "F32[16,512]", "error: WelchPeaks: 16 rows are not a multiple"},
        {"Cast", R"({"to":"F128"})", "F32[2]", "error: Cast: unknown dtype \"F128\""},
        {"Slice", R"({"starts":[0],"ends":[1],"steps":[0]})", "F32[4]", "error: Slice: step 0 is not allowed"},
        {"Pad", R"({"pads":[0,-5]})", "F32[3]", "error: Pad: padded dim 0 is out of range"},
        {"GatherElements", "{}", "F32[3,4];I64[3]", "error: GatherElements: indices I64[3] and data F32[3,4] differ"},
        {"Tile", R"({"repeats":[2]})", "F32[4611686018427387904];I64[1]", "error: Tile: tiled dim 0 overflows"},
        {"Concat", R"({"axis":0})", "F32[4611686018427387904];F32[4611686018427387904]",
         "error: Concat: concatenated dim overflows"},
        {"ConvTranspose", R"({"stride":[4611686018427387904]})", "F32[1,1,8];F32[1,1,3]",
         "error: ConvTranspose: spatial dim 0 overflows"},
        {"Flatten", "{}", "F32[1,4611686018427387904,4611686018427387904]", "error: Flatten: flattened dim overflows"},
        {"Expand", R"({"target_shape":[4611686018427387905]})", "F32[1]", "error: Expand: target_shape"},
    };
    return r;
}

Result<Shape> inferRow(const Row& row, std::vector<Node>& storage)
{
    std::vector<Shape> shapes;
    const std::string text = row.inputs;
    for (std::size_t pos = 0; pos < text.size();) {
        const auto semi = std::min(text.find(';', pos), text.size());
        shapes.push_back(shapeOf(text.substr(pos, semi - pos)));
        pos = semi + 1;
    }
    storage.assign(shapes.size(), Node{});
    std::vector<const Node*> nodes;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        storage[i].shape = shapes[i];
        nodes.push_back(&storage[i]);
    }
    if (!row.lastInputValues.empty()) {
        std::vector<std::uint8_t> bytes(row.lastInputValues.size() * 8);
        std::memcpy(bytes.data(), row.lastInputValues.data(), bytes.size());
        storage.back().data = makeTensorData(std::move(bytes));
    }
    return inferShape(opOf(row.op, row.attrs), shapes, nodes);
}
} // namespace

class TestShapeInference : public QObject {
    Q_OBJECT
private slots:
    void rules_data();
    void rules();
    void everyOpKindHasARule();
    void leavesAndUnknownOpsHaveNoRule();
    void valueInputWithoutDataCannotBeTold();
    void statedShapeMismatchIsAWarningAtTheNode();
    void sharedGraphsHaveNoShapeWarnings_data();
    void sharedGraphsHaveNoShapeWarnings();
};

void TestShapeInference::rules_data()
{
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < rows().size(); ++i)
        QTest::newRow(qPrintable(QString("%1 %2 %3").arg(i).arg(rows()[i].op, rows()[i].inputs))) << int(i);
}

void TestShapeInference::rules()
{
    QFETCH(int, index);
    const Row& row = rows()[static_cast<std::size_t>(index)];
    std::vector<Node> storage;
    auto out = inferRow(row, storage);
    const std::string expected = row.expected;
    if (expected.rfind("error: ", 0) == 0) {
        QVERIFY2(!out, out ? out->toString().c_str() : "");
        QVERIFY(out.error().isError());
        QVERIFY2(out.error().message.find(expected.substr(7)) != std::string::npos, out.error().message.c_str());
    } else {
        QVERIFY2(out, out ? "" : out.error().message.c_str());
        QCOMPARE(out->toString(), expected);
    }
}

void TestShapeInference::everyOpKindHasARule()
{
    std::set<std::string> covered;
    for (const Row& r : rows()) {
        std::string e = r.expected;
        if (e.rfind("error: ", 0) != 0)
            covered.insert(std::string(r.op).substr(0, std::string(r.op).find('.')));
    }
    for (const OpInfo& info : opCatalogue()) {
        if (info.opClass == OpClass::Leaf || info.kind == OpKind::Unknown || info.kind == OpKind::Custom)
            continue;
        QVERIFY2(covered.count(std::string(info.name)), std::string(info.name).c_str());
    }
}

void TestShapeInference::leavesAndUnknownOpsHaveNoRule()
{
    auto leaf = inferShape(Op::make(OpKind::Input), {});
    QVERIFY(!leaf);
    QCOMPARE(leaf.error().message, std::string("leaf"));
    QVERIFY(!leaf.error().isError());
    auto unknown = inferShape(Op::unknown("Frobnicate"), {Shape::of({2})});
    QVERIFY(!unknown);
    QVERIFY(unknown.error().message.find("no shape rule for op Frobnicate") != std::string::npos);
    auto custom = inferShape(Op::make(OpKind::Custom), {Shape::of({2})});
    QVERIFY(custom.error().message.find("no shape rule for op Custom") != std::string::npos);
}

void TestShapeInference::valueInputWithoutDataCannotBeTold()
{
    auto out = inferShape(Op::make(OpKind::ConstantOfShape), {Shape::of({3}, DType::I64)});
    QVERIFY(!out);
    QVERIFY(!out.error().isError());
    QVERIFY(out.error().message.find("needs the values of its shape input") != std::string::npos);
}

void TestShapeInference::statedShapeMismatchIsAWarningAtTheNode()
{
    const std::string text = R"({"name":"t","nodes":[
        {"id":0,"op":{"Input":{"name":"x"}},"inputs":[],"shape":{"dims":[{"Static":2},{"Static":8}],"dtype":"F32"}},
        {"id":1,"op":{"Param":{"name":"w"}},"inputs":[],"shape":{"dims":[{"Static":8},{"Static":10}],"dtype":"F32"}},
        {"id":2,"op":{"Mir":"MatMul"},"inputs":[0,1],"shape":{"dims":[{"Static":2},{"Static":8}],"dtype":"F32"},
         "name":"mm"},
        {"id":3,"op":{"Mir":{"Activation":"Relu"}},"inputs":[2],"shape":{"dims":[{"Static":2},{"Static":8}],
         "dtype":"F32"}},
        {"id":4,"op":{"Mir":{"Frob":{}}},"inputs":[3],"shape":{"dims":[{"Static":1}],"dtype":"F32"}},
        {"id":5,"op":{"Mir":"MatMul"},"inputs":[0,0],"shape":{"dims":[{"Static":2},{"Static":8}],"dtype":"F32"}}],
        "outputs":[4,5]})";
    auto g = parseRlxJson(text);
    QVERIFY(g);
    Diagnostics d = checkStatedShapes(*g);
    QCOMPARE(d.size(), std::size_t(2));
    std::sort(d.begin(), d.end(), [](const Diagnostic& a, const Diagnostic& b) { return a.node < b.node; });
    QCOMPARE(d[0].format("t.json"), std::string("t.json: node 2 (mm): warning: stated shape F32[2,8] but inputs "
                                                 "give F32[2,10]"));
    QVERIFY(!d[0].isError());
    QCOMPARE(d[1].format("t.json"), std::string("t.json: node 5: warning: inputs do not fit: MatMul: inner dims "
                                                 "differ: F32[2,8] x F32[2,8] (8 vs 2)"));
}

void TestShapeInference::sharedGraphsHaveNoShapeWarnings_data()
{
    QTest::addColumn<QString>("path");
    const QString dir = sharedPath("data/rlx");
    if (dir.isEmpty())
        return;
    for (const QString& f : QDir(dir).entryList({"*.json"}, QDir::Files))
        QTest::newRow(qPrintable(f)) << dir + '/' + f;
}

void TestShapeInference::sharedGraphsHaveNoShapeWarnings()
{
    COSTSCOPE_REQUIRE_SHARED();
    QFETCH(QString, path);
    auto loaded = loadGraphFile(path.toStdString());
    QVERIFY(loaded);
    const Diagnostics d = checkStatedShapes(loaded->graph);
    QVERIFY2(d.empty(), d.empty() ? "" : d.front().format(path.toStdString()).c_str());
    QVERIFY(loaded->warnings.empty());
}

QTEST_GUILESS_MAIN(TestShapeInference)
#include "test_shape_inference.moc"
