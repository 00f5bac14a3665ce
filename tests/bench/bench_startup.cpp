// SPDX-License-Identifier: MIT
// How long costscope-cli takes to start and how much memory it touches: `--version`, and `info` of the bundled CNN,
// each against /bin/true in the same run (alternating blocks, so that the host's drift hits both alike), as a
// difference and a ratio of medians. Targets: < 30 ms and < 30 MB peak RSS, which is only reachable because CUDA,
// Vulkan, Qt Gui, ONNX import, XGBoost and libcurl/libcrypto load as plugins on first use.
// usage: bench_startup [COSTSCOPE_CLI [GRAPH]]
// (defaults: the CLI of this build tree, resources/examples/cnn.hir.json)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace {

struct Sample {
    double ms = 0;
    double maxRssMb = 0;
};

// One run of argv with stdout and stderr discarded: wall time and the child's peak resident set.
Sample runOnce(const std::vector<std::string>& argv)
{
    std::vector<char*> args;
    for (const std::string& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::fflush(stdout); // else the child's freopen writes our buffered lines once more
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        std::freopen("/dev/null", "w", stdout);
        std::freopen("/dev/null", "w", stderr);
        execv(args[0], args.data());
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    const auto end = std::chrono::steady_clock::now();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "%s exited with %d\n", argv[0].c_str(), WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        std::exit(1);
    }
    return {std::chrono::duration<double, std::milli>(end - start).count(), usage.ru_maxrss / 1024.0};
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    namespace fs = std::filesystem;
    const fs::path self = fs::read_symlink("/proc/self/exe");
    const fs::path buildDir = self.parent_path().parent_path().parent_path();
    const std::string cli = argc > 1 ? argv[1] : (buildDir / "app/costscope-cli").string();
    const std::string graph = argc > 2 ? argv[2] : std::string(COSTSCOPE_SOURCE_DIR "/resources/examples/cnn.hir.json");
    const std::string trueBin = fs::exists("/bin/true") ? "/bin/true" : "/usr/bin/true";
    const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
        {"--version", {cli, "--version"}}, {"info cnn", {cli, "info", graph}}};
    constexpr int blocks = 10, perBlock = 5;
    std::printf("%-12s %10s %10s %12s %12s %10s %8s\n", "command", "ms", "true ms", "peak MB", "true MB", "ms - true",
                "x true");
    for (const auto& [label, command] : cases) {
        std::vector<double> ms, trueMs, rss, trueRss;
        runOnce(command); // page cache warm
        for (int b = 0; b < blocks; ++b)
            for (int twice = 0; twice < 2; ++twice)
                for (int i = 0; i < perBlock; ++i) {
                    const bool ours = (b + twice) % 2 == 0;
                    const Sample s = runOnce(ours ? command : std::vector<std::string>{trueBin});
                    (ours ? ms : trueMs).push_back(s.ms);
                    (ours ? rss : trueRss).push_back(s.maxRssMb);
                }
        const double m = median(ms), t = median(trueMs);
        std::printf("%-12s %10.2f %10.2f %12.1f %12.1f %10.2f %8.1f\n", label.c_str(), m, t, median(rss),
                    median(trueRss), m - t, m / t);
    }
    return 0;
}
