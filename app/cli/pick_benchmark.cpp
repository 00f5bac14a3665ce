// SPDX-License-Identifier: MIT
#include "cli/pick_benchmark.h"
#include "formats/missing_tensor_data.h"

#include "measure.h"
#include "synthetic.h"

namespace costscope::cli {

namespace {
std::optional<std::string> backendFor(Device d)
{
    switch (d) {
    case Device::Cpu: return "cpu";
    case Device::Cuda: return "cuda";
    case Device::Vulkan: return "vulkan";
    default: return std::nullopt;
    }
}
} // namespace

struct LocalBenchmark::Plan {
    std::unique_ptr<Backend> backend;
    std::unique_ptr<ExecutablePlan> plan;
    bool warm = false;
};

LocalBenchmark::LocalBenchmark(const Graph& g, Bindings bindings) : m_graph(g), m_bindings(std::move(bindings)) {}

LocalBenchmark::~LocalBenchmark() = default;

std::optional<double> LocalBenchmark::run(Device d)
{
    if (m_failures.count(d))
        return std::nullopt;
    auto fail = [&](std::string why) -> std::optional<double> {
        m_plans.erase(d);
        m_failures[d] = std::move(why);
        return std::nullopt;
    };
    auto& slot = m_plans[d];
    if (!slot) {
        const auto name = backendFor(d);
        auto backend = name ? makeBackend(*name) : nullptr;
        if (!backend)
            return fail("no local backend for it in this build");
        if (backend->devices().empty())
            return fail("no " + *name + " device on this machine");
        if (const std::string missing = missingDataReason(m_graph); !missing.empty())
            return fail(missing);
        auto plan = backend->compile(m_graph, m_bindings, 0);
        if (!plan)
            return fail("does not compile: " + plan.error().message);
        if (auto up = (*plan)->uploadParameters(); !up)
            return fail("parameters: " + up.error().message);
        std::vector<HostTensor> inputs;
        for (const PlanInput& in : (*plan)->inputs())
            inputs.push_back(arangeInput(in.dims, in.dtype));
        if (auto set = (*plan)->setInputs(inputs); !set)
            return fail("inputs: " + set.error().message);
        slot = std::make_unique<Plan>(Plan{std::move(backend), std::move(*plan), false});
    }
    MeasureOptions once;
    once.warmupRuns = slot->warm ? 0 : 1;
    once.timedRuns = 1;
    auto result = measure(*slot->plan, once);
    if (!result)
        return fail("run failed: " + result.error().message);
    slot->warm = true;
    return static_cast<double>(result->whole.medianNs);
}

} // namespace costscope::cli
