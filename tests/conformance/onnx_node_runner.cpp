// SPDX-License-Identifier: MIT
// Runs ONNX node conformance cases (CASE/model.onnx, CASE/test_data_set_0/{input,output}_N.pb) on one backend, each
// isolated from the others, and prints one line per case as it finishes: "NAME<TAB>RESULT<TAB>WHY" with RESULT pass,
// mismatch, unsupported, crash or hang. A case goes through what `costscope-cli run FILE --input ... --reference
// output_0.pb` does (load, bind symbols from the inputs, compile, upload, set inputs, run, compare the first output
// with the CLI's own check), without the CLI's cost predictions and timing.
//
// --isolation fork (the default for cpu): a child forked per case from one loaded process; this saves the ~0.2 s of
// CPU that starting the CLI costs per case, and the child keeps a crash or a hang from ending the report.
// --isolation worker (the default for cuda, whose context does not survive fork(), and vulkan, whose forked children
// each made their device again: the lavapipe suite took 145 s forked, 7.7 s in workers): --jobs workers, each the
// runner exec'ed with --serve that creates the backend once and runs case after case (runner_workers.h); a crash or a
// hang ends only its worker, which is replaced. Each worker is replaced after --cases-per-worker cases.
//
// usage: onnx_node_runner --backend cpu --atol 1e-5 --rtol 1e-3 --jobs 2 --timeout 60 [--isolation fork|worker]
//                         [--cases-per-worker 200] CASE_DIR...
// Test only (tests/conformance/test_runner_isolation.sh): COSTSCOPE_RUNNER_FAULT=crash:NAME,hang:NAME makes the
// case named NAME abort or never finish, in either mode.
#include "backend.h"
#include "cli/run_check.h"
#include "formats/graph_file.h"
#include "run_result.h"
#include "runner_workers.h"
#include "tensor_proto.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <new>
#include <string>
#include <vector>

using namespace costscope;
namespace fs = std::filesystem;

namespace {
struct Options {
    std::string backend = "cpu", isolation = "auto";
    double atol = 1e-5, rtol = 1e-3, timeout = 60;
    int jobs = 2, casesPerWorker = 200;
    bool serve = false;
    std::vector<std::string> caseOptions; // --backend, --atol and --rtol as given, for the workers
    std::vector<std::string> cases;
};

// For a passing case on CUDA (the backend with host fallbacks): which nodes ran the CPU backend's kernel on the host
// instead (run_result.h), as "host fallback: CumSum, Trilu", so that the report can say how many passes needed one; ""
// when none did. The plain run does not label its nodes, so one instrumented run asks; where it fails, nothing is said.
std::string hostFallbacks(ExecutablePlan& plan, const std::string& backend)
{
    if (backend != "cuda")
        return "";
    auto timed = plan.runInstrumented(nullptr);
    if (!timed)
        return "";
    std::string ops;
    for (const NodeTiming& t : *timed)
        if (ranOnHost(t))
            ops += (ops.empty() ? "" : ", ") + t.label.substr(0, t.label.find('['));
    return ops.empty() ? "" : "host fallback: " + ops;
}

// The case's outcome as "RESULT\tWHY" (run in the child or the worker).
std::string runCase(const Options& o, Backend* backend, const fs::path& dir)
{
    const std::string model = (dir / "model.onnx").string();
    auto loaded = loadGraphFile(model);
    if (!loaded)
        return "unsupported\t" + loaded.error().format(model);
    const Graph& g = loaded->graph;
    std::vector<HostTensor> inputs;
    Bindings bindings;
    std::size_t next = 0;
    for (const Node& n : g.nodes) {
        if (n.op.kind != OpKind::Input)
            continue;
        const fs::path file = dir / "test_data_set_0" / ("input_" + std::to_string(next++) + ".pb");
        auto t = readTensorProtoFile(file.string());
        if (!t)
            return "unsupported\t" + t.error().message;
        for (std::size_t d = 0; d < n.shape.dims.size() && d < t->rank(); ++d)
            if (!n.shape.dims[d].isStatic())
                bindings.emplace(n.shape.dims[d].symbol, t->dim(d));
        inputs.push_back(std::move(*t));
    }
    if (!backend)
        return "unsupported\tno backend " + o.backend;
    auto plan = backend->compile(g, bindings, 0);
    if (!plan)
        return "unsupported\t" + plan.error().format(model);
    if (auto r = (*plan)->uploadParameters(); !r)
        return "unsupported\t" + r.error().format(model);
    if (auto r = (*plan)->setInputs(inputs); !r)
        return "unsupported\t" + r.error().format(model);
    if (auto r = (*plan)->run(nullptr); !r)
        return "unsupported\t" + r.error().format(model);
    auto outs = (*plan)->readOutputs();
    if (!outs || outs->empty())
        return "unsupported\tno output";
    auto want = readTensorProtoFile((dir / "test_data_set_0" / "output_0.pb").string());
    if (!want)
        return "unsupported\treference: " + want.error().message;
    const cli::OutputCheck c = cli::checkOutput(outs->front(), *want, o.rtol, o.atol);
    if (c.pass)
        return "pass\t" + hostFallbacks(**plan, o.backend);
    return "mismatch\tmax abs error " + std::to_string(c.maxAbsError) + ", max rel error "
        + std::to_string(c.maxRelError) + (c.problem.empty() ? "" : " (" + c.problem + ")");
}

// Test only: the fault COSTSCOPE_RUNNER_FAULT asks for in the case named `name`, if any.
void injectFault(const std::string& name)
{
    const char* spec = std::getenv("COSTSCOPE_RUNNER_FAULT");
    if (!spec)
        return;
    const std::string faults = std::string(",") + spec + ",";
    if (faults.find(",crash:" + name + ",") != std::string::npos)
        std::abort();
    if (faults.find(",hang:" + name + ",") != std::string::npos)
        for (;;)
            pause();
}

// runCase with the test faults and out of memory counted as unsupported. A case can still leave the backend in a
// bad state for the next ones of its worker (a CUDA error sticky to the context, a leak, a corrupted heap) without
// crashing; that cannot be fully prevented short of a process per case, which CUDA's start makes too slow. Replacing
// workers after --cases-per-worker cases bounds how far it reaches.
std::string caseLine(const Options& o, Backend* backend, const std::string& dir)
{
    injectFault(fs::path(dir).filename().string());
    try {
        return runCase(o, backend, dir);
    } catch (const std::bad_alloc&) {
        return "unsupported\tout of memory";
    }
}

struct Child {
    pid_t pid = -1;
    conformance::Output out;
    std::string dir;
    std::chrono::steady_clock::time_point started;
};

Child start(const Options& o, const std::string& dir)
{
    int fds[2];
    if (pipe(fds) != 0) {
        std::perror("pipe");
        std::exit(2);
    }
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); // a hanging child must not outlive a runner killed at a deadline
        close(fds[0]);
        auto backend = makeBackend(o.backend);
        const std::string line = caseLine(o, backend.get(), dir);
        const ssize_t written = write(fds[1], line.data(), line.size());
        _exit(written == static_cast<ssize_t>(line.size()) ? 0 : 1);
    }
    close(fds[1]);
    return Child{pid, {fds[0], {}}, dir, std::chrono::steady_clock::now()};
}

