// SPDX-License-Identifier: MIT
#include "fleet/fleet_sweep.h"

#include <deque>
#include <map>
#include <thread>

namespace costscope {

namespace {
using Clock = std::chrono::steady_clock;
// Ray unreachable for this long ends the sweep (a job's own timeout is the manifest's).
constexpr auto kRayGoneAfter = std::chrono::seconds(60);

struct InFlight {
    std::size_t cell = 0;
    Clock::time_point submitted;
};

std::string tail(std::string text, std::size_t n = 400)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    return text.size() <= n ? text : "..." + text.substr(text.size() - n);
}
} // namespace

Result<nlohmann::ordered_json> runJsonFromLogs(const std::string& logs)
{
    // `run --json` prints one object, "{" and "}" on lines of their own; around it may be Ray's or the shell's lines.
    const std::size_t start = logs.rfind("\n{\n") != std::string::npos ? logs.rfind("\n{\n") + 1
                              : logs.rfind("{\n", 0) == 0              ? 0
                                                                       : std::string::npos;
    const std::size_t end = logs.rfind("\n}");
    if (start == std::string::npos || end == std::string::npos || end < start)
        return Diagnostic::error("no run JSON in the job's logs: " + tail(logs));
    try {
        return nlohmann::ordered_json::parse(logs.substr(start, end + 2 - start));
    } catch (const nlohmann::ordered_json::exception& e) {
        return Diagnostic::error(std::string("the run JSON in the job's logs does not parse: ") + e.what());
    }
}

Result<std::vector<SweepCellResult>> runFleetSweep(const RayJobsClient& ray, const SweepManifest& manifest,
                                                   const FleetSweepOptions& options)
{
    const std::vector<SweepCell> cells = manifest.cells();
    std::vector<SweepCellResult> results(cells.size());
    std::deque<std::size_t> waiting;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        results[i].cell = cells[i];
        waiting.push_back(i);
    }
    std::map<std::string, InFlight> inFlight;
    std::size_t finished = 0;
    auto lastAnswer = Clock::now();
    auto say = [&](const std::string& line) {
        if (options.onProgress)
            options.onProgress(line);
    };
    auto cellFinished = [&] {
        ++finished;
        if (options.onCellFinished)
            options.onCellFinished(finished, cells.size());
    };
    // A failed attempt: submitted again while retries are left, else the cell's final result.
    auto failedAttempt = [&](std::size_t i, const std::string& why) {
        SweepCellResult& r = results[i];
        r.error = why;
        if (r.attempts <= manifest.retries) {
            say("retrying " + r.jobs.back() + " (" + why.substr(0, 200) + ")");
            waiting.push_back(i);
        } else {
            cellFinished();
            say("failed " + r.cell.graph + " batch " + std::to_string(r.cell.batch) + " on " + r.cell.device + ": "
                + why.substr(0, 200));
        }
    };
    while (finished < cells.size()) {
        if (options.cancel && options.cancel->load()) {
            for (const auto& [id, job] : inFlight)
                ray.stop(id);
            return Diagnostic::error("cancelled; the jobs in flight were stopped");
        }
        while (!waiting.empty() && inFlight.size() < static_cast<std::size_t>(manifest.maxInFlight)) {
            const std::size_t i = waiting.front();
            waiting.pop_front();
            SweepCellResult& r = results[i];
            const std::string id = options.sweepId + '-' + std::to_string(i) + '-' + std::to_string(++r.attempts);
            r.jobs.push_back(id);
            auto submitted = ray.submit(sweepEntrypoint(manifest, r.cell), id);
            if (submitted)
                inFlight[id] = {i, Clock::now()};
            else
                failedAttempt(i, submitted.error().message);
        }
        std::this_thread::sleep_for(manifest.poll);
        for (auto it = inFlight.begin(); it != inFlight.end();) {
            const auto& [id, job] = *it;
            auto status = ray.status(id);
            if (!status) {
                if (Clock::now() - lastAnswer > kRayGoneAfter)
                    return Diagnostic::error(status.error().message + " (no answer for "
                                             + std::to_string(kRayGoneAfter.count()) + " s)");
                ++it;
                continue;
            }
            lastAnswer = Clock::now();
            const bool overdue = Clock::now() - job.submitted > manifest.jobTimeout;
            if (!status->finished() && !overdue) {
                ++it;
                continue;
            }
            const std::size_t i = job.cell;
            if (overdue && !status->finished()) {
                ray.stop(id);
                failedAttempt(i, id + ": no result within " + std::to_string(manifest.jobTimeout.count()) + " s");
            } else if (status->state != "SUCCEEDED") {
                auto logs = ray.logs(id);
                failedAttempt(i, id + ": " + status->state + (status->message.empty() ? "" : ": " + status->message)
                                     + (logs ? " | " + tail(*logs, 200) : ""));
            } else if (auto logs = ray.logs(id); !logs) {
                failedAttempt(i, logs.error().message);
            } else if (auto run = runJsonFromLogs(*logs); !run) {
                failedAttempt(i, id + ": " + run.error().message);
            } else {
                results[i].succeeded = true;
                results[i].run = std::move(*run);
                results[i].error.clear();
                cellFinished();
                say("done " + std::to_string(finished) + "/" + std::to_string(cells.size()) + ": " + id);
            }
            it = inFlight.erase(it);
        }
    }
    return results;
}

} // namespace costscope
