// SPDX-License-Identifier: MIT
#pragma once

#include "formats/onnx_tensors.h"

#include <filesystem>
#include <map>
#include <memory>

namespace costscope::onnx_import {

class MappedFile;

// Reads the values of tensors that a model keeps in files beside it (TensorProto data_location EXTERNAL, keys
// location, offset, length). Each file is memory-mapped once per import and unmapped when the reader goes. A
// location that leaves the model's folder (absolute, "..", a symlink pointing out) is an error naming the tensor
// and the path; a missing file leaves the tensor without data, with a warning, so that the graph can still be
// viewed and analysed (ConstTensor::missingFile names it for whoever must run it). Values are not copied: the
// tensors view the mapping (only a tensor at an offset too odd for its element type is copied out).
class ExternalData {
public:
    explicit ExternalData(std::filesystem::path modelFolder);
    ~ExternalData();
    ExternalData(const ExternalData&) = delete;
    ExternalData& operator=(const ExternalData&) = delete;

    // Fills c's bytes (c.shape already holds the tensor's shape), or marks c as missing its file.
    std::optional<Diagnostic> read(const onnx::TensorProto& t, ConstTensor& c, Diagnostics* warnings);

private:
    Result<std::shared_ptr<const MappedFile>> map(const std::string& tensor, const std::string& location);

    std::filesystem::path m_folder;
    // By location; null for a missing file. Tensors read from a file share its mapping, which lives as long as the
    // last of them.
    std::map<std::string, std::shared_ptr<const MappedFile>> m_files;
};

// The location key of an external tensor ("" when it has none).
std::string externalLocation(const onnx::TensorProto& t);

} // namespace costscope::onnx_import
