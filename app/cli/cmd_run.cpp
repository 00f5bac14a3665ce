// SPDX-License-Identifier: MIT
// costscope-cli run: runs a graph on a backend, times it and optionally checks its first output.
// Every run is compared with the RLX parity model and the Costscope model (see analysis/run_predictions.h).
#include "analysis/calibration_fit.h"
#include "analysis/run_predictions.h"
#include "backend.h"
#include "calibration/device_profile_name.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/device_option.h"
#include "cli/load.h"
#include "cli/remote_commands.h"
#include "cli/remote_options.h"
#include "cli/run_all_devices.h"
#include "cli/run_check.h"
#include "cli/run_fusion_compare.h"
#include "cli/run_output.h"
#include "formats/graph_file.h"
#include "formats/missing_tensor_data.h"
#include "fused_group_prices.h"
#include "ir/rebatch.h"
#include "measure.h"
#include "run_comparison.h"
#include "run_result.h"
#include "synthetic.h"
#include "tensor_proto.h"
#include "usecases/bindings_parse.h"
#include "usecases/host_adjusted_run.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <unordered_map>

namespace costscope::cli {

namespace {
using Json = nlohmann::ordered_json;

constexpr const char* kUsageLine =
    "usage: costscope-cli run FILE [--backend cpu] [--device N|all|ID] [--bind SYMBOL=N]... [--input FILE.pb]...\n"
    "         [--runs 20] [--warmup 3] [--per-node] [--reference OUT.pb|cpu] [--rtol 1e-3] [--atol 1e-7]\n"
    "         [--save-output OUT.pb] [--batch N] [--profile NAME] [--no-host-probe] [--fusion on|off|compare]\n"
    "         [--json] [--trace OUT.json]\n"
    "         [--remote USER@HOST[:PORT] [--identity FILE] [--ssh-option K=V]... [--remote-cli PATH]\n"
    "          [--remote-cache DIR] [--connect-timeout 10] [--remote-timeout 600] [--remote-worker on|off]]\n"
    "--device ID: cuda:0 or local/cuda:0 here, HOST/cuda:0 on the host of --remote (the ids costscope-cli devices\n"
    "and the remote listing print)\n"
    "--device all: every device of the backend, one after another and then all at once, each predicted under its own\n"
    "calibrated profile (no --reference, --save-output or --per-node); exit 3 only when every device fails\n"
    "--fusion compare: the graph unfused and fused, each kernel's measured gain beside RLX's gate score and the\n"
    "Costscope what-if (exit 3 on a backend that does not fuse)";

const std::set<std::string> kFlags = {"json", "per-node", "no-host-probe"};

struct Settings {
    std::string file, backend = "cpu", reference, saveOutput, profile, trace;
    std::int64_t batch = 0; // 0: as the file states
    DeviceIndex device = 0;
    Bindings bindings;
    std::vector<std::string> inputFiles;
    MeasureOptions measure;
    double rtol = 1e-3, atol = 1e-7;
    bool json = false;
    bool allDevices = false; // --device all
    bool hostProbe = true; // re-time the profile's reference kernels around the run (see adjustForHost)
    bool fusionCompare = false; // --fusion compare: unfused and fused runs, fusion verified (run_fusion_compare.h)
    CompileOptions compile;
};

std::optional<Settings> parseSettings(const std::vector<std::string>& argv, std::string* error)
{
    auto args = Args::parse(argv, kFlags,
                            {"backend", "device", "bind", "input", "runs", "warmup", "reference", "rtol", "atol",
                             "save-output", "profile", "batch", "fusion", "trace"},
                            error);
    if (!args)
        return std::nullopt;
    if (args->positional().size() != 1) {
        *error = "expected one graph FILE";
        return std::nullopt;
    }
    Settings s;
    s.file = args->positional()[0];
    s.backend = args->option("backend").value_or("cpu");
    s.reference = args->option("reference").value_or("");
    s.saveOutput = args->option("save-output").value_or("");
    s.inputFiles = args->options("input");
    s.profile = args->option("profile").value_or("");
    s.json = args->flag("json");
    s.trace = args->option("trace").value_or("");
    s.measure.perNode = args->flag("per-node") || !s.trace.empty();
    s.hostProbe = !args->flag("no-host-probe");
    const std::string fusion = args->option("fusion").value_or("on");
    if (fusion != "on" && fusion != "off" && fusion != "compare") {
        *error = "--fusion expects on, off or compare, got '" + fusion + "'";
        return std::nullopt;
    }
    s.compile.fusion = fusion != "off";
    s.fusionCompare = fusion == "compare";
    auto bindings = parseBindings(args->options("bind"));
    if (!bindings) {
        *error = bindings.error().message;
        return std::nullopt;
    }
    s.bindings = std::move(*bindings);
    auto intOption = [&](const char* name, std::int64_t dflt, std::int64_t lo) -> std::optional<std::int64_t> {
        auto text = args->option(name);
        auto v = text ? parseInt(*text) : std::optional<std::int64_t>(dflt);
        if (!v || *v < lo)
            *error = std::string("--") + name + " expects an integer >= " + std::to_string(lo);
        return v && *v >= lo ? v : std::nullopt;
    };
    s.allDevices = args->option("device") == "all";
    if (s.allDevices && (!s.reference.empty() || !s.saveOutput.empty() || s.measure.perNode)) {
        *error = "--device all takes no --reference, --save-output or --per-node";
        return std::nullopt;
    }
    if (s.fusionCompare && (s.allDevices || !s.reference.empty() || !s.saveOutput.empty() || !s.trace.empty())) {
        *error = "--fusion compare takes no --device all, --reference, --save-output or --trace";
        return std::nullopt;
    }
    auto runs = intOption("runs", 20, 1), warmup = intOption("warmup", 3, 0);
    auto device = s.allDevices ? std::optional<std::int64_t>(0) : intOption("device", 0, 0);
    auto batch = intOption("batch", 0, 0);
    if (!runs || !warmup || !device || !batch)
        return std::nullopt;
    s.batch = *batch;
    s.measure.timedRuns = static_cast<int>(*runs);
    s.measure.warmupRuns = static_cast<int>(*warmup);
    s.device = static_cast<DeviceIndex>(*device);
    for (auto [name, target] : {std::pair{"rtol", &s.rtol}, std::pair{"atol", &s.atol}})
        if (auto text = args->option(name)) {
            auto v = parseDouble(*text);
            if (!v || *v < 0) {
                *error = std::string("--") + name + " expects a number >= 0";
                return std::nullopt;
            }
            *target = *v;
        }
    return s;
}

// arange(n)/n for every input of the plan: what a run without --input files gets.
std::vector<HostTensor> syntheticInputs(const ExecutablePlan& plan)
{
    std::vector<HostTensor> inputs;
    for (const PlanInput& in : plan.inputs())
        inputs.push_back(arangeInput(in.dims, in.dtype));
    return inputs;
}

// The --input files in graph-input order; the graph's symbols that --bind leaves open take their sizes from them
// (as ONNX Runtime binds a model's dynamic dims from the tensors it is fed).
Result<std::vector<HostTensor>> readInputFiles(Settings& s, const Graph& g)
{
    std::vector<const Node*> graphInputs;
    for (const Node& n : g.nodes)
        if (n.op.kind == OpKind::Input)
            graphInputs.push_back(&n);
    std::vector<HostTensor> inputs;
    if (s.inputFiles.empty())
        return inputs;
    if (s.inputFiles.size() != graphInputs.size())
        return Diagnostic::error("the graph has " + std::to_string(graphInputs.size()) + " inputs, "
                                 + std::to_string(s.inputFiles.size()) + " --input files were given");
    for (std::size_t i = 0; i < graphInputs.size(); ++i) {
        auto t = readTensorProtoFile(s.inputFiles[i]);
        if (!t)
            return t.error();
        const std::vector<Dim>& dims = graphInputs[i]->shape.dims;
        for (std::size_t d = 0; d < dims.size() && d < t->rank(); ++d)
            if (!dims[d].isStatic() && !s.bindings.count(dims[d].symbol))
                s.bindings[dims[d].symbol] = t->dim(d);
        inputs.push_back(std::move(*t));
    }
    return inputs;
}

// Compiles, uploads and sets inputs on one backend.
Result<std::unique_ptr<ExecutablePlan>> prepare(Backend& backend, const Graph& g, const Settings& s,
                                                 DeviceIndex device, std::vector<HostTensor>* inputs)
{
    auto plan = backend.compile(g, s.bindings, device);
    if (!plan)
        return plan.error();
    if (auto r = (*plan)->uploadParameters(); !r)
        return r.error();
    if (inputs->empty())
        *inputs = syntheticInputs(**plan);
    if (auto r = (*plan)->setInputs(*inputs); !r)
        return r.error();
    return std::move(*plan);
}

Result<HostTensor> referenceOutput(const Settings& s, const Graph& g, std::vector<HostTensor>* inputs)
{
    if (s.reference != "cpu")
        return readTensorProtoFile(s.reference);
    auto cpu = makeBackend("cpu");
    auto plan = prepare(*cpu, g, s, 0, inputs);
    if (!plan)
        return plan.error();
    if (auto r = (*plan)->run(); !r)
        return r.error();
    auto outs = (*plan)->readOutputs();
    if (!outs)
        return outs.error();
    return outs->front();
}

double relError(double predicted, double measured)
{
    return measured > 0 ? (predicted - measured) / measured : 0.0;
}

// Each node's three predictions by id (host-adjusted: 0 without a host probe).
struct NodePredictions {
    double rlx = 0, costscope = 0, host = 0;
};

std::unordered_map<NodeId, NodePredictions> predictionsById(const RunPredictions& p)
{
    std::unordered_map<NodeId, NodePredictions> out;
    for (std::size_t i = 0; i < p.rlx.nodes.size() && i < p.costscope.nodes.size(); ++i)
        out[p.rlx.nodes[i].id] = {p.rlx.nodes[i].totalNs, p.costscope.nodes[i].totalNs, 0.0};
    for (const NodeCost& c : p.costscopeHost.nodes)
        out[c.id].host = c.totalNs;
    return out;
}

// The predictions of a timed kernel: its node's, plus those of the nodes fused into it (the unfused prediction of
// the group, beside the fused kernel's measured time).
NodePredictions predictedFor(std::unordered_map<NodeId, NodePredictions>& byId, const NodeTiming& t)
{
    NodePredictions sum = byId[t.node];
    for (NodeId id : t.fused) {
        const NodePredictions& f = byId[id];
        sum.rlx += f.rlx;
        sum.costscope += f.costscope;
        sum.host += f.host;
    }
    return sum;
}

Json resultJson(const Graph& g, const Settings& s, const DeviceInfo& device, const RunResult& r,
                const RunPredictions& p)
{
    auto predicted = predictionsById(p);
    Json j;
    j["graph"] = g.name;
    j["file"] = s.file;
    if (s.batch > 0)
        j["batch"] = s.batch;
    j["backend"] = s.backend;
    j["device"] = {{"index", device.index}, {"name", device.name}};
    j["bindings"] = s.bindings;
    j["fusion"] = s.compile.fusion ? "on" : "off";
    j["whole"] = {{"runs", r.whole.runs}, {"warmup", s.measure.warmupRuns}, {"median_ns", r.whole.medianNs},
                  {"min_ns", r.whole.minNs}, {"max_ns", r.whole.maxNs}, {"spread", r.whole.spread}};
    // A kernel of several nodes is predicted at the fused kernel's price, not at its members' sum (kept beside it).
    const FusedPricing fusedPrices =
        priceFusedGroups(g, s.bindings, p.costscopeProfile, p.costscope, fusedGroupsOf(r.perNode));
    std::unordered_map<NodeId, const FusedGroupPrice*> fusedPriceOf;
    for (const FusedGroupPrice& f : fusedPrices.groups)
        fusedPriceOf[f.members.back()] = &f;
    auto nodes = Json::array();
    std::vector<std::pair<NodeId, double>> timed;
    for (const NodeTiming& t : r.perNode)
        timed.emplace_back(t.node, double(t.ns));
    // What `fit` takes off every node before fitting (calibration_fit.h): shown so that a user can see it.
    const double overhead = instrumentationOverheadNs(timed, double(r.whole.medianNs));
    if (!r.perNode.empty())
        j["instrumentation_overhead_ns"] = overhead;
    for (const NodeTiming& t : r.perNode) {
        const Node* n = g.find(t.node);
        auto [rlx, cs, host] = predictedFor(predicted, t);
        const auto fusedPrice = t.fused.empty() ? fusedPriceOf.end() : fusedPriceOf.find(t.node);
        if (fusedPrice != fusedPriceOf.end())
            cs = fusedPrice->second->fusedNs;
        Json node = {{"id", t.node}, {"op", t.label}, {"name", n ? n->displayName() : ""}, {"measured_ns", t.ns},
                     {"net_ns", withoutOverheadNs(double(t.ns), overhead)},
                     {"predicted_ns", {{"rlx", rlx}, {"costscope", cs}}},
                     {"error", {{"rlx", relError(rlx, double(t.ns))}, {"costscope", relError(cs, double(t.ns))}}}};
        if (p.hostSpeed) {
            node["predicted_ns"]["costscope_host_adjusted"] = host;
            node["error"]["costscope_host_adjusted"] = relError(host, double(t.ns));
        }
        if (!t.fused.empty()) // one kernel for several nodes: "op" is its name, the time and predictions the group's
            node["fused_nodes"] = t.fused;
        if (fusedPrice != fusedPriceOf.end()) {
            node["predicted_ns"]["costscope_unfused"] = fusedPrice->second->unfusedNs;
            if (!fusedPrice->second->problem.empty())
                node["costscope_fused_problem"] = fusedPrice->second->problem;
        }
        nodes.push_back(std::move(node));
    }
    j["per_node"] = nodes;
    // Nodes the device backend has no kernel for, run by the CPU backend's kernel between copies (run_result.h).
    if (const auto onHost = std::count_if(r.perNode.begin(), r.perNode.end(), ranOnHost); onHost > 0)
        j["host_fallback_nodes"] = onHost;
    j["predicted"] = {{"rlx", predictedJson(p.rlx, double(r.whole.medianNs))},
                      {"costscope", predictedJson(p.costscope, double(r.whole.medianNs))}};
    if (!fusedPrices.groups.empty()) { // the whole graph with each kernel the run fused priced as that kernel
        GraphCost fusedCost;
        fusedCost.profile = p.costscope.profile;
        fusedCost.totalNs = fusedPrices.totalNs;
        j["predicted"]["costscope_fused"] = predictedJson(fusedCost, double(r.whole.medianNs));
    }
    if (p.hostSpeed) {
        j["predicted"]["costscope_host_adjusted"] = predictedJson(p.costscopeHost, double(r.whole.medianNs));
        j["host_speed"] = {{"gemm", p.hostSpeed->gemm}, {"kernel", p.hostSpeed->kernel},
                           {"memory", p.hostSpeed->memory}, {"dispatch", p.hostSpeed->dispatch}};
    }
    auto outs = Json::array();
    for (std::size_t i = 0; i < r.outputs.size() && i < g.outputs.size(); ++i)
        outs.push_back({{"id", g.outputs[i]}, {"shape", describe(r.outputs[i])}, {"sum", elementSum(r.outputs[i])}});
    j["outputs"] = outs;
    return j;
}

// The files of --input and --reference travel to the remote host (remote_commands.h); the other options as given.
std::vector<LocalFileOption> localFileOptions(const Settings& s)
{
    std::vector<LocalFileOption> files;
    for (const std::string& f : s.inputFiles)
        files.push_back({"--input", f});
    if (!s.reference.empty() && s.reference != "cpu")
        files.push_back({"--reference", s.reference});
    return files;
}

std::vector<std::string> remoteRunArgs(const std::vector<std::string>& argv, const Settings& s)
{
    auto args = optionsOnly(argv, kFlags, {"input", "reference"});
    if (s.reference == "cpu")
        args.insert(args.end(), {"--reference", "cpu"});
    return args;
}

} // namespace

int cmdRun(const std::vector<std::string>& argv)
{
    std::string err;
    auto remote = takeRemoteOptions(argv, &err);
    if (remote)
        if (const int code = resolveDeviceId(*remote, &err); code != kOk) {
            std::cerr << (code == kUsage ? std::string(kUsageLine) + "\n" : "costscope-cli run: ") << err << '\n';
            return code;
        }
    auto settings = remote ? parseSettings(remote->rest, &err) : std::nullopt;
    if (settings && remote->remote && (!settings->saveOutput.empty() || !settings->trace.empty())) {
        err = "--save-output and --trace write local files: not with --remote";
        settings.reset();
    }
    if (!settings) {
        std::cerr << kUsageLine << (err.empty() ? "" : "\n" + err) << '\n';
        return kUsage;
    }
    const Settings& s = *settings;
    if (remote->remote)
        return runOnRemote(*remote->remote, s.file, remoteRunArgs(remote->rest, s), localFileOptions(s), s.json);
    auto loadedBackend = loadBackend(s.backend);
    if (!loadedBackend) {
        std::cerr << "costscope-cli run: " << loadedBackend.error().message << '\n';
        return isKnownBackend(s.backend) ? kBadInput : kUsage;
    }
    const std::unique_ptr<Backend>& backend = *loadedBackend;
    backend->setCompileOptions(s.compile);
    const auto devices = backend->devices();
    if (!s.allDevices && s.device >= static_cast<DeviceIndex>(devices.size())) {
        std::cerr << "costscope-cli run: backend " << s.backend << " has no device " << s.device
                  << " (see costscope-cli devices)\n";
        return kBadInput;
    }
    auto loaded = loadForCommand(s.file, s.json);
    if (!loaded)
        return kBadInput;
    if (s.batch > 0) {
        auto rebatched = rebatch(loaded->graph, s.batch);
        if (!rebatched) {
            std::cerr << rebatched.error().format(s.file) << '\n';
            return kBadInput;
        }
        loaded->graph = std::move(*rebatched);
    }
    const Graph& g = loaded->graph;
    if (const std::string missing = missingDataReason(g); !missing.empty()) {
        std::cerr << s.file << ": " << missing << '\n';
        return kBadInput;
    }
    auto fileInputs = readInputFiles(*settings, g);
    if (!fileInputs) {
        std::cerr << fileInputs.error().format(s.file) << '\n';
        return kBadInput;
    }
    if (s.allDevices)
        return runOnAllDevices(*backend, g,
                               {s.file, s.backend, s.profile, s.bindings, std::move(*fileInputs), s.measure, s.json});
    // The device's own calibrated profile first (calibrate --device all), then predictRun's choice.
    const std::string profile = s.profile.empty() ? calibratedProfileOf(devices[std::size_t(s.device)]) : s.profile;
    auto predictions = predictRun(g, s.bindings, s.backend, profile);
    if (!predictions) {
        std::cerr << "costscope-cli run: " << predictions.error().message << '\n';
        return kUsage;
    }
    for (const std::string& w : predictions->costscopeProfile.loadWarnings)
        std::cerr << "warning: " << w << '\n';
    std::vector<HostTensor> inputs = std::move(*fileInputs);
    if (s.fusionCompare)
        return runFusionCompare(*backend, {s.file, &g, s.bindings, devices[std::size_t(s.device)], std::move(inputs),
                                           s.measure, &*predictions, s.json});
    auto plan = prepare(*backend, g, s, s.device, &inputs);
    std::string probeProblem;
    auto result = plan ? measureHostAdjusted(*backend, s.device, **plan, s.measure, g, s.bindings, *predictions,
                                             s.hostProbe, &probeProblem)
                       : Result<RunResult>(plan.error());
    if (!result) {
        std::cerr << result.error().format(s.file) << '\n';
        return kBadInput;
    }
    if (!probeProblem.empty())
        std::cerr << "costscope-cli run: " << probeProblem << '\n';
    const DeviceInfo& device = devices[static_cast<std::size_t>(s.device)];
    Json j = resultJson(g, s, device, *result, *predictions);
    if (!s.trace.empty()) {
        const RunComparison run =
            compareRun(std::make_shared<const Graph>(g), s.bindings, device, *result, *predictions);
        if (auto w = writeFileAtomic(s.trace, chromeTraceJson(g, run.traceInput())); !w) {
            std::cerr << w.error().format(s.trace) << '\n';
            return kBadInput;
        }
    }
    if (!s.saveOutput.empty() && !result->outputs.empty())
        if (auto w = writeFileAtomic(s.saveOutput, serializeTensorProto(result->outputs.front())); !w) {
            std::cerr << w.error().format(s.saveOutput) << '\n';
            return kBadInput;
        }
    bool failed = false;
    if (!s.reference.empty()) {
        auto want = referenceOutput(s, g, &inputs);
        if (!want) {
            std::cerr << want.error().format(s.reference == "cpu" ? s.file : s.reference) << '\n';
            return kBadInput;
        }
        const OutputCheck c = checkOutput(result->outputs.front(), *want, s.rtol, s.atol);
        failed = !c.pass;
        j["check"] = {{"reference", s.reference}, {"max_abs_error", c.maxAbsError}, {"max_rel_error", c.maxRelError},
                      {"rtol", c.rtol}, {"atol", c.atol}, {"pass", c.pass}};
        if (!c.problem.empty())
            j["check"]["problem"] = c.problem;
        if (!s.json)
            printCheckLine(j);
    }
    if (s.json)
        std::cout << j.dump(2) << '\n';
    else
        printRunText(j);
    return failed ? kCheckFailed : kOk;
}

} // namespace costscope::cli
