// SPDX-License-Identifier: MIT
#include "cli/commands.h"

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
         "analyze FILE [--device D|--profile P]... [--model M] [--bind S=N]... [--json|--csv]  cost per device",
         cmdAnalyze},
        {"sweep",
         "sweep FILE --values V [--symbol batch] [--device D|--profile P]... [--gates NODES] [--json|--csv]  cost"
         " (and fusion-gate scores) over a symbol",
         cmdSweep},
        {"profiles", "profiles [show NAME]                list device profiles, or print one as JSON", cmdProfiles},
        {"devices", "devices [--json]                   the devices of every backend in this build", cmdDevices},
        {"run",
         "run FILE [--backend cpu] [--device N|all] [--bind S=N]... [--input FILE.pb]... [--runs 20] [--warmup 3]"
         " [--per-node] [--reference OUT.pb|cpu] [--rtol 1e-3] [--atol 1e-7] [--save-output OUT.pb] [--batch N]"
         " [--profile P] [--no-host-probe] [--json]  run for real, measured against both models; --device all: every"
         " device, isolated and concurrent, per-device profiles (exit 3 only when all fail)",
         cmdRun},
        {"calibrate",
         "calibrate --backend cpu|vulkan|cuda [--device N|all] [--quick] [--save NAME] [--json]  microbenchmarks"
         " -> device profile",
         cmdCalibrate},
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
    };
    return list;
}

} // namespace costscope::cli
