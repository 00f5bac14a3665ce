// SPDX-License-Identifier: MIT
// Layout speed and quality against Graphviz dot (libgvc, when built with it) on the shared RLX graphs, the
// bundled examples and generated DAGs; then open → first complete paint of the main window (offscreen) for a
// generated 4 000- and 50 000-node graph and the shared ONNX models. `bench_layout table` prints the table only,
// `bench_layout paint` only the open → first paint times of the 4 000-node graph and the ONNX models. Crossings of
// both engines are counted the same way: proper intersections of the drawn edge polylines (dot's spline control
// polygons); ours also per edge (a trunk shared by k edges crossing a line counts k times, as k parallel lines
// would).
#include "bench_graphs.h"
#include "canvas/canvas_view.h"
#include "canvas/graph_scene.h"
#include "layout/group_tree.h"
#include "formats/graph_file.h"
#include "main_window.h"
#include "test_paths.h"
#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <chrono>
#include <cstdio>
#ifdef COSTSCOPE_HAVE_GRAPHVIZ
#include <graphviz/gvc.h>
#endif

using namespace costscope;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

layout::LayoutInput inputFor(const Graph& g)
{
    const GroupTree tree = GroupTree::build(g);
    const ViewGraph v = ViewGraph::build(g, tree, std::vector<bool>(tree.groups.size(), false), true);
    layout::LayoutInput in;
    for (const auto& u : v.units)
        in.nodes.push_back({120, 44, u.key});
    for (const auto& e : v.edges)
        in.edges.push_back({e.from, e.to});
    return in;
}

struct DotRun {
    double ms = -1;
    long long crossings = -1;
};

DotRun runDot(const layout::LayoutInput& in)
{
    DotRun out;
#ifdef COSTSCOPE_HAVE_GRAPHVIZ
    GVC_t* gvc = gvContext();
    const auto start = Clock::now();
    Agraph_t* g = agopen(const_cast<char*>("g"), Agdirected, nullptr);
    agattr(g, AGNODE, const_cast<char*>("shape"), const_cast<char*>("box"));
    agattr(g, AGNODE, const_cast<char*>("width"), const_cast<char*>("1.67"));  // 120 pt
    agattr(g, AGNODE, const_cast<char*>("height"), const_cast<char*>("0.61")); // 44 pt
    agattr(g, AGNODE, const_cast<char*>("fixedsize"), const_cast<char*>("true"));
    std::vector<Agnode_t*> nodes;
    for (std::size_t i = 0; i < in.nodes.size(); ++i)
        nodes.push_back(agnode(g, const_cast<char*>(std::to_string(i).c_str()), 1));
    std::vector<Agedge_t*> edges;
    for (std::size_t e = 0; e < in.edges.size(); ++e)
        edges.push_back(agedge(g, nodes[static_cast<std::size_t>(in.edges[e].from)],
                               nodes[static_cast<std::size_t>(in.edges[e].to)],
                               const_cast<char*>(std::to_string(e).c_str()), 1));
    gvLayout(gvc, g, "dot");
    out.ms = msSince(start);
    std::vector<std::vector<layout::Point>> routes;
    for (Agedge_t* e : edges) {
        std::vector<layout::Point> route;
        if (const splines* spl = ED_spl(e))
            for (int b = 0; b < spl->size; ++b)
                for (int p = 0; p < spl->list[b].size; ++p)
                    route.push_back({spl->list[b].list[p].x, -spl->list[b].list[p].y});
        routes.push_back(std::move(route));
    }
    out.crossings = layout::countRouteCrossings(routes);
    gvFreeLayout(gvc, g);
    agclose(g);
    gvFreeContext(gvc);
#else
    (void)in;
#endif
    return out;
}

void compareRow(const char* name, const layout::LayoutInput& in, bool withDot)
{
    double best = 1e300;
    layout::LayoutResult r;
    for (int rep = 0; rep < 3; ++rep) {
        const auto t = Clock::now();
        r = layout::layeredLayout(in);
        best = std::min(best, msSince(t));
    }
    const long long ours = layout::countRouteCrossings(r.routes);
    const long long oursPerEdge = layout::countRouteCrossings(r.routes, layout::Coinciding::PerEdge);
    const DotRun dot = withDot ? runDot(in) : DotRun{};
    std::printf("%-34s %7zu %7zu %9.2f %10.1f %8.3f %10lld %10lld %10lld\n", name, in.nodes.size(), in.edges.size(),
                best, dot.ms, dot.ms > 0 ? best / dot.ms : 0.0, ours, oursPerEdge, dot.crossings);
}

