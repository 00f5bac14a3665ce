// SPDX-License-Identifier: MIT
// The shape fold a device backend runs before it compiles (shape_fold.h): what it folds, what it must leave alone,
// and that graphs with nothing to fold come back as they were.
#include "formats/graph_file.h"
#include "op_runner.h"
#include "shape_fold.h"
#include "test_paths.h"

#include <QDir>
#include <QTest>

#include <cstring>

using namespace costscope;
using namespace costscope::test;

namespace {
// Builds a graph node by node, ids in order of addition.
struct Builder {
    Graph g;

    NodeId add(Op op, std::vector<NodeId> inputs, Shape shape)
    {
        Node n;
        n.id = static_cast<NodeId>(g.nodes.size());
        n.op = std::move(op);
        n.inputs = std::move(inputs);
        n.shape = std::move(shape);
        n.name = "n" + std::to_string(n.id);
        g.add(std::move(n));
        return g.nodes.back().id;
    }
    NodeId input(std::vector<Dim> dims)
    {
        Attrs a;
        a.set("name", std::string("x") + std::to_string(g.nodes.size()));
        return add(Op::make(OpKind::Input, a), {}, Shape{std::move(dims), DType::F32});
    }
    NodeId constant(const HostTensor& t)
    {
        const NodeId id = add(Op::make(OpKind::Constant), {}, t.shape());
        const auto* bytes = reinterpret_cast<const std::uint8_t*>(t.bytes());
        g.nodes.back().data = makeTensorData(std::vector<std::uint8_t>(bytes, bytes + t.byteSize()));
        return id;
    }
    const Node& node(NodeId id) const { return *g.find(id); }
};

Shape unknown(DType t)
{
    return Shape{{}, t}; // what the ONNX importer states where shape inference gave nothing
}

std::vector<std::int64_t> ints(const Node& n)
{
    std::vector<std::int64_t> v(n.data->size() / sizeof(std::int64_t));
    std::memcpy(v.data(), n.data->data(), n.data->size());
    return v;
}
} // namespace

class TestShapeFold : public QObject {
    Q_OBJECT
private slots:
    void shapeOfBoundInputBecomesConstant()
    {
        Builder b;
        const NodeId x = b.input({Dim::named("batch"), Dim::fixed(3), Dim::fixed(5)});
        const NodeId whole = b.add(Op::unknown("Shape"), {x}, Shape::of({3}, DType::I64));
        Op tail = Op::unknown("Shape");
        tail.attrs.set("start", std::int64_t{-2});
        const NodeId part = b.add(tail, {x}, Shape::of({2}, DType::I64));
        const NodeId size = b.add(Op::unknown("Size"), {x}, Shape::of({}, DType::I64));
        b.g.outputs = {whole, part, size};
        auto folded = withShapesFolded(b.g, {{"batch", 4}});
        QVERIFY(folded);
        QCOMPARE(folded->find(whole)->op.kind, OpKind::Constant);
        QCOMPARE(ints(*folded->find(whole)), (std::vector<std::int64_t>{4, 3, 5}));
        QCOMPARE(ints(*folded->find(part)), (std::vector<std::int64_t>{3, 5}));
        QCOMPARE(ints(*folded->find(size)), (std::vector<std::int64_t>{60}));
        QCOMPARE(folded->find(whole)->name, b.node(whole).name);
        QCOMPARE(folded->outputs, b.g.outputs);
        // Unbound, the shape is not known: nothing folds.
        QVERIFY(!withShapesFolded(b.g, {}));
    }

    void shapeChainGivesReshapeStaticShape()
    {
        Builder b;
        const NodeId x = b.input({Dim::named("batch"), Dim::fixed(6)});
        const NodeId shape = b.add(Op::unknown("Shape"), {x}, Shape::of({2}, DType::I64));
        const NodeId first = b.constant(i64({1}, {0}));
        const NodeId batch =
            b.add(makeOp(OpKind::Gather, {{"axis", std::int64_t{0}}}), {shape, first}, Shape::of({1}, DType::I64));
        const NodeId rest = b.constant(i64({2}, {2, 3}));
        const NodeId target = b.add(makeOp(OpKind::Concat, {{"axis", std::int64_t{0}}}), {batch, rest},
                                    Shape{{Dim::named("unk__0")}, DType::I64});
        const NodeId reshaped = b.add(makeOp(OpKind::Reshape), {x, target}, unknown(DType::F32));
        const NodeId relu =
            b.add(makeOp(OpKind::Activation, {{"op", std::string("Relu")}}), {reshaped}, unknown(DType::F32));
        b.g.outputs = {relu};
        const Bindings bindings{{"batch", 2}};
        auto folded = withShapesFolded(b.g, bindings);
        QVERIFY(folded);
        QCOMPARE(folded->find(target)->op.kind, OpKind::Constant);
        QCOMPARE(ints(*folded->find(target)), (std::vector<std::int64_t>{2, 2, 3}));
        QCOMPARE(folded->find(reshaped)->op.kind, OpKind::Reshape);
        QCOMPARE(folded->find(reshaped)->shape, Shape::of({2, 2, 3}));
        QCOMPARE(folded->find(relu)->shape, Shape::of({2, 2, 3}));
        // Folding again changes nothing (the backends compile the folded graph as it is).
        QVERIFY(!withShapesFolded(*folded, bindings));
        // It computes what the graph as given computes.
        const HostTensor in = f32({2, 6}, {-1, 2, -3, 4, -5, 6, 7, -8, 9, -10, 11, -12});
        auto want = runGraph(b.g, {in}, bindings);
        auto got = runGraph(*folded, {in}, bindings);
        QVERIFY(want && got);
        QCOMPARE(got->dims(), (std::vector<std::int64_t>{2, 2, 3}));
        QVERIFY(sameFloats(*got, want->dims(),
                           std::vector<float>(want->values<float>().begin(), want->values<float>().end())));
    }

