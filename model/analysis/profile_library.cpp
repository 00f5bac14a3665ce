// SPDX-License-Identifier: MIT
#include "analysis/profile_library.h"

#include "analysis/profile_io.h"
#include "formats/graph_file.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace costscope {

namespace fs = std::filesystem;

namespace {

std::string env(const char* name)
{
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

bool isDir(const fs::path& p)
{
    std::error_code ec;
    return fs::is_directory(p, ec);
}

std::string findPresetDir()
{
    if (std::string e = env("COSTSCOPE_PROFILES_DIR"); !e.empty())
        return e;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = exe.parent_path().parent_path() / "share" / "costscope" / "profiles";
        if (isDir(installed))
            return installed.string();
    }
    // Running from a build tree: the sources it was built from.
    const fs::path source = COSTSCOPE_SOURCE_PROFILES_DIR;
    return isDir(source) ? source.string() : std::string();
}

// JSON files of a directory in name order, so listings and lookups do not depend on the file system.
std::vector<fs::path> jsonFiles(const std::string& dir, const std::string& mustContain = {})
{
    std::vector<fs::path> out;
    std::error_code ec;
    if (dir.empty() || !isDir(dir))
        return out;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const fs::path& p = e.path();
        if (p.extension() == ".json" && p.filename().string().find(mustContain) != std::string::npos)
            out.push_back(p);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string fileNameFor(const std::string& profileName)
{
    std::string s;
    for (char c : profileName) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
                     || c == '_' || c == '.';
        s += ok ? c : '_';
    }
    return s + ".json";
}

} // namespace

ProfilePaths ProfilePaths::defaults()
{
    ProfilePaths p;
    p.presetDir = findPresetDir();
    const std::string home = env("HOME");
    std::string data = env("XDG_DATA_HOME");
    if (data.empty() && !home.empty())
        data = home + "/.local/share";
    if (!data.empty())
        p.userDir = data + "/costscope/profiles";
    if (!home.empty())
        p.rlxCacheDir = home + "/.cache/rlx";
    return p;
}

std::string_view originName(ProfileLibrary::Origin o)
{
    switch (o) {
    case ProfileLibrary::Origin::Preset: return "preset";
    case ProfileLibrary::Origin::User: return "user";
    case ProfileLibrary::Origin::RlxCache: return "rlx-cache";
    }
    return "preset";
}

void ProfileLibrary::add(Entry e)
{
    auto same = [&](const Entry& x) { return x.profile.name == e.profile.name; };
    if (auto it = std::find_if(m_entries.begin(), m_entries.end(), same); it != m_entries.end())
        *it = std::move(e);
    else
        m_entries.push_back(std::move(e));
}

ProfileLibrary ProfileLibrary::load(const ProfilePaths& paths)
{
    ProfileLibrary lib;
    lib.m_paths = paths;
    for (auto [dir, origin] : {std::pair{paths.presetDir, Origin::Preset}, std::pair{paths.userDir, Origin::User}})
        for (const fs::path& f : jsonFiles(dir)) {
            auto p = loadProfileFile(f.string());
            if (p)
                lib.add({std::move(*p), origin, f.string()});
            else
                lib.m_problems.push_back(p.error());
        }
    for (const fs::path& f : jsonFiles(paths.rlxCacheDir, "-calib-")) {
        auto p = loadRlxCalibrationCache(f.string());
        if (p)
            lib.add({std::move(*p), Origin::RlxCache, f.string()});
        else
            lib.m_problems.push_back(p.error());
    }
    return lib;
}

const DeviceProfile* ProfileLibrary::find(std::string_view name) const
{
    for (const Entry& e : m_entries)
        if (e.profile.name == name)
            return &e.profile;
    return nullptr;
}

Result<std::string> ProfileLibrary::saveUserProfile(const DeviceProfile& p)
{
    if (p.name.empty())
        return Diagnostic::error("cannot save a profile without a name");
    if (m_paths.userDir.empty())
        return Diagnostic::error("no user profile directory (set XDG_DATA_HOME or HOME)");
    std::error_code ec;
    fs::create_directories(m_paths.userDir, ec);
    if (ec)
        return Diagnostic::error(m_paths.userDir + ": cannot create directory: " + ec.message());
    const std::string path = (fs::path(m_paths.userDir) / fileNameFor(p.name)).string();
    auto written = writeFileAtomic(path, profileToJsonText(p));
    if (!written)
        return Diagnostic::error(path + ": " + written.error().message);
    add({p, Origin::User, path});
    return path;
}

} // namespace costscope