double openToFirstPaint(const QString& path, const char* name)
{
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QSignalSpy ready(&w, &MainWindow::layoutReady);
    const auto t = Clock::now();
    // Where the time goes: loading ends at graphLoaded, the layout (and building the items) at layoutReady.
    double loadedMs = -1;
    double readyMs = -1;
    QObject::connect(&w, &MainWindow::graphLoaded, &w, [&] { loadedMs = msSince(t); });
    QObject::connect(&w, &MainWindow::layoutReady, &w, [&] { readyMs = readyMs < 0 ? msSince(t) : readyMs; });
    w.openFile(path);
    if (!ready.wait(120000))
        return -1;
    w.canvas()->fitAll();
    const QPixmap shot = w.grab(); // a complete paint of every visible item
    const double ms = msSince(t);
    std::printf("open → first paint %-14s %6zu nodes: %8.1f ms (%d boxes drawn, %dx%d; loaded %.0f ms, laid out %.0f ms)\n",
                name, w.graph()->nodes.size(), ms, w.scene()->visibleNodeItemCount(), shot.width(), shot.height(), loadedMs,
                readyMs);
    // Everything open: the worst case for item count and painting (boxes only at this zoom).
    const auto t2 = Clock::now();
    w.scene()->expandAll();
    if (!ready.wait(120000))
        return -1;
    w.canvas()->fitAll();
    const QPixmap expanded = w.grab();
    const double expandMs = msSince(t2);
    if (expanded.isNull())
        return -1;
    const auto t3 = Clock::now();
    w.canvas()->zoomBy(4);
    w.canvas()->viewport()->repaint();
    std::printf("  expand all → paint: %8.1f ms (%d boxes), repaint after zoom: %6.1f ms\n", expandMs,
                w.scene()->visibleNodeItemCount(), msSince(t3));
    return ms;
}

double openToFirstPaint(const Graph& g, const QString& dir, const char* name)
{
    const QString path = dir + QLatin1Char('/') + QLatin1String(name) + QStringLiteral(".json");
    return saveGraphFile(g, path.toStdString()) ? openToFirstPaint(path, name) : -1;
}

const char* const kOnnx[] = {"data/onnx/light/light_resnet50.onnx", "data/onnx/light/light_inception_v1.onnx",
                             "data/onnx/transformers/gpt2_12l.onnx", "data/onnx/transformers/bert_12l.onnx"};

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
#ifdef COSTSCOPE_HAVE_GRAPHVIZ
    const bool haveDot = true;
#else
    const bool haveDot = false;
    std::printf("(built without libgvc: no dot columns)\n");
#endif
    const QByteArray mode = argc > 1 ? QByteArray(argv[1]) : QByteArray();
    if (mode == "paint") { // open → first paint only, without the layout table
        QTemporaryDir dir;
        openToFirstPaint(bench::transformerLike(200, 10), dir.path(), "generated-4k");
        for (const char* f : {kOnnx[0], kOnnx[2]})
            if (const QString path = test::sharedPath(QString::fromLatin1(f)); !path.isEmpty())
                openToFirstPaint(path, QFileInfo(path).fileName().toUtf8().constData());
        return 0;
    }
    std::printf("%-34s %7s %7s %9s %10s %8s %10s %10s %10s\n", "graph", "nodes", "edges", "ours ms", "dot ms",
                "ours/dot", "ours X", "per edge", "dot X");
    std::vector<const char*> shared = {"data/rlx/cnn.hir.json", "data/rlx/mnist.hir.json", "data/rlx/options_bundle_only.hir.json"};
    shared.insert(shared.end(), std::begin(kOnnx), std::end(kOnnx));
    for (const char* f : shared) {
        const QString path = test::sharedPath(QString::fromLatin1(f));
        if (path.isEmpty())
            continue;
        auto loaded = loadGraphFile(path.toStdString());
        // dot runs for many minutes on the ungrouped transformers: ours only there.
        if (loaded)
            compareRow(f, inputFor(loaded->graph), haveDot && !QByteArray(f).contains("transformers"));
    }
    auto tiny = loadGraphFile(test::sourcePath(QStringLiteral("resources/examples/tiny_transformer.hir.json")).toStdString());
    if (tiny)
        compareRow("examples/tiny_transformer", inputFor(tiny->graph), haveDot);
    for (int n : {250, 1000, 2000}) {
        const std::string name = "random DAG " + std::to_string(n);
        compareRow(name.c_str(), bench::randomDag(n, 7), haveDot);
    }
    const Graph t2k = bench::transformerLike(100, 10);
    compareRow("transformer-like 2k", inputFor(t2k), haveDot);
    for (int n : {10000, 50000}) {
        const std::string name = "random DAG " + std::to_string(n) + " (ours only)";
        compareRow(name.c_str(), bench::randomDag(n, 7), false);
    }
    if (mode == "table")
        return 0;

    QTemporaryDir dir;
    openToFirstPaint(bench::transformerLike(200, 10), dir.path(), "generated-4k");
    openToFirstPaint(bench::transformerLike(2500, 10), dir.path(), "generated-50k");
    openToFirstPaint(bench::ungrouped(bench::randomDag(50000, 7)), dir.path(), "flat-50k");
    for (const char* f : {kOnnx[0], kOnnx[2]})
        if (const QString path = test::sharedPath(QString::fromLatin1(f)); !path.isEmpty())
            openToFirstPaint(path, QFileInfo(path).fileName().toUtf8().constData());
    return 0;
}
