// SPDX-License-Identifier: MIT
// cudnn_frontend is header-only; with NV_CUDNN_FRONTEND_USE_DYNAMIC_LOADING its shim calls cuDNN through dlsym on
// the handle below, which this file opens (libcudnn.so.9) the first time a plan asks for SDPA.
#include "cuda/cudnn_sdpa.h"

#include <cudnn_frontend.h>
#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <unordered_map>

// The frontend's shim reads this handle (declared extern in cudnn_frontend_shim.h); set once, by cudnnLoadError.
namespace cudnn_frontend {
void* cudnn_dlhandle = nullptr;
} // namespace cudnn_frontend

namespace costscope::cuda {

namespace fe = cudnn_frontend;

namespace {
enum Uid : std::int64_t { kQ = 1, kK, kV, kO, kBias };

// Messages of cuDNN can run over lines: the first, within a label's length.
std::string shortReason(const std::string& message)
{
    std::string s = message.substr(0, message.find('\n'));
    return s.size() > 100 ? s.substr(0, 97) + "..." : s;
}

// Opens libcudnn once per process; empty when it is there, else why not.
const std::string& cudnnLoadError()
{
    static const std::string error = []() -> std::string {
        // The shim also opens the CUDA runtime by name, libcudart.so.12 before .13: name the one this plugin links.
        setenv("CUDNN_FRONTEND_CUDART_LIB_NAME", ("libcudart.so." + std::to_string(CUDART_VERSION / 1000)).c_str(), 0);
        std::string tried;
        for (const char* name : {"libcudnn.so.9",
#ifdef COSTSCOPE_CUDNN_LIBRARY_DIR
                                 COSTSCOPE_CUDNN_LIBRARY_DIR "/libcudnn.so.9"
#endif
             }) {
            if (void* h = dlopen(name, RTLD_NOW | RTLD_LOCAL)) {
                fe::cudnn_dlhandle = h;
                break;
            }
            const char* why = dlerror();
            tried += std::string(tried.empty() ? "" : "; ") + (why ? why : name);
        }
        if (!fe::cudnn_dlhandle)
            return "libcudnn.so.9 not found (" + tried + ")";
        auto version = reinterpret_cast<std::size_t (*)()>(dlsym(fe::cudnn_dlhandle, "cudnnGetVersion"));
        if (!version)
            return "libcudnn.so.9 has no cudnnGetVersion";
        if (const std::size_t v = version(); v < 90000)
            return "cuDNN " + std::to_string(v) + " is older than 9";
        return {};
    }();
    return error;
}

struct SdpaGraph {
    std::shared_ptr<fe::graph::Graph> graph;
    void* workspace = nullptr;
};

// A plan's cuDNN handle and graphs (CudaPlan::cudnnState), and the configs cuDNN refused with why. The graphs go
// before the handle they were built with.
struct CudnnState {
    cudnnHandle_t handle = nullptr;
    std::string error; // why there is no handle
    std::map<std::string, std::unique_ptr<SdpaGraph>> built;
    std::map<std::string, std::string> refused;
    CudnnState() = default;
    CudnnState(const CudnnState&) = delete;
    CudnnState& operator=(const CudnnState&) = delete;
    ~CudnnState()
    {
        built.clear();
        if (handle)
            fe::detail::destroy_handle(handle);
    }
};

Result<std::shared_ptr<CudnnState>> stateOf(CudaPlan& plan)
{
    if (!plan.cudnnState()) { // the plan's first candidate: one attempt per plan
        auto state = std::make_shared<CudnnState>();
        state->error = cudnnLoadError();
        if (state->error.empty())
            if (cudnnStatus_t s = fe::detail::create_handle(&state->handle); s != CUDNN_STATUS_SUCCESS) {
                state->handle = nullptr;
                state->error = "cudnnCreate failed (status " + std::to_string(int(s)) + ")";
            }
        plan.cudnnState() = state;
    }
    auto state = std::static_pointer_cast<CudnnState>(plan.cudnnState());
    if (!state->handle)
        return Diagnostic::error(state->error);
    return state;
}

std::vector<std::int64_t> vec(const SdpaConfig::Dims4& d)
{
    return {d[0], d[1], d[2], d[3]};
}

// The SDPA graph of `c`, with its execution plan built (cuDNN's heuristics' first choice that supports it).
Result<std::shared_ptr<fe::graph::Graph>> buildGraph(cudnnHandle_t handle, const SdpaConfig& c)
{
    auto g = std::make_shared<fe::graph::Graph>();
    const auto io = c.bf16 ? fe::DataType_t::BFLOAT16 : fe::DataType_t::HALF;
    g->set_io_data_type(io)
        .set_intermediate_data_type(fe::DataType_t::FLOAT)
        .set_compute_data_type(fe::DataType_t::FLOAT);
    auto tensor = [&](const char* name, Uid uid, const std::vector<std::int64_t>& dims,
                      const std::vector<std::int64_t>& strides) {
        return g->tensor(fe::graph::Tensor_attributes().set_name(name).set_uid(uid).set_dim(dims).set_stride(strides));
    };
    const std::vector<std::int64_t> qDims = {c.batch, c.heads, c.sq, c.headDim};
    const std::vector<std::int64_t> kvDims = {c.batch, c.kvHeads, c.sk, c.headDim};
    auto q = tensor("Q", kQ, qDims, vec(c.qStrides));
    auto k = tensor("K", kK, kvDims, vec(c.kvStrides));
    auto v = tensor("V", kV, kvDims, vec(c.kvStrides));
    auto options = fe::graph::SDPA_attributes().set_name("sdpa").set_generate_stats(false).set_attn_scale(c.scale);
    if (c.causal) {
        // Our causal diagonal ends at the last key (bottom right); at sq == sk that is the top-left one too, which
        // more of cuDNN's engines take.
        options.set_diagonal_alignment(c.sq == c.sk ? fe::DiagonalAlignment_t::TOP_LEFT
                                                    : fe::DiagonalAlignment_t::BOTTOM_RIGHT);
        options.set_diagonal_band_right_bound(0);
        if (c.window > 0)
            options.set_diagonal_band_left_bound(static_cast<int>(c.window));
    }
    if (c.bias) {
        auto bias = tensor("bias", kBias, vec(c.biasDims), vec(c.biasStrides));
        bias->set_data_type(io);
        options.set_bias(bias);
    }
    auto [o, stats] = g->sdpa(q, k, v, options);
    o->set_output(true).set_dim(qDims).set_stride(vec(c.oStrides)).set_uid(kO);
    if (auto status = g->build(handle, {fe::HeurMode_t::A}); status.is_bad())
        return Diagnostic::error("cuDNN: " + shortReason(status.get_message()));
    return g;
}

// Runs the graph once on the plan's stream, then captures it once into a graph that is thrown away: cuDNN's engines
// run inside the plan's CUDA graph only where both work.
Result<bool> tryRun(CudaPlan& plan, cudnnHandle_t handle, SdpaGraph& g, std::unordered_map<std::int64_t, void*>& pack)
{
    cudaStream_t stream = plan.stream();
    fe::detail::set_stream(handle, stream);
    if (auto status = g.graph->execute(handle, pack, g.workspace); status.is_bad())
        return Diagnostic::error("cuDNN: " + shortReason(status.get_message()));
    if (cudaError_t e = cudaStreamSynchronize(stream); e != cudaSuccess)
        return Diagnostic::error("cuDNN's SDPA failed: " + cudaErrorText(e));
    if (cudaError_t e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal); e != cudaSuccess)
        return Diagnostic::error("cannot capture a CUDA graph: " + cudaErrorText(e));
    auto status = g.graph->execute(handle, pack, g.workspace);
    cudaGraph_t captured = nullptr;
    const cudaError_t e = cudaStreamEndCapture(stream, &captured);
    if (captured)
        cudaGraphDestroy(captured);
    if (status.is_bad() || e != cudaSuccess) {
        cudaGetLastError();
        return Diagnostic::error("cuDNN's SDPA does not capture into a CUDA graph ("
                                 + (status.is_bad() ? shortReason(status.get_message()) : cudaErrorText(e)) + ")");
    }
    return true;
}
} // namespace

