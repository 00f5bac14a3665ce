// SPDX-License-Identifier: MIT
#include "cuda/fused_codegen.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace costscope::cuda {

namespace {
const char* typeName(ElemType t)
{
    switch (t) {
    case ElemType::F32:
        return "float";
    case ElemType::F64:
        return "double";
    case ElemType::I64:
        return "long long";
    case ElemType::I32:
        return "int";
    case ElemType::U8:
        return "unsigned char";
    case ElemType::F16:
    case ElemType::BF16:
        return "unsigned short"; // the bits; elementwise_ops.cuh converts them
    }
    return "float";
}

bool isSixteenBit(ElemType t)
{
    return t == ElemType::F16 || t == ElemType::BF16;
}

// `element` (an expression of type t) as a float.
std::string asFloat(ElemType t, const std::string& element)
{
    if (t == ElemType::F16)
        return "halfBitsToFloat(" + element + ")";
    if (t == ElemType::BF16)
        return "bf16BitsToFloat(" + element + ")";
    return "float(" + element + ")";
}

// A float expression stored as t's bits (F32 as it is).
std::string stored(ElemType t, const std::string& value)
{
    if (t == ElemType::F16)
        return "floatToHalfBitsRn(" + value + ")";
    if (t == ElemType::BF16)
        return "floatToBf16BitsRn(" + value + ")";
    return value;
}

// A float constant bit for bit (no decimal round trip; infinities and NaNs too).
std::string floatBits(float f)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    return "__int_as_float(" + std::to_string(static_cast<std::int32_t>(bits)) + ")";
}

std::string reg(int r, const std::string& lane)
{
    std::string name = "r";
    name += std::to_string(r);
    name += lane;
    return name;
}

// Aligned for four elements of t at once (a float4, or a uint2 of four 16-bit values).
bool isAligned(const void* p, ElemType t)
{
    return reinterpret_cast<std::uintptr_t>(p) % (isSixteenBit(t) ? 8 : 16) == 0;
}

int vectorWidth(const FusedElementwiseArgs& a)
{
    if (a.rank < 1 || a.dims[a.rank - 1] % 4 != 0 || !isAligned(a.out, a.outType))
        return 1;
    for (int k = 0; k < a.inputs; ++k) {
        const std::int64_t s = a.strides[k][a.rank - 1];
        if (s != 0 && s != 1)
            return 1;
    }
    return 4;
}

// Lane `lane` of input k: a float4 component, a 16-bit half of a uint2 component, the broadcast scalar, or a scalar
// load at offset + lane.
std::string inputValue(const FusedElementwiseArgs& a, int k, int vector, int lane, bool wide)
{
    static const char* components[] = {".x", ".y", ".z", ".w"};
    const std::string n = std::to_string(k);
    if (vector == 1 || a.strides[k][a.rank - 1] == 0)
        return "v" + n;
    if (wide && isSixteenBit(a.inType[k]))
        return asFloat(a.inType[k], std::string("(unsigned short)(v") + n + components[lane / 2]
                                        + (lane % 2 ? " >> 16)" : " & 0xffffu)"));
    if (wide)
        return "v" + n + components[lane];
    return asFloat(a.inType[k], "in" + n + "[o" + n + " + " + std::to_string(lane) + "]");
}

// The ops of the program for one output element, ending with `target = <last register>;`.
void emitProgram(const FusedElementwiseArgs& a, const std::string& lane, const std::string& target,
                 const std::vector<std::string>& inputs, std::string& src)
{
    src += "        {\n";
    for (int k = 0; k < a.inputs; ++k)
        src += "            const float " + reg(k, lane) + " = " + inputs[std::size_t(k)] + ";\n";
    for (int j = 0; j < a.ops; ++j) {
        const FusedOp& op = a.code[j];
        src += "            const float " + reg(a.inputs + j, lane) + " = ";
        if (op.isBinary) {
            src += "binaryOp(static_cast<BinaryOp>(" + std::to_string(int(op.binary)) + "), " + reg(op.a, lane) + ", "
                   + reg(op.b, lane) + ");\n";
        } else {
            const ActArgs& p = op.act;
            src += "activation(ActArgs{static_cast<ActOp>(" + std::to_string(int(p.op)) + "), " + floatBits(p.alpha)
                   + ", " + floatBits(p.beta) + ", " + floatBits(p.gamma) + ", " + floatBits(p.bias) + ", "
                   + floatBits(p.lambd) + "}, " + reg(op.a, lane) + ");\n";
        }
    }
    src += "            " + target + " = " + reg(a.inputs + a.ops - 1, lane) + ";\n        }\n";
}
} // namespace

