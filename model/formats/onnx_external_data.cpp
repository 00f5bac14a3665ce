// SPDX-License-Identifier: MIT
#include "formats/onnx_external_data.h"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace costscope::onnx_import {

namespace fs = std::filesystem;

// A read-only mapping of a whole file (none for an empty one).
class MappedFile {
public:
    static Result<std::shared_ptr<const MappedFile>> open(const fs::path& path)
    {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return Diagnostic::error("cannot open it");
        struct stat st {};
        if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            ::close(fd);
            return Diagnostic::error("it is not a regular file");
        }
        auto file = std::shared_ptr<MappedFile>(new MappedFile);
        file->m_size = static_cast<std::uint64_t>(st.st_size);
        if (file->m_size > 0) {
            void* p = ::mmap(nullptr, file->m_size, PROT_READ, MAP_PRIVATE, fd, 0);
            if (p == MAP_FAILED) {
                ::close(fd);
                return Diagnostic::error("cannot map it into memory");
            }
            file->m_data = static_cast<const std::uint8_t*>(p);
        }
        ::close(fd); // the mapping keeps the file
        return std::shared_ptr<const MappedFile>(std::move(file));
    }
    ~MappedFile()
    {
        if (m_data)
            ::munmap(const_cast<std::uint8_t*>(m_data), m_size);
    }
    const std::uint8_t* data() const { return m_data; }
    std::uint64_t size() const { return m_size; }

private:
    MappedFile() = default;
    const std::uint8_t* m_data = nullptr;
    std::uint64_t m_size = 0;
};

namespace {
std::string entry(const onnx::TensorProto& t, const std::string& key)
{
    for (const auto& kv : t.external_data())
        if (kv.key() == key)
            return kv.value();
    return {};
}

std::optional<std::uint64_t> parseSize(const std::string& text)
{
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size())
        return std::nullopt;
    return v;
}

bool inside(const fs::path& path, const fs::path& folder)
{
    return std::mismatch(folder.begin(), folder.end(), path.begin(), path.end()).first == folder.end();
}
} // namespace

std::string externalLocation(const onnx::TensorProto& t)
{
    return entry(t, "location");
}

ExternalData::ExternalData(fs::path modelFolder) : m_folder(std::move(modelFolder))
{
}

ExternalData::~ExternalData() = default;

Result<std::shared_ptr<const MappedFile>> ExternalData::map(const std::string& tensor, const std::string& location)
{
    if (auto it = m_files.find(location); it != m_files.end())
        return it->second;
    auto refuse = [&](const std::string& why) {
        return Diagnostic::error("tensor '" + tensor + "' keeps its values in '" + location + "', " + why);
    };
    const fs::path relative(location);
    if (location.empty())
        return Diagnostic::error("tensor '" + tensor + "' keeps its values in an external file but names none");
    if (relative.is_absolute() || relative.has_root_name() || relative.has_root_directory())
        return refuse("an absolute path: external data must lie in the model's folder");
    for (const auto& part : relative)
        if (part == "..")
            return refuse("which leaves the model's folder ('..'): external data must lie in it");
    std::error_code ec;
    const fs::path folder = fs::weakly_canonical(m_folder.empty() ? fs::path(".") : m_folder, ec);
    const fs::path full = folder / relative;
    const fs::path resolved = fs::weakly_canonical(full, ec);
    if (ec || !inside(resolved, folder))
        return refuse("which leads out of the model's folder " + folder.string() + " (through a symbolic link)");
    if (!fs::exists(full, ec) && !fs::is_symlink(full, ec)) {
        m_files[location] = nullptr;
        return std::shared_ptr<const MappedFile>();
    }
    auto file = MappedFile::open(full);
    if (!file)
        return refuse("but " + file.error().message + " (" + full.string() + ")");
    return m_files[location] = std::move(*file);
}

std::optional<Diagnostic> ExternalData::read(const onnx::TensorProto& t, ConstTensor& c, Diagnostics* warnings)
{
    const std::string location = externalLocation(t);
    auto file = map(t.name(), location);
    if (!file)
        return file.error();
    if (!*file) {
        c.hasData = false;
        c.missingFile = location;
        if (warnings)
            warnings->push_back(
                Diagnostic::warning("tensor '" + t.name() + "' keeps its values in '" + location
                                    + "', which is missing (looked for in " + (m_folder / location).string()
                                    + "): the graph loads without them (it can be viewed and analysed, " + "not run)"));
        return std::nullopt;
    }
    const std::uint64_t size = (*file)->size();
    const std::string offsetText = entry(t, "offset"), lengthText = entry(t, "length");
    const auto offset = offsetText.empty() ? std::optional<std::uint64_t>(0) : parseSize(offsetText);
    if (!offset || *offset > size)
        return Diagnostic::error("tensor '" + t.name() + "': offset '" + offsetText + "' is not within '" + location
                                 + "' (" + std::to_string(size) + " bytes)");
    const auto length = lengthText.empty() ? std::optional<std::uint64_t>(size - *offset) : parseSize(lengthText);
    if (!length || *length > size - *offset)
        return Diagnostic::error("tensor '" + t.name() + "': offset " + std::to_string(*offset) + " + length '"
                                 + lengthText + "' runs past the end of '" + location + "' (" + std::to_string(size)
                                 + " bytes)");
    const std::uint8_t* begin = (*file)->data() + *offset;
    // The mapping is page-aligned, so any offset the writers use (onnx.save aligns to 4 KiB) gives an aligned view;
    // a tensor at an odd offset is copied so that the values are aligned for their type.
    if (reinterpret_cast<std::uintptr_t>(begin) % alignof(std::max_align_t) == 0)
        c.setShared(std::make_shared<const TensorBytes>(begin, static_cast<std::size_t>(*length), *file));
    else
        c.setBytes(std::vector<std::uint8_t>(begin, begin + *length));
    return std::nullopt;
}

} // namespace costscope::onnx_import
