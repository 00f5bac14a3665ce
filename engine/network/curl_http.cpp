// SPDX-License-Identifier: MIT
#include "network/network_impl.h"

#include <curl/curl.h>

#include <memory>
#include <mutex>

namespace costscope::network {

namespace {
std::size_t append(char* data, std::size_t size, std::size_t count, void* into)
{
    static_cast<std::string*>(into)->append(data, size * count);
    return size * count;
}
} // namespace

Result<HttpResponse> curlHttpRequest(const std::string& method, const std::string& url, const std::string& jsonBody,
                                     std::chrono::milliseconds timeout)
{
    static std::once_flag global;
    std::call_once(global, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), curl_easy_cleanup);
    if (!curl)
        return Diagnostic::error("libcurl could not be initialised");
    std::unique_ptr<curl_slist, void (*)(curl_slist*)> headers(
        curl_slist_append(curl_slist_append(nullptr, "Content-Type: application/json"), "Accept: application/json"),
        curl_slist_free_all);
    HttpResponse response;
    char error[CURL_ERROR_SIZE] = {};
    CURL* c = curl.get();
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method.c_str());
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
    if (method != "GET")
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, jsonBody.c_str());
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, append);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &response.body);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeout.count()));
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    // Ray's dashboard answers 500 to a request without one (it tells browsers from scripts by it).
    curl_easy_setopt(c, CURLOPT_USERAGENT, "costscope-cli/" COSTSCOPE_VERSION);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
    if (const CURLcode rc = curl_easy_perform(c); rc != CURLE_OK)
        return Diagnostic::error(method + ' ' + url + ": " + (error[0] ? error : curl_easy_strerror(rc)));
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &response.status);
    return response;
}

} // namespace costscope::network
