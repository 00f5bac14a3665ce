// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"
#include "tensor.h"

#include <string>

namespace costscope {

// Reads a serialized ONNX TensorProto (the conformance suite's input_*.pb / output_*.pb files).
// Supports dims, data_type and the raw_data, float_data, int32_data, int64_data and double_data fields.
Result<HostTensor> parseTensorProto(const std::string& bytes);
Result<HostTensor> readTensorProtoFile(const std::string& path);
// Serializes a tensor as a TensorProto with raw_data (used to write references).
std::string serializeTensorProto(const HostTensor& t, const std::string& name = {});

// ONNX TensorProto.DataType numbers <-> DType; nullopt for types Costscope does not hold (strings).
std::optional<DType> dtypeFromOnnx(int onnxType);
int onnxFromDType(DType t);

} // namespace costscope
