// SPDX-License-Identifier: MIT
#pragma once

#include "ir/diagnostic.h"

#include <chrono>
#include <string>

namespace costscope {

struct HttpResponse {
    long status = 0;
    std::string body;
};

// One HTTP request through libcurl, JSON in and out, never longer than `timeout` (connecting included). An error
// only when no answer came (refused, unreachable, timed out); an HTTP error status is an answer.
Result<HttpResponse> httpRequest(const std::string& method, const std::string& url, const std::string& jsonBody,
                                 std::chrono::milliseconds timeout);

} // namespace costscope
