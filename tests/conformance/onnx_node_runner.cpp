// SPDX-License-Identifier: MIT
// Runs ONNX node conformance cases (CASE/model.onnx, CASE/test_data_set_0/{input,output}_N.pb) on one backend, each
// in a forked child, and prints one line per case: "NAME<TAB>RESULT<TAB>WHY" with RESULT pass, mismatch,
// unsupported, crash or hang. A case goes through what `costscope-cli run FILE --input ... --reference output_0.pb`
// does (load, bind symbols from the inputs, compile, upload, set inputs, run, compare the first output with the CLI's
// own check), without the CLI's cost predictions and timing; forking from one loaded process saves the ~0.2 s of CPU
// that starting the CLI costs per case, and the child keeps a crash or a hang from ending the report.
//
// usage: onnx_node_runner --backend cpu --atol 1e-5 --rtol 1e-3 --jobs 2 --timeout 60 CASE_DIR...
#include "backend.h"
#include "cli/run_check.h"
#include "formats/graph_file.h"
#include "tensor_proto.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <new>
#include <string>
#include <vector>

using namespace costscope;
namespace fs = std::filesystem;

namespace {
struct Options {
    std::string backend = "cpu";
    double atol = 1e-5, rtol = 1e-3, timeout = 60;
    int jobs = 2;
    std::vector<std::string> cases;
};

std::string oneLine(std::string s)
{
    for (char& c : s)
        if (c == '\n' || c == '\t')
            c = ' ';
    return s.substr(0, 400);
}

// The case's outcome as "RESULT\tWHY" (run in the child).
std::string runCase(const Options& o, const fs::path& dir)
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
    auto backend = makeBackend(o.backend);
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
        return "pass\t";
    return "mismatch\tmax abs error " + std::to_string(c.maxAbsError) + ", max rel error "
        + std::to_string(c.maxRelError) + (c.problem.empty() ? "" : " (" + c.problem + ")");
}

struct Child {
    pid_t pid = -1;
    int fd = -1;
    std::string name, text;
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
        close(fds[0]);
        std::string line;
        try {
            line = runCase(o, dir);
        } catch (const std::bad_alloc&) {
            line = "unsupported\tout of memory";
        }
        const ssize_t written = write(fds[1], line.data(), line.size());
        _exit(written == static_cast<ssize_t>(line.size()) ? 0 : 1);
    }
    close(fds[1]);
    return Child{pid, fds[0], fs::path(dir).filename().string(), {}, std::chrono::steady_clock::now()};
}

void finish(Child& c, bool timedOut, double timeout)
{
    if (timedOut)
        kill(c.pid, SIGKILL);
    int status = 0;
    waitpid(c.pid, &status, 0);
    close(c.fd);
    std::string line;
    if (timedOut)
        line = "hang\tno result after " + std::to_string(static_cast<int>(timeout)) + " s";
    else if (WIFSIGNALED(status))
        line = std::string("crash\tsignal ") + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status))
            + ")";
    else if (c.text.find('\t') == std::string::npos)
        line = "crash\texit status " + std::to_string(WEXITSTATUS(status)) + " without a result";
    else
        line = c.text;
    const std::size_t tab = line.find('\t');
    std::cout << c.name << '\t' << line.substr(0, tab) << '\t' << oneLine(line.substr(tab + 1)) << '\n'
              << std::flush;
}

int parse(int argc, char** argv, Options& o)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--backend")
            o.backend = value();
        else if (a == "--atol")
            o.atol = std::stod(value());
        else if (a == "--rtol")
            o.rtol = std::stod(value());
        else if (a == "--timeout")
            o.timeout = std::stod(value());
        else if (a == "--jobs")
            o.jobs = std::max(1, std::stoi(value()));
        else if (a.rfind("--", 0) == 0) {
            std::cerr << "onnx_node_runner: unknown option " << a << '\n';
            return 2;
        } else
            o.cases.push_back(a);
    }
    return 0;
}
} // namespace

int main(int argc, char** argv)
{
    Options o;
    if (int rc = parse(argc, argv, o))
        return rc;
    // Start the backend and fill libonnx's schema registry once, before forking, so that children start warm.
    if (!makeBackend(o.backend)) {
        std::cerr << "onnx_node_runner: no backend " << o.backend << '\n';
        return 2;
    }
    if (!o.cases.empty())
        (void)loadGraphFile((fs::path(o.cases.front()) / "model.onnx").string());
    std::vector<Child> running;
    std::size_t next = 0;
    while (next < o.cases.size() || !running.empty()) {
        while (next < o.cases.size() && running.size() < static_cast<std::size_t>(o.jobs))
            running.push_back(start(o, o.cases[next++]));
        std::vector<pollfd> fds;
        for (const Child& c : running)
            fds.push_back({c.fd, POLLIN, 0});
        poll(fds.data(), fds.size(), 100);
        for (std::size_t i = running.size(); i-- > 0;) {
            Child& c = running[i];
            bool done = false;
            if (fds[i].revents & (POLLIN | POLLHUP)) {
                char buf[4096];
                const ssize_t n = read(c.fd, buf, sizeof buf);
                if (n > 0)
                    c.text.append(buf, static_cast<std::size_t>(n));
                done = n <= 0;
            }
            const double age =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - c.started).count();
            if (done || age > o.timeout) {
                finish(c, !done, o.timeout);
                running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
            }
        }
    }
    return 0;
}