    void rangeOfConstantsGetsStaticShape()
    {
        Builder b;
        const NodeId start = b.constant(i64({}, {1}));
        const NodeId limit = b.constant(i64({}, {9}));
        const NodeId delta = b.constant(i64({}, {2}));
        const NodeId range =
            b.add(Op::unknown("Range"), {start, limit, delta}, Shape{{Dim::named("unk__1")}, DType::I64});
        const NodeId cast = b.add(makeOp(OpKind::Cast, {{"to", std::string("F32")}}), {range},
                                  Shape{{Dim::named("unk__1")}, DType::F32});
        b.g.outputs = {cast};
        auto folded = withShapesFolded(b.g, {});
        QVERIFY(folded);
        QCOMPARE(folded->find(range)->op.kind, OpKind::Constant);
        QCOMPARE(ints(*folded->find(range)), (std::vector<std::int64_t>{1, 3, 5, 7}));
        QCOMPARE(folded->find(cast)->shape.dims.size(), std::size_t{1});
        QCOMPARE(folded->find(cast)->shape.dims[0], Dim::fixed(4));
    }

    void dataDependentShapesAreLeftAlone()
    {
        Builder b;
        const NodeId x = b.input({Dim::fixed(4)});
        const NodeId nonzero =
            b.add(Op::unknown("NonZero"), {x}, Shape{{Dim::fixed(1), Dim::named("unk__0")}, DType::I64});
        const NodeId shape = b.add(Op::unknown("Shape"), {nonzero}, Shape::of({2}, DType::I64));
        // An op the fold has no rule for, stated as rank 0 by the importer: its shape is not a scalar's.
        const NodeId opaque = b.add(Op::unknown("Opaque"), {x}, unknown(DType::F32));
        const NodeId opaqueShape = b.add(Op::unknown("Shape"), {opaque}, Shape::of({0}, DType::I64));
        b.g.outputs = {shape, opaqueShape};
        QVERIFY(!withShapesFolded(b.g, {}));
    }

    void randomOpsAreNotFolded()
    {
        Builder b;
        const NodeId x = b.input({Dim::fixed(2), Dim::fixed(3)});
        const NodeId shape = b.add(Op::unknown("Shape"), {x}, Shape::of({2}, DType::I64));
        const NodeId cast =
            b.add(makeOp(OpKind::Cast, {{"to", std::string("F32")}}), {shape}, Shape::of({2}, DType::F32));
        const NodeId random = b.add(Op::unknown("RandomUniformLike"), {cast}, unknown(DType::F32));
        const NodeId dropout = b.add(makeOp(OpKind::Dropout), {cast}, unknown(DType::F32));
        b.g.outputs = {random, dropout};
        auto folded = withShapesFolded(b.g, {});
        QVERIFY(folded);
        QCOMPARE(folded->find(cast)->op.kind, OpKind::Constant);
        QCOMPARE(folded->find(random)->op.name, std::string("RandomUniformLike"));
        QCOMPARE(folded->find(dropout)->op.kind, OpKind::Dropout);
    }

    void graphWithNothingToFoldIsUnchanged()
    {
        Builder b;
        const NodeId x = b.input({Dim::named("batch"), Dim::fixed(3)});
        const NodeId bias = b.constant(f32({3}, {1, 2, 3}));
        const NodeId twice = b.add(makeOp(OpKind::Binary, {{"op", std::string("Add")}}), {bias, bias}, Shape::of({3}));
        const NodeId add = b.add(makeOp(OpKind::Binary, {{"op", std::string("Add")}}), {x, twice},
                                 Shape{{Dim::named("batch"), Dim::fixed(3)}, DType::F32});
        b.g.outputs = {add};
        QVERIFY(!withShapesFolded(b.g, {{"batch", 8}}));
    }

    void bundledGraphsAreUnchanged()
    {
        QStringList files;
        for (const QString& name : QDir(sourcePath("resources/examples")).entryList({"*.json"}))
            files << sourcePath("resources/examples/" + name);
        for (const QString& name : QDir(testDataPath("hf")).entryList({"*.onnx"}))
            files << testDataPath("hf/" + name);
        QVERIFY(files.size() >= 6);
        for (const QString& file : files) {
            auto loaded = loadGraphFile(file.toStdString());
            QVERIFY2(loaded, qPrintable(file));
            Bindings bindings;
            for (const std::string& symbol : loaded->graph.symbols())
                bindings[symbol] = 2;
            QVERIFY2(!withShapesFolded(loaded->graph, bindings), qPrintable(file));
        }
    }
};

QTEST_GUILESS_MAIN(TestShapeFold)
#include "test_shape_fold.moc"
