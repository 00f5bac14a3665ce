// SPDX-License-Identifier: MIT
#include "multi_device_run.h"

#include "fused_group_prices.h"
#include "synthetic.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <latch>
#include <mutex>
#include <thread>

namespace costscope {

namespace {

// Hands the isolated phase from one device's thread to the next, in device order.
class Turns {
public:
    void wait(std::size_t i)
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_next == i; });
    }
    void pass()
    {
        {
            const std::lock_guard lock(m_mutex);
            ++m_next;
        }
        m_changed.notify_all();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::size_t m_next = 0;
};

// Runs `step`; a failure (an error or an exception) becomes the run's error, prefixed with the step's name.
template <typename Step>
bool guarded(DeviceRun& run, const char* what, Step&& step)
{
    std::string problem;
    try {
        auto r = step();
        if (r)
            return true;
        problem = r.error().message;
    } catch (const std::exception& e) {
        problem = e.what();
    } catch (...) {
        problem = "unknown exception";
    }
    if (run.error.empty())
        run.error = std::string(what) + ": " + problem;
    return false;
}

Result<std::unique_ptr<ExecutablePlan>> preparePlan(Backend& backend, const Graph& g, const Bindings& bindings,
                                                    DeviceIndex device, std::vector<HostTensor> inputs,
                                                    std::mutex& compileMutex)
{
    Result<std::unique_ptr<ExecutablePlan>> plan = Diagnostic::error("not compiled");
    {
        // Backend::compile promises nothing about concurrent calls: one at a time (compiling is not timed).
        const std::lock_guard lock(compileMutex);
        plan = backend.compile(g, bindings, device);
    }
    if (!plan)
        return plan.error();
    if (auto r = (*plan)->uploadParameters(); !r)
        return r.error();
    if (inputs.empty())
        for (const PlanInput& in : (*plan)->inputs())
            inputs.push_back(arangeInput(in.dims, in.dtype));
    if (auto r = (*plan)->setInputs(inputs); !r)
        return r.error();
    return plan;
}

} // namespace

std::vector<DeviceRun> runOnDevices(Backend& backend, const Graph& g, const Bindings& bindings,
                                    const std::vector<DeviceInfo>& devices, const std::vector<HostTensor>& inputs,
                                    const MultiDeviceRunOptions& options)
{
    std::vector<DeviceRun> runs(devices.size());
    MeasureOptions measureOptions = options.measure;
    measureOptions.progress = nullptr;
    const auto n = static_cast<std::ptrdiff_t>(devices.size());
    std::latch prepared(n), started(n);
    std::mutex compileMutex;
    Turns turns;
    auto timed = [&](ExecutablePlan& plan, std::optional<TimingStats>& into) -> Result<bool> {
        auto r = measure(plan, measureOptions);
        if (!r)
            return r.error();
        into = r->whole;
        return true;
    };
    // Every thread passes every latch and turn whatever fails, so that none waits for ever on a failed one.
    auto deviceThread = [&](std::size_t i) {
        DeviceRun& run = runs[i];
        run.device = devices[i];
        std::unique_ptr<ExecutablePlan> plan;
        guarded(run, "compile", [&]() -> Result<bool> {
            auto p = preparePlan(backend, g, bindings, devices[i].index, inputs, compileMutex);
            if (!p)
                return p.error();
            plan = std::move(*p);
            return true;
        });
        prepared.arrive_and_wait();
        turns.wait(i);
        if (plan)
            guarded(run, "isolated run", [&] { return timed(*plan, run.isolated); });
        turns.pass();
        if (options.concurrent) {
            started.arrive_and_wait();
            if (plan && run.isolated)
                guarded(run, "concurrent run", [&] { return timed(*plan, run.concurrent); });
        }
        if (options.kernels && plan && run.isolated)
            guarded(run, "instrumented run", [&]() -> Result<bool> {
                auto kernels = plan->runInstrumented();
                if (!kernels)
                    return kernels.error();
                run.fusedGroups = fusedGroupsOf(*kernels);
                return true;
            });
        plan.reset(); // on this thread, which owns the device's context
    };
    std::vector<std::jthread> threads;
    for (std::size_t i = 0; i < devices.size(); ++i)
        threads.emplace_back(deviceThread, i);
    threads.clear(); // joins
    return runs;
}

std::vector<ModelSpread> spreadByModel(const std::vector<DeviceRun>& runs)
{
    std::vector<ModelSpread> out;
    for (const DeviceRun& first : runs) {
        if (first.failed()
            || std::any_of(out.begin(), out.end(), [&](const ModelSpread& s) { return s.model == first.device.name; }))
            continue;
        ModelSpread s{first.device.name, 0, 0, std::nullopt};
        double isoMin = 0, isoMax = 0, conMin = 0, conMax = 0;
        bool allConcurrent = true;
        for (const DeviceRun& r : runs) {
            if (r.failed() || r.device.name != s.model)
                continue;
            const auto iso = double(r.isolated->medianNs);
            isoMin = s.devices == 0 ? iso : std::min(isoMin, iso);
            isoMax = s.devices == 0 ? iso : std::max(isoMax, iso);
            if (r.concurrent) {
                const auto con = double(r.concurrent->medianNs);
                conMin = conMin == 0 ? con : std::min(conMin, con);
                conMax = std::max(conMax, con);
            } else {
                allConcurrent = false;
            }
            ++s.devices;
        }
        s.isolated = isoMin > 0 ? isoMax / isoMin - 1 : 0;
        if (allConcurrent && conMin > 0)
            s.concurrent = conMax / conMin - 1;
        out.push_back(s);
    }
    return out;
}

} // namespace costscope
