// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"

#include <chrono>
#include <string>

namespace costscope {

// Ray's Jobs REST API (the dashboard, http://HEAD:8265): submit a shell command as a job, ask its status, read its
// logs, stop it. No Python on this side.
class RayJobsClient {
public:
    explicit RayJobsClient(std::string baseUrl, std::chrono::milliseconds timeout = std::chrono::seconds(30));

    // POST /api/jobs/ with our own submission id (so that a retry is a new id and no job is counted twice).
    Result<std::string> submit(const std::string& entrypoint, const std::string& submissionId) const;
    struct Status {
        std::string state; // PENDING, RUNNING, STOPPED, SUCCEEDED, FAILED
        std::string message;
        bool finished() const { return state == "SUCCEEDED" || state == "FAILED" || state == "STOPPED"; }
    };
    Result<Status> status(const std::string& submissionId) const;    // GET /api/jobs/<id>
    Result<std::string> logs(const std::string& submissionId) const; // GET /api/jobs/<id>/logs
    Result<bool> stop(const std::string& submissionId) const;        // POST /api/jobs/<id>/stop

private:
    Result<std::string> call(const std::string& method, const std::string& path, const std::string& body) const;
    std::string m_base;
    std::chrono::milliseconds m_timeout;
};

} // namespace costscope
