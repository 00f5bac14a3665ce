// SPDX-License-Identifier: MIT
#include "analysis/io_profile.h"
#include "analysis/welch_graphs.h"
#include "formats/graph_file.h"
#include "rel_close.h"
#include "test_paths.h"

#include <QTest>

using namespace costscope;
using namespace costscope::test;

namespace {
Node makeNode(NodeId id, OpKind kind, std::vector<NodeId> inputs, Shape shape, std::string name = {})
{
    Node n;
    n.id = id;
    n.op = kind == OpKind::Unknown ? Op::unknown(name) : Op::make(kind);
    n.inputs = std::move(inputs);
    n.shape = std::move(shape);
    return n;
}

Graph loadShared(const char* rel)
{
    auto loaded = loadGraphFile(sharedPath(rel).toStdString());
    if (!loaded)
        qFatal("cannot load %s: %s", rel, loaded.error().format(rel).c_str());
    return loaded->graph;
}
} // namespace

class TestIoProfile : public QObject {
    Q_OBJECT
private slots:
    void welchFusedProfile();
    void welchFftOnlyProfile();
    void fftHostSyncAddsOneSyncPerFft();
    void mnistProfileByHand();
    void metadataOutputIsSkipped();
    void unboundDimsCountZero();
    void selectedOutputsCountFourBytesPerElement();
    void hostSyncOps();
    void readbackBytesUseIntegerQuarter();
};

void TestIoProfile::welchFusedProfile()
{
    // fused(8192), fast params: rows 16384, n_fft 256. Sub: 2 inputs + output of 16384·256·4 = 16 MiB each;
    // Concat: 2·16 MiB in, 32 MiB out; Fft: 32 MiB in and out; WelchPeaks: 32 MiB in, 8192·32·4 out.
    const IoProfile io = ioProfile(welchFusedGraph(8192, WelchParams::fast(256, 16)));
    QCOMPARE(io.kernelLaunches, 4u);
    QCOMPARE(io.syncPoints, 1u);
    QCOMPARE(io.hostOutputBytes, 1048576u);                    // 8192·16·2·4
    QCOMPARE(io.deviceTrafficBytes, 219152384u);              // 13·16777216 + 1048576 (the spec's "fused" profile)
}

void TestIoProfile::welchFftOnlyProfile()
{
    const IoProfile io = ioProfile(welchFftOnlyGraph(8192, WelchParams::fast(256, 16)));
    QCOMPARE(io.kernelLaunches, 3u);
    QCOMPARE(io.syncPoints, 0u);
    QCOMPARE(io.hostOutputBytes, 33554432u);   // 16384·512·4: the Fft result is the output
    QCOMPARE(io.deviceTrafficBytes, 184549376u); // 11·16777216 (the spec's "dense" profile)
}

void TestIoProfile::fftHostSyncAddsOneSyncPerFft()
{
    const auto p = WelchParams::fast(256, 16);
    QCOMPARE(ioProfile(welchFftOnlyGraph(4, p), {}, {true}).syncPoints, 1u);
    QCOMPARE(ioProfile(welchFusedGraph(4, p), {}, {true}).syncPoints, 2u);
    QCOMPARE(ioProfile(welchFusedGraph(4, p), {}, {false}).syncPoints, 1u);
}

void TestIoProfile::mnistProfileByHand()
{
    COSTSCOPE_REQUIRE_SHARED();
    const IoProfile io = ioProfile(loadShared("data/rlx/mnist.hir.json"));
    // Launching nodes 7 9 10 11 12 14 15 16 17 20 21 (leaves, Reshapes 8 13 18 and Transpose 19 are skipped).
    QCOMPARE(io.kernelLaunches, 11u);
    QCOMPARE(io.syncPoints, 0u);
    QCOMPARE(io.hostOutputBytes, 160u); // node 21, F32[4,10]
    // Per node (inputs + output, bytes): 7: 12544+288+100352, 9: 100352+32+100352, 10: 2·100352,
    // 11: 100352+25088, 12: 25088+4608+50176, 14: 50176+64+50176, 15: 2·50176, 16: 50176+12544,
    // 17: 12544+256, 20: 256+640+160, 21: 160+40+160.
    const std::uint64_t traffic = (12544 + 288 + 100352) + (100352 + 32 + 100352) + 2 * 100352 + (100352 + 25088)
        + (25088 + 4608 + 50176) + (50176 + 64 + 50176) + 2 * 50176 + (50176 + 12544) + (12544 + 256)
        + (256 + 640 + 160) + (160 + 40 + 160);
    QCOMPARE(traffic, 997640u);
    QCOMPARE(io.deviceTrafficBytes, 997640u);
}

