// SPDX-License-Identifier: MIT
#include "analysis/dtype_rates_io.h"

namespace costscope {

namespace {

using Json = nlohmann::ordered_json;
using Problem = std::optional<std::pair<std::string, std::string>>;

std::string precisionList()
{
    std::string list;
    for (Precision p : kAllPrecisions)
        list += (list.empty() ? "" : ", ") + std::string(precisionName(p));
    return list;
}

Problem readPrecision(const std::string& key, const std::string& where, Precision& out)
{
    if (auto p = parsePrecision(key)) {
        out = *p;
        return std::nullopt;
    }
    return std::pair{where, "unknown precision '" + key + "': expected one of " + precisionList()};
}

Problem readPeaks(const Json& peaks, DTypeRates& out)
{
    if (!peaks.is_object())
        return std::pair{std::string("dtype_peaks"), std::string("expected an object {precision: {matrix_gflops, "
                                                                 "vector_gflops}}")};
    for (auto it = peaks.begin(); it != peaks.end(); ++it) {
        const std::string where = "dtype_peaks." + it.key();
        Precision prec{};
        if (auto problem = readPrecision(it.key(), where, prec))
            return problem;
        if (!it->is_object())
            return std::pair{where, std::string("expected an object {matrix_gflops, vector_gflops}")};
        PrecisionPeak peak;
        for (auto [key, dst] :
             {std::pair{"matrix_gflops", &peak.matrixGflops}, std::pair{"vector_gflops", &peak.vectorGflops}}) {
            auto v = it->find(key);
            if (v == it->end())
                continue;
            if (!v->is_number() || v->get<double>() < 0)
                return std::pair{where + "." + key, std::string("expected a number, 0 or more")};
            *dst = v->get<double>();
        }
        for (auto k = it->begin(); k != it->end(); ++k)
            if (k.key() != "matrix_gflops" && k.key() != "vector_gflops")
                return std::pair{where + "." + k.key(), std::string("unknown key")};
        out.peaks[prec] = peak;
    }
    return std::nullopt;
}

Problem readTables(const Json& tables, DTypeRates& out)
{
    if (!tables.is_object())
        return std::pair{std::string("dtype_gemm_tables"),
                         std::string("expected an object {precision: [{m,k,n,gflops}]}")};
    for (auto it = tables.begin(); it != tables.end(); ++it) {
        const std::string where = "dtype_gemm_tables." + it.key();
        Precision prec{};
        if (auto problem = readPrecision(it.key(), where, prec))
            return problem;
        if (!it->is_array())
            return std::pair{where, std::string("expected an array of {m,k,n,gflops}")};
        std::vector<PrecisionGemmPoint> points;
        for (std::size_t i = 0; i < it->size(); ++i) {
            const Json& e = (*it)[i];
            const std::string at = where + "[" + std::to_string(i) + "]";
            if (!e.is_object())
                return std::pair{at, std::string("expected an object {m,k,n,gflops}")};
            PrecisionGemmPoint s;
            for (auto [key, dst] : {std::pair{"m", &s.m}, std::pair{"k", &s.k}, std::pair{"n", &s.n}}) {
                auto v = e.find(key);
                if (v == e.end() || !v->is_number_integer() || v->get<std::int64_t>() <= 0)
                    return std::pair{at + "." + key, std::string("expected a positive integer")};
                *dst = v->get<std::int64_t>();
            }
            auto g = e.find("gflops");
            if (g == e.end() || !g->is_number() || g->get<double>() <= 0)
                return std::pair{at + ".gflops", std::string("expected a positive number")};
            s.gflops = g->get<double>();
            points.push_back(s);
        }
        out.gemmTables[prec] = std::move(points);
    }
    return std::nullopt;
}

} // namespace

void writeDTypeRates(const DTypeRates& r, Json& profile)
{
    if (!r.peaks.empty()) {
        Json peaks = Json::object();
        for (const auto& [prec, peak] : r.peaks)
            peaks[std::string(precisionName(prec))] = {{"matrix_gflops", peak.matrixGflops},
                                                       {"vector_gflops", peak.vectorGflops}};
        profile["dtype_peaks"] = peaks;
    }
    if (!r.gemmTables.empty()) {
        Json tables = Json::object();
        for (const auto& [prec, points] : r.gemmTables) {
            Json list = Json::array();
            for (const PrecisionGemmPoint& s : points)
                list.push_back({{"m", s.m}, {"k", s.k}, {"n", s.n}, {"gflops", s.gflops}});
            tables[std::string(precisionName(prec))] = list;
        }
        profile["dtype_gemm_tables"] = tables;
    }
}

Problem readDTypeRates(const Json& profile, DTypeRates& out)
{
    if (auto it = profile.find("dtype_peaks"); it != profile.end())
        if (auto problem = readPeaks(*it, out))
            return problem;
    if (auto it = profile.find("dtype_gemm_tables"); it != profile.end())
        if (auto problem = readTables(*it, out))
            return problem;
    return std::nullopt;
}

} // namespace costscope