FusedSource fusedElementwiseSource(const FusedElementwiseArgs& a)
{
    FusedSource out;
    out.vector = vectorWidth(a);
    out.threads = (a.count + out.vector - 1) / out.vector;
    const char* index = a.count < (std::int64_t(1) << 31) ? "int" : "long long";
    const std::string idx = index;
    std::string& src = out.code;
    src = "#include \"cuda/elementwise_ops.cuh\"\nnamespace costscope::cuda {\n";
    src += "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kFusedThreads) + ") " + kFusedKernelName
           + "(";
    for (int k = 0; k < a.inputs; ++k)
        src += std::string("const ") + typeName(a.inType[k]) + "* __restrict__ in" + std::to_string(k) + ", ";
    src += std::string(typeName(a.outType)) + "* __restrict__ out)\n{\n";
    src += "    const " + idx + " threads = " + std::to_string(out.threads) + ";\n";
    src += "    for (" + idx + " t = blockIdx.x * " + idx + "(blockDim.x) + threadIdx.x; t < threads; t += " + idx
           + "(gridDim.x) * blockDim.x) {\n";
    src += "        const " + idx + " i = t * " + std::to_string(out.vector) + ";\n";
    // Input offsets from the output index, innermost dim first; dims an input does not walk cost nothing.
    for (int k = 0; k < a.inputs; ++k)
        src += "        " + idx + " o" + std::to_string(k) + " = 0;\n";
    src += "        {\n            " + idx + " rem = i;\n";
    for (int d = a.rank - 1; d >= 0; --d) {
        const std::string extent = std::to_string(a.dims[d]);
        if (d > 0)
            src += "            const " + idx + " q" + std::to_string(d) + " = rem / " + extent + ";\n"
                   + "            const " + idx + " d" + std::to_string(d) + " = rem - q" + std::to_string(d) + " * "
                   + extent + ";\n            rem = q" + std::to_string(d) + ";\n";
        else
            src += "            const " + idx + " d0 = rem;\n";
        for (int k = 0; k < a.inputs; ++k)
            if (a.strides[k][d] != 0)
                src += "            o" + std::to_string(k) + " += d" + std::to_string(d) + " * "
                       + std::to_string(a.strides[k][d]) + ";\n";
    }
    src += "        }\n";
    // Loads first, all of them, so that they are in flight together.
    std::vector<bool> wide(std::size_t(a.inputs), false);
    for (int k = 0; k < a.inputs; ++k) {
        const std::string n = std::to_string(k);
        const bool dense = out.vector > 1 && a.strides[k][a.rank - 1] == 1;
        const bool sixteen = isSixteenBit(a.inType[k]);
        wide[std::size_t(k)] = dense && (a.inType[k] == ElemType::F32 || sixteen) && isAligned(a.in[k], a.inType[k]);
        const std::string vectorType = sixteen ? "uint2" : "float4";
        if (wide[std::size_t(k)])
            src += "        const " + vectorType + " v" + n + " = __ldg(reinterpret_cast<const " + vectorType + "*>(in"
                   + n + " + o" + n + "));\n";
        else if (!dense)
            src += "        const float v" + n + " = " + asFloat(a.inType[k], "in" + n + "[o" + n + "]") + ";\n";
    }
    if (out.vector == 1) {
        std::vector<std::string> inputs;
        for (int k = 0; k < a.inputs; ++k)
            inputs.push_back(inputValue(a, k, 1, 0, false));
        src += "        float result;\n";
        emitProgram(a, "", "result", inputs, src);
        src += "        out[i] = " + stored(a.outType, "result") + ";\n";
    } else {
        static const char* components[] = {"x", "y", "z", "w"};
        src += "        float4 result;\n";
        for (int lane = 0; lane < 4; ++lane) {
            std::vector<std::string> inputs;
            for (int k = 0; k < a.inputs; ++k)
                inputs.push_back(inputValue(a, k, out.vector, lane, wide[std::size_t(k)]));
            emitProgram(a, std::string("_") + components[lane], std::string("result.") + components[lane], inputs, src);
        }
        if (isSixteenBit(a.outType)) {
            auto bits = [&](const char* c) {
                return "unsigned(" + stored(a.outType, std::string("result.") + c) + ")";
            };
            src += "        *reinterpret_cast<uint2*>(out + i) = uint2{" + bits("x") + " | (" + bits("y") + " << 16), "
                   + bits("z") + " | (" + bits("w") + " << 16)};\n";
        } else {
            src += "        *reinterpret_cast<float4*>(out + i) = result;\n";
        }
    }
    src += "    }\n}\n} // namespace costscope::cuda\n";
    return out;
}

} // namespace costscope::cuda
