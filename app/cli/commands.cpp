// SPDX-License-Identifier: MIT
#include "cli/commands.h"

#include "cli/args.h"

#include <algorithm>
#include <iostream>
#include <new>

namespace costscope::cli {

const std::vector<Command>& commands()
{
    static const std::vector<Command> list = {
        {"info", "info FILE [--json]                 name, nodes, op histogram, inputs, outputs, symbols", cmdInfo},
        {"convert", "convert IN OUT                     convert between formats (by extension)", cmdConvert},
        {"gate", "gate welch-peaks|fuse ...            RLX IO fusion gate: Welch peaks, or fusing a node set", cmdGate},
        {"welch-peaks",
         "welch-peaks costs --device D --batch N | sweep --values V [--device D]  Welch-peaks strategies"
         " and pick; over batch also the gate per target",
         cmdWelchPeaks},
        {"pick", "pick FILE [--allow/--deny/--prefer]   device report and pick (RLX policy and cost model)", cmdPick},
        {"analyze",
         "analyze FILE [--device D|--profile P]... [--model M] [--bind S=N]... [--top N] [--json|--csv]  cost per "
         "device",
         cmdAnalyze},
        {"sweep",
         "sweep FILE --values V [--symbol batch] [--device D|--profile P]... [--gates NODES] [--json|--csv]  cost"
         " (and fusion-gate scores) over a symbol",
         cmdSweep},
        {"sweep-runs",
         "sweep-runs --ray http://HEAD:8265 MANIFEST.json [--out R.json] [--csv R.csv] [--retries 2]  real"
         " runs of graphs x batches x devices as Ray jobs, gathered",
         cmdSweepRuns},
        {"profiles", "profiles [show NAME]                list device profiles, or print one as JSON", cmdProfiles},
        {"devices",
         "devices [--json] [--remote USER@HOST[:PORT]]  the devices of every backend in this build (or of a host)",
         cmdDevices},
        {"run",
         "run FILE [--backend cpu] [--device N|all] [--bind S=N]... [--input FILE.pb]... [--runs 20] [--warmup 3]"
         " [--per-node] [--reference OUT.pb|cpu] [--rtol 1e-3] [--atol 1e-7] [--save-output OUT.pb] [--batch N]"
         " [--profile P] [--no-host-probe] [--fusion on|off|compare] [--trace OUT.json] [--json] [--remote "
         "USER@HOST[:PORT] "
         "[--identity F] [--ssh-option K=V]..."
         " [--remote-cli PATH]]  run for real (here or on a host over ssh), measured against both models; --device"
         " all: every device, isolated and concurrent, per-device profiles (exit 3 only when all fail)",
         cmdRun},
        {"calibrate",
         "calibrate --backend cpu|vulkan|cuda [--device N|all] [--quick] [--save NAME] [--json]"
         " [--remote USER@HOST[:PORT]]  microbenchmarks -> device profile",
         cmdCalibrate},
        {"evaluate",
         "evaluate [--backend B] [--profile NAME] [--families F,G] [--batches 1,8] [--json] [DATA...]  accuracy of the "
         "cost models on model families they were not fitted on",
         cmdEvaluate},
        {"fit",
         "fit --profile NAME RUN.json... [--weight-by-time] [--prior-runs 2] [--json]  fit per-op-class corrections "
         "from measured runs",
         cmdFit},
        {"report",
         "report FILE --format html|pdf|csv|json|node-data|svg|png -o OUT [--device D]... [--measured T]  export a "
         "report",
         cmdReport},
        {"diff", "diff A B [--device D]... [--json]   nodes added/removed/changed and cost deltas per device", cmdDiff},
        {"import-trace", "import-trace FILE TRACE.json [--json]  match a Perfetto/ONNX Runtime trace to the nodes",
         cmdImportTrace},
        {"worker",
         "worker [--listen --watch FILE]       serve run requests (newline-delimited JSON) on stdin until it closes, or"
         " on the host's loopback: the host side of --remote",
         cmdWorker},
    };
    return list;
}

namespace {
void printUsage(std::ostream& os)
{
    os << "usage: costscope-cli COMMAND [ARGS]\n\ncommands:\n";
    for (const auto& c : commands())
        os << "  " << c.usage << '\n';
    os << "\nexit codes: 0 ok, 2 usage, 3 bad input, 4 check failed\n";
}
} // namespace

int runCommandLine(const std::vector<std::string>& argv)
{
    if (argv.empty()) {
        printUsage(std::cerr);
        return kUsage;
    }
    const std::string& cmd = argv[0];
    if (cmd == "--version" || cmd == "version") {
        std::cout << "costscope-cli " << COSTSCOPE_VERSION << '\n';
        return 0;
    }
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        printUsage(std::cout);
        return 0;
    }
    const std::vector<std::string> args(argv.begin() + 1, argv.end());
    const bool help =
        std::find_if(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; })
        != args.end();
    for (const auto& c : commands())
        if (cmd == c.name) {
            if (help) { // `costscope-cli run --help`: that command's line, not "unknown option"
                std::cout << "usage: costscope-cli " << c.usage << '\n';
                return 0;
            }
            try {
                return c.run(args);
            } catch (const std::bad_alloc&) { // a tensor larger than memory: bad input, not a crash
                std::cerr << "costscope-cli " << cmd << ": out of memory (the input asks for a tensor larger than "
                          << "this machine can hold)\n";
                return kBadInput;
            }
        }
    std::cerr << "costscope-cli: unknown command '" << cmd << "'\n";
    printUsage(std::cerr);
    return kUsage;
}

} // namespace costscope::cli
