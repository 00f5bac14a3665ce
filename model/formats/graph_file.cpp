// SPDX-License-Identifier: MIT
#include "formats/graph_file.h"

#include "formats/costscope_document.h"
#include "formats/onnx_import.h"
#include "formats/rlx_json.h"

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace costscope {

namespace {
bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Diagnostic fileError(std::string msg)
{
    return Diagnostic::error(std::move(msg));
}
} // namespace

GraphFormat formatFromPath(const std::string& path)
{
    if (endsWith(path, ".costscope"))
        return GraphFormat::Costscope;
    if (endsWith(path, ".onnx"))
        return GraphFormat::Onnx;
    if (endsWith(path, ".json"))
        return GraphFormat::RlxJson;
    return GraphFormat::Unknown;
}

GraphFormat sniffFormat(const std::string& bytes)
{
    for (char c : bytes) {
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            continue;
        if (c == '{')
            return bytes.find("\"format\"") != std::string::npos && bytes.find("\"costscope\"") != std::string::npos
                ? GraphFormat::Costscope
                : GraphFormat::RlxJson;
        break;
    }
    // A serialized ModelProto starts with field 1 (ir_version, varint): tag byte 0x08.
    if (!bytes.empty() && bytes[0] == 0x08)
        return GraphFormat::Onnx;
    return GraphFormat::Unknown;
}

Result<std::string> readFileBytes(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return fileError("is a directory, not a graph file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fileError("cannot open file (does it exist and is it readable?)");
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad())
        return fileError("read error");
    return ss.str();
}

Result<LoadedGraph> loadGraphFile(const std::string& path)
{
    auto bytes = readFileBytes(path);
    if (!bytes)
        return bytes.error();
    GraphFormat format = formatFromPath(path);
    if (format == GraphFormat::Unknown || format == GraphFormat::RlxJson) {
        GraphFormat sniffed = sniffFormat(*bytes);
        if (sniffed != GraphFormat::Unknown)
            format = sniffed;
    }
    LoadedGraph loaded;
    loaded.format = format;
    switch (format) {
    case GraphFormat::RlxJson: {
        auto g = parseRlxJson(*bytes, &loaded.warnings);
        if (!g)
            return g.error();
        loaded.graph = std::move(*g);
        return loaded;
    }
    case GraphFormat::Costscope: {
        auto doc = parseCostscopeDocument(*bytes, &loaded.warnings);
        if (!doc)
            return doc.error();
        loaded.graph = std::move(doc->graph);
        doc->graph = Graph();
        loaded.session = std::make_shared<const CostscopeDocument>(std::move(*doc));
        return loaded;
    }
    case GraphFormat::Onnx: {
        if (!onnxImportAvailable())
            return fileError("this build of Costscope has no ONNX import (libonnx was not found when it was built)");
        const std::filesystem::path folder = std::filesystem::path(path).parent_path();
        auto g = importOnnx(*bytes, &loaded.warnings, folder.empty() ? "." : folder.string());
        if (!g)
            return g.error();
        loaded.graph = std::move(*g);
        return loaded;
    }
    case GraphFormat::Unknown: break;
    }
    if (bytes->empty())
        return fileError("file is empty");
    return fileError("not a graph file Costscope knows (expected RLX HIR JSON, ONNX or .costscope)");
}

Result<bool> writeFileAtomic(const std::string& path, const std::string& bytes)
{
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    // Not mkstemp: its 0600 would make every saved graph and export private. The file gets the mode of the one it
    // replaces, or 0666 less the umask as any new file does.
    std::string tmpl;
    int fd = -1;
    std::random_device entropy;
    for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
        tmpl = (dir / ("." + target.filename().string() + "." + std::to_string(entropy()))).string();
        fd = ::open(tmpl.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0)
        return fileError("cannot create a temporary file in " + dir.string());
    if (struct stat existing{}; ::stat(path.c_str(), &existing) == 0)
        (void)::fchmod(fd, existing.st_mode & 07777);
    std::size_t written = 0;
    while (written < bytes.size()) {
        ssize_t w = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (w <= 0) {
            ::close(fd);
            std::remove(tmpl.c_str());
            return fileError("write failed (disk full?)");
        }
        written += static_cast<std::size_t>(w);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        std::remove(tmpl.c_str());
        return fileError("cannot flush the file to disk");
    }
    std::error_code ec;
    fs::rename(tmpl, target, ec);
    if (ec) {
        std::remove(tmpl.c_str());
        return fileError("cannot replace the file: " + ec.message());
    }
    return true;
}

Result<bool> saveDocumentFile(const CostscopeDocument& doc, const std::string& path)
{
    switch (formatFromPath(path)) {
    case GraphFormat::Costscope:
        return writeFileAtomic(path, writeCostscopeDocument(doc));
    case GraphFormat::RlxJson:
        return writeFileAtomic(path, writeRlxJson(doc.graph));
    case GraphFormat::Onnx:
        return fileError("Costscope does not write ONNX; save as .costscope or RLX .json");
    case GraphFormat::Unknown: break;
    }
    return fileError("unknown output format: use a .json (RLX HIR JSON) or .costscope file name");
}

Result<bool> saveGraphFile(const Graph& g, const std::string& path)
{
    CostscopeDocument doc;
    doc.graph = g;
    return saveDocumentFile(doc, path);
}

} // namespace costscope