void TestIoProfile::metadataOutputIsSkipped()
{
    COSTSCOPE_REQUIRE_SHARED();
    // The graph's output is a Reshape: metadata ops are skipped entirely, output bytes included.
    const IoProfile io = ioProfile(loadShared("data/rlx/options_bundle_only.hir.json"));
    QCOMPARE(io.hostOutputBytes, 0u);
    QCOMPARE(io.kernelLaunches, 6u); // LayerNorm 7, MatMul 10, Add 11, Gelu 13, MatMul 16, Add 17
}

void TestIoProfile::unboundDimsCountZero()
{
    Graph g;
    Shape dyn;
    dyn.dims = {Dim::named("batch"), Dim::fixed(8)};
    g.add(makeNode(0, OpKind::Input, {}, dyn));
    g.add(makeNode(1, OpKind::Activation, {0}, dyn));
    g.outputs = {1};
    const IoProfile unbound = ioProfile(g);
    QCOMPARE(unbound.kernelLaunches, 1u);
    QCOMPARE(unbound.deviceTrafficBytes, 0u);
    QCOMPARE(unbound.hostOutputBytes, 0u);
    const IoProfile bound = ioProfile(g, {{"batch", 2}});
    QCOMPARE(bound.deviceTrafficBytes, 128u); // 2·(2·8·4)
    QCOMPARE(bound.hostOutputBytes, 64u);
}

void TestIoProfile::selectedOutputsCountFourBytesPerElement()
{
    Graph g;
    g.add(makeNode(0, OpKind::Input, {}, Shape::of({3}, DType::I16)));
    g.add(makeNode(1, OpKind::Activation, {0}, Shape::of({3}, DType::I16)));
    g.add(makeNode(2, OpKind::Cast, {0}, Shape::of({5}, DType::F32)));
    g.outputs = {1, 2};
    QCOMPARE(ioProfile(g).hostOutputBytes, 26u);             // 3·2 + 5·4: real dtype sizes
    QCOMPARE(ioProfileSelected(g, {0}).hostOutputBytes, 12u); // 3·4, whatever the dtype
    QCOMPARE(ioProfileSelected(g, {1}).hostOutputBytes, 20u);
    QCOMPARE(ioProfileSelected(g, {0, 1, 7}).hostOutputBytes, 32u); // index 7 does not exist: ignored
    QCOMPARE(ioProfileSelected(g, {1}).deviceTrafficBytes, ioProfile(g).deviceTrafficBytes);
}

void TestIoProfile::hostSyncOps()
{
    Graph g;
    g.add(makeNode(0, OpKind::Input, {}, Shape::of({4})));
    g.add(makeNode(1, OpKind::LogMel, {0}, Shape::of({4})));
    g.add(makeNode(2, OpKind::Custom, {1}, Shape::of({4})));
    g.add(makeNode(3, OpKind::Unknown, {2}, Shape::of({4}), "LogMelBackward"));
    g.add(makeNode(4, OpKind::Unknown, {3}, Shape::of({4}), "SomethingElse"));
    g.add(makeNode(5, OpKind::Fft, {4}, Shape::of({4})));
    QCOMPARE(ioProfile(g).syncPoints, 3u);
    QCOMPARE(ioProfile(g, {}, {true}).syncPoints, 4u);
    QCOMPARE(ioProfile(g).kernelLaunches, 5u);
}

void TestIoProfile::readbackBytesUseIntegerQuarter()
{
    IoProfile io;
    io.hostOutputBytes = 100;
    io.deviceTrafficBytes = 7;
    QCOMPARE(io.hostReadbackBytes(true), 100u);
    QCOMPARE(io.hostReadbackBytes(false), 101u); // 100 + 7/4 = 100 + 1
}

QTEST_GUILESS_MAIN(TestIoProfile)
#include "test_io_profile.moc"
