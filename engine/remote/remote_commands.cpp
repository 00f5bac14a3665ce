// SPDX-License-Identifier: MIT
#include "remote/remote_commands.h"

#include "analysis/profile_io.h"
#include "formats/onnx_import.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace costscope {

namespace {
using Json = nlohmann::ordered_json;

Result<Json> parseOutput(const RemoteCli& remote, const RemoteOutput& out)
{
    try {
        return Json::parse(out.out);
    } catch (const Json::exception& e) {
        return Diagnostic::error(remote.options().target.destination() + ": the remote costscope-cli printed no JSON ("
                                 + e.what() + ")");
    }
}
// The files that travel with a graph: an ONNX model's external data, which sit beside it (the cache keeps one
// directory per graph, so a location in another directory cannot be kept where the model looks for it).
Result<std::vector<std::string>> companionFiles(const std::string& graphFile)
{
    namespace fs = std::filesystem;
    if (fs::path(graphFile).extension() != ".onnx")
        return std::vector<std::string>{};
    std::ifstream in(graphFile, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    std::vector<std::string> files;
    for (const std::string& location : onnxExternalDataLocations(bytes)) {
        const fs::path p(location);
        if (p.has_parent_path() || p.is_absolute())
            return Diagnostic::error(graphFile + ": external data '" + location
                                     + "' is not beside the model; only files beside it are copied to a remote host");
        const fs::path local = fs::path(graphFile).parent_path() / p;
        if (!fs::exists(local))
            return Diagnostic::error(graphFile + ": its external data file " + local.string() + " is missing");
        files.push_back(local.string());
    }
    return files;
}
} // namespace

namespace {
// Adds each file option to `args` as the path of its copy in the remote cache, and the copy to `cached`.
Result<bool> addFileOptions(RemoteCli& remote, const std::vector<LocalFileOption>& fileOptions,
                            std::vector<std::string>& args, std::vector<CachedGraph>& cached)
{
    for (const LocalFileOption& f : fileOptions) {
        auto file = remote.cachedGraph(f.path);
        if (!file)
            return Diagnostic::error(f.option + ' ' + file.error().message);
        args.insert(args.end(), {f.option, file->remotePath});
        cached.push_back(std::move(*file));
    }
    return true;
}

// `args` on the remote with the files of `cached` in its cache: one ssh round trip when they are there already; else
// the run finds them missing (nothing was run), they are copied and the run is asked again.
Result<RemoteOutput> runWithCachedFiles(RemoteCli& remote, const std::vector<std::string>& args,
                                        const std::vector<CachedGraph>& cached)
{
    std::vector<std::string> required;
    for (const CachedGraph& c : cached)
        required.push_back(c.remotePath);
    auto out = remote.run(args, required);
    if (out && !out->missingFiles.empty()) { // the first run with these files on this host
        for (const CachedGraph& c : cached)
            if (std::find(out->missingFiles.begin(), out->missingFiles.end(), c.remotePath) != out->missingFiles.end())
                if (auto copied = remote.upload(c); !copied)
                    return copied.error();
        out = remote.run(args, required);
        if (out && !out->missingFiles.empty())
            return Diagnostic::error(remote.options().target.destination() + ": " + out->missingFiles.front()
                                     + " is still missing after the copy");
    }
    return out;
}
} // namespace

Result<RemoteOutput> runGraphRemotely(RemoteCli& remote, const std::string& graphFile,
                                      const std::vector<std::string>& runArgs,
                                      const std::vector<LocalFileOption>& fileOptions)
{
    auto companions = companionFiles(graphFile);
    if (!companions)
        return companions.error();
    auto graph = remote.cachedGraph(graphFile, *companions);
    if (!graph)
        return graph.error();
    std::vector<CachedGraph> cached = {*graph};
    std::vector<std::string> args = {"run", graph->remotePath};
    args.insert(args.end(), runArgs.begin(), runArgs.end());
    if (auto added = addFileOptions(remote, fileOptions, args, cached); !added)
        return added.error();
    args.push_back("--json");
    if (remote.options().onProgress)
        remote.options().onProgress(remote.options().target.host + ": running " + graphFile);
    auto out = runWithCachedFiles(remote, args, cached);
    if (!out)
        return out;
    auto j = parseOutput(remote, *out);
    if (!j)
        return j.error();
    // The run is of the local files; their cached copies are a detail of the transport.
    (*j)["file"] = graphFile;
    for (const LocalFileOption& f : fileOptions)
        if (f.option == "--reference" && j->contains("check"))
            (*j)["check"]["reference"] = f.path;
    out->out = j->dump(2) + '\n';
    return out;
}

std::string remoteDeviceId(const std::string& host, const std::string& backend, DeviceIndex index)
{
    return host + '/' + backend + (backend == "cpu" ? "" : ':' + std::to_string(index));
}

Result<std::vector<RemoteDevice>> remoteDevices(RemoteCli& remote)
{
    auto out = remote.run({"devices", "--json"});
    if (!out)
        return out.error();
    auto j = parseOutput(remote, *out);
    if (!j)
        return j.error();
    std::vector<RemoteDevice> list;
    for (const Json& d : j->value("devices", Json::array())) {
        DeviceInfo info{d.value("backend", ""),      d.value("index", DeviceIndex{0}),
                        d.value("name", ""),         d.value("memory_bytes", std::uint64_t{0}),
                        d.value("compute_units", 0), d.value("pci_bus_id", ""),
                        d.value("clock_mhz", 0),     d.value("memory_clock_mhz", 0)};
        list.push_back({remoteDeviceId(remote.options().target.host, info.backend, info.index), info});
    }
    return list;
}

Result<RemoteOutput> evaluateRemotely(RemoteCli& remote, const std::vector<std::string>& args,
                                      const std::vector<LocalFileOption>& fileOptions)
{
    std::vector<std::string> line = {"evaluate"};
    line.insert(line.end(), args.begin(), args.end());
    std::vector<CachedGraph> cached;
    if (auto added = addFileOptions(remote, fileOptions, line, cached); !added)
        return added.error();
    auto out = runWithCachedFiles(remote, line, cached);
    if (!out || std::find(args.begin(), args.end(), "--json") == args.end())
        return out;
    auto j = parseOutput(remote, *out);
    if (!j)
        return j.error();
    (*j)["host"] = remote.options().target.host;
    out->out = j->dump(2) + '\n';
    return out;
}

std::string remoteProfileName(const std::string& host, const std::string& backend)
{
    return host + "/calibrated-" + backend;
}

Result<DeviceProfile> calibrateRemotely(RemoteCli& remote, const std::string& backend, DeviceIndex device, bool quick,
                                        const std::string& name, const std::vector<std::string>& predictorArgs)
{
    std::vector<std::string> args = {"calibrate", "--backend", backend, "--device", std::to_string(device),
                                     "--save",    name,        "--json"};
    if (quick)
        args.push_back("--quick");
    args.insert(args.end(), predictorArgs.begin(), predictorArgs.end());
    auto out = remote.run(args);
    if (!out)
        return out.error();
    auto j = parseOutput(remote, *out);
    if (!j)
        return j.error();
    j->erase("saved_to"); // the remote's path, not a key of the profile format
    return profileFromJsonText(j->dump(), remote.options().target.host + ": calibrate --json");
}

} // namespace costscope
