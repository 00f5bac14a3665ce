// SPDX-License-Identifier: MIT
#include "fleet/ray_jobs.h"

#include "fleet/http_client.h"

#include <nlohmann/json.hpp>

namespace costscope {

namespace {
using Json = nlohmann::json;

Result<Json> parse(const std::string& text, const std::string& what)
{
    try {
        return Json::parse(text);
    } catch (const Json::exception& e) {
        return Diagnostic::error(what + ": the answer is not JSON (" + e.what() + ")");
    }
}
} // namespace

RayJobsClient::RayJobsClient(std::string baseUrl, std::chrono::milliseconds timeout)
    : m_base(std::move(baseUrl)), m_timeout(timeout)
{
    while (!m_base.empty() && m_base.back() == '/')
        m_base.pop_back();
}

Result<std::string> RayJobsClient::call(const std::string& method, const std::string& path,
                                        const std::string& body) const
{
    auto r = httpRequest(method, m_base + path, body, m_timeout);
    if (!r)
        return Diagnostic::error("Ray at " + m_base + ": " + r.error().message);
    if (r->status < 200 || r->status >= 300)
        return Diagnostic::error("Ray at " + m_base + ": " + method + ' ' + path + " answered HTTP "
                                 + std::to_string(r->status) + ": " + r->body.substr(0, 300));
    return r->body;
}

Result<std::string> RayJobsClient::submit(const std::string& entrypoint, const std::string& submissionId) const
{
    const Json body = {{"entrypoint", entrypoint},
                       {"submission_id", submissionId},
                       {"metadata", {{"submitted_by", "costscope-cli sweep-runs"}}}};
    auto r = call("POST", "/api/jobs/", body.dump());
    if (!r)
        return r.error();
    auto j = parse(*r, "POST /api/jobs/");
    if (!j)
        return j.error();
    return j->value("submission_id", submissionId);
}

Result<RayJobsClient::Status> RayJobsClient::status(const std::string& submissionId) const
{
    auto r = call("GET", "/api/jobs/" + submissionId, "");
    if (!r)
        return r.error();
    auto j = parse(*r, "GET /api/jobs/" + submissionId);
    if (!j)
        return j.error();
    const auto text = [&](const char* key) {
        return j->contains(key) && (*j)[key].is_string() ? (*j)[key].get<std::string>() : "";
    };
    return Status{text("status"), text("message")};
}

Result<std::string> RayJobsClient::logs(const std::string& submissionId) const
{
    auto r = call("GET", "/api/jobs/" + submissionId + "/logs", "");
    if (!r)
        return r.error();
    auto j = parse(*r, "GET /api/jobs/" + submissionId + "/logs");
    if (!j)
        return j.error();
    return j->value("logs", std::string());
}

Result<bool> RayJobsClient::stop(const std::string& submissionId) const
{
    auto r = call("POST", "/api/jobs/" + submissionId + "/stop", "{}");
    if (!r)
        return r.error();
    return true;
}

} // namespace costscope