void finish(Child& c, bool timedOut, double timeout)
{
    if (timedOut)
        kill(c.pid, SIGKILL);
    int status = 0;
    waitpid(c.pid, &status, 0);
    close(c.out.fd);
    if (timedOut)
        conformance::printResult(c.dir, conformance::hangLine(timeout));
    else if (WIFSIGNALED(status) || c.out.text.find('\t') == std::string::npos)
        conformance::printResult(c.dir, conformance::crashLine(status));
    else
        conformance::printResult(c.dir, c.out.text);
}

void runForked(const Options& o)
{
    std::vector<Child> running;
    std::size_t next = 0;
    while (next < o.cases.size() || !running.empty()) {
        while (next < o.cases.size() && running.size() < static_cast<std::size_t>(o.jobs))
            running.push_back(start(o, o.cases[next++]));
        std::vector<conformance::Output*> outputs;
        for (Child& c : running)
            outputs.push_back(&c.out);
        const std::vector<bool> ends = conformance::readOutputs(outputs);
        for (std::size_t i = running.size(); i-- > 0;) {
            Child& c = running[i];
            const bool done = ends[i];
            const double age = std::chrono::duration<double>(std::chrono::steady_clock::now() - c.started).count();
            if (done || age > o.timeout) {
                finish(c, !done, o.timeout);
                running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
            }
        }
    }
}

int parse(int argc, char** argv, Options& o)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--backend" || a == "--atol" || a == "--rtol") {
            const std::string v = value();
            o.caseOptions.insert(o.caseOptions.end(), {a, v});
            if (a == "--backend")
                o.backend = v;
            else
                (a == "--atol" ? o.atol : o.rtol) = std::stod(v);
        } else if (a == "--timeout")
            o.timeout = std::stod(value());
        else if (a == "--jobs")
            o.jobs = std::max(1, std::stoi(value()));
        else if (a == "--isolation")
            o.isolation = value();
        else if (a == "--cases-per-worker")
            o.casesPerWorker = std::max(1, std::stoi(value()));
        else if (a == "--serve")
            o.serve = true;
        else if (a.rfind("--", 0) == 0) {
            std::cerr << "onnx_node_runner: unknown option " << a << '\n';
            return 2;
        } else
            o.cases.push_back(a);
    }
    if (o.isolation == "auto")
        o.isolation = o.backend == "cpu" ? "fork" : "worker";
    if (o.isolation != "fork" && o.isolation != "worker") {
        std::cerr << "onnx_node_runner: --isolation is fork or worker, not " << o.isolation << '\n';
        return 2;
    }
    return 0;
}
} // namespace

int main(int argc, char** argv)
{
    Options o;
    if (int rc = parse(argc, argv, o))
        return rc;
    if (o.serve) {
        const int channel = conformance::takeResultChannel();
        auto backend = makeBackend(o.backend);
        return conformance::serveCases(channel,
                                       [&](const std::string& dir) { return caseLine(o, backend.get(), dir); });
    }
    if (o.isolation == "worker") {
        // The parent makes no backend: a worker must create its own CUDA context, never inherit one.
        conformance::WorkerPool pool{{argv[0], "--serve"}, o.jobs, o.timeout, o.casesPerWorker};
        pool.workerArgs.insert(pool.workerArgs.end(), o.caseOptions.begin(), o.caseOptions.end());
        conformance::runInWorkers(o.cases, pool);
        return 0;
    }
    // Start the backend and fill libonnx's schema registry once, before forking, so that children start warm.
    if (!makeBackend(o.backend)) {
        std::cerr << "onnx_node_runner: no backend " << o.backend << '\n';
        return 2;
    }
    if (!o.cases.empty())
        (void)loadGraphFile((fs::path(o.cases.front()) / "model.onnx").string());
    runForked(o);
    return 0;
}
