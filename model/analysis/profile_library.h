// SPDX-License-Identifier: MIT
#pragma once

#include "analysis/device_profile.h"
#include "ir/diagnostic.h"

#include <string>
#include <string_view>
#include <vector>

namespace costscope {

// Where profiles live. defaults(): presets from $COSTSCOPE_PROFILES_DIR, else <exe>/../share/costscope/profiles,
// else the source tree's resources/profiles; user profiles in $XDG_DATA_HOME/costscope/profiles (default
// ~/.local/share/costscope/profiles); RLX caches in ~/.cache/rlx. Empty paths are not searched.
struct ProfilePaths {
    std::string presetDir;
    std::string userDir;
    std::string rlxCacheDir;

    static ProfilePaths defaults();
};

// All profiles a user can pick by name: shipped presets, user profiles (which override a preset of the same
// name) and RLX calibration caches ("rlx-cache/<stem>"). Bad files do not stop loading: they are in problems().
class ProfileLibrary {
public:
    enum class Origin { Preset, User, RlxCache };
    struct Entry {
        DeviceProfile profile;
        Origin origin = Origin::Preset;
        std::string path;
    };

    static ProfileLibrary load(const ProfilePaths& paths);

    const std::vector<Entry>& entries() const { return m_entries; }
    const Diagnostics& problems() const { return m_problems; }
    const DeviceProfile* find(std::string_view name) const;
    // Writes <userDir>/<name>.json atomically (creating the directory) and adds or replaces the entry; returns
    // the path written.
    Result<std::string> saveUserProfile(const DeviceProfile& p);

private:
    void add(Entry e);
    ProfilePaths m_paths;
    std::vector<Entry> m_entries;
    Diagnostics m_problems;
};

std::string_view originName(ProfileLibrary::Origin o);

} // namespace costscope