Result<Launch> cudnnSdpaLaunch(CudaPlan& plan, const SdpaConfig& c, const AttentionArgs& a, std::size_t node)
{
    // The frontend throws where a symbol is missing from the loaded libcudnn: a refusal like any other.
    try {
        auto state = stateOf(plan);
        if (!state)
            return state.error();
        CudnnState& s = **state;
        const std::string key = c.key();
        if (auto it = s.refused.find(key); it != s.refused.end())
            return Diagnostic::error(it->second);
        std::unordered_map<std::int64_t, void*> pack = {
            {kQ, const_cast<float*>(a.q)}, {kK, const_cast<float*>(a.k)}, {kV, const_cast<float*>(a.v)}, {kO, a.out}};
        if (c.bias)
            pack[kBias] = const_cast<void*>(a.maskData);
        auto it = s.built.find(key);
        if (it == s.built.end()) {
            auto refuse = [&](const Diagnostic& d) {
                s.refused[key] = d.message;
                return d;
            };
            auto graph = buildGraph(s.handle, c);
            if (!graph)
                return refuse(graph.error());
            auto entry = std::make_unique<SdpaGraph>();
            entry->graph = *graph;
            std::int64_t bytes = 0;
            if (auto status = entry->graph->get_workspace_size(bytes); status.is_bad())
                return refuse(Diagnostic::error("cuDNN: " + shortReason(status.get_message())));
            auto workspace = plan.allocate(static_cast<std::size_t>(bytes), node);
            if (!workspace)
                return workspace.error();
            entry->workspace = *workspace;
            if (auto ran = tryRun(plan, s.handle, *entry, pack); !ran)
                return refuse(ran.error());
            it = s.built.emplace(key, std::move(entry)).first;
        }
        const SdpaGraph* g = it->second.get();
        return Launch([state = *state, g, pack](cudaStream_t stream) mutable {
            fe::detail::set_stream(state->handle, stream);
            // A launch has no error path (the plan's run reports the stream's error); tryRun ran this graph at
            // compile time, so neither a status nor an exception is expected here.
            try {
                static_cast<void>(g->graph->execute(state->handle, pack, g->workspace));
            } catch (const std::exception&) {
            }
        });
    } catch (const std::exception& e) {
        return Diagnostic::error("cuDNN: " + shortReason(e.what()));
    }
}

} // namespace costscope::cuda
