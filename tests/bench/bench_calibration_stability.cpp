// SPDX-License-Identifier: MIT
// Two calibrations of one idle device must predict alike (issue 20: every zoo graph within ±3 % of each other).
// usage: bench_calibration_stability PROFILE_A.json PROFILE_B.json [--batches 1,8]
// Prices every graph of the evaluation zoo at each batch under both profiles and prints the largest difference,
// the share within ±3 % and the graphs outside it. Exit 0 always (a benchmark, not a gate).
#include "analysis/costscope_cost_model.h"
#include "analysis/profile_io.h"
#include "zoo/model_zoo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace costscope;

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_calibration_stability PROFILE_A.json PROFILE_B.json [--batches 1,8]\n");
        return 2;
    }
    std::vector<std::int64_t> batches = {1, 8};
    if (argc >= 5 && std::string(argv[3]) == "--batches") {
        batches.clear();
        for (std::string s = argv[4]; !s.empty();) {
            const auto comma = s.find(',');
            batches.push_back(std::stoll(s.substr(0, comma)));
            s = comma == std::string::npos ? "" : s.substr(comma + 1);
        }
    }
    auto a = loadProfileFile(argv[1]), b = loadProfileFile(argv[2]);
    if (!a || !b) {
        std::fprintf(stderr, "%s\n", (!a ? a.error() : b.error()).message.c_str());
        return 3;
    }
    const CostscopeCostModel model;
    int within = 0, total = 0;
    double worst = 0;
    std::vector<std::string> outside;
    for (const ZooGraph& z : modelZoo())
        for (std::int64_t batch : batches) {
            const Graph g = z.build(batch);
            const double pa = model.estimate(g, *a).totalNs, pb = model.estimate(g, *b).totalNs;
            const double diff = pb / pa - 1;
            worst = std::max(worst, std::fabs(diff));
            ++total;
            if (std::fabs(diff) <= 0.03)
                ++within;
            else
                outside.push_back(z.name + " b" + std::to_string(batch) + " " + std::to_string(100 * diff) + " %");
        }
    std::printf("calibration stability: %d of %d zoo graphs within ±3 %% (%.0f %%), largest difference %.1f %%\n",
                within, total, 100.0 * within / std::max(total, 1), 100 * worst);
    for (const std::string& o : outside)
        std::printf("  outside: %s\n", o.c_str());
    return 0;
}
