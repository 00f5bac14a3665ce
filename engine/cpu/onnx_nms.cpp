// SPDX-License-Identifier: MIT
// ONNX NonMaxSuppression: per batch and class, boxes above score_threshold in falling score order (ties by index),
// each kept unless its IoU with a kept one exceeds iou_threshold, at most max_output_boxes_per_class of them.
#include "cpu/onnx_named_kernels.h"
#include "cpu/wide_values.h"

#include <algorithm>
#include <numeric>

namespace costscope::cpu {

namespace {
struct Box {
    double y1, x1, y2, x2;
};

Box corners(const double* b, bool centerPoint)
{
    if (centerPoint) // [x_center, y_center, width, height]
        return {b[1] - b[3] / 2, b[0] - b[2] / 2, b[1] + b[3] / 2, b[0] + b[2] / 2};
    return {std::min(b[0], b[2]), std::min(b[1], b[3]), std::max(b[0], b[2]), std::max(b[1], b[3])};
}

double iou(const Box& a, const Box& b)
{
    const double h = std::max(0.0, std::min(a.y2, b.y2) - std::max(a.y1, b.y1));
    const double w = std::max(0.0, std::min(a.x2, b.x2) - std::max(a.x1, b.x1));
    const double inter = h * w;
    const double uni = (a.y2 - a.y1) * (a.x2 - a.x1) + (b.y2 - b.y1) * (b.x2 - b.x1) - inter;
    return uni > 0 ? inter / uni : 0;
}

double optionalScalar(KernelContext& ctx, const Inputs& in, std::size_t slot, double dflt)
{
    const HostTensor* t = onnxInput(ctx, in, slot);
    return t && t->elements() ? toF64(ctx.pool, *t).values<double>()[0] : dflt;
}
} // namespace

KernelStatus runNonMaxSuppression(KernelContext& ctx, const Inputs& in, HostTensor& out)
{
    const HostTensor* boxesT = onnxInput(ctx, in, 0);
    const HostTensor* scoresT = onnxInput(ctx, in, 1);
    if (!boxesT || !scoresT || boxesT->rank() != 3 || boxesT->dim(2) != 4 || scoresT->rank() != 3
        || scoresT->dim(0) != boxesT->dim(0) || scoresT->dim(2) != boxesT->dim(1))
        return fail("NonMaxSuppression needs boxes [batch, n, 4] and scores [batch, classes, n]");
    const auto maxPerClass = static_cast<std::int64_t>(optionalScalar(ctx, in, 2, 0));
    const double iouThreshold = optionalScalar(ctx, in, 3, 0);
    const HostTensor* scoreThresholdT = onnxInput(ctx, in, 4);
    const double scoreThreshold = optionalScalar(ctx, in, 4, 0);
    const bool centerPoint = ctx.attrs().intOr("center_point_box", 0) != 0;
    const HostTensor boxes = toF64(ctx.pool, *boxesT), scores = toF64(ctx.pool, *scoresT);
    const std::int64_t batches = boxesT->dim(0), n = boxesT->dim(1), classes = scoresT->dim(1);
    std::vector<std::int64_t> selected;
    for (std::int64_t b = 0; b < batches; ++b)
        for (std::int64_t c = 0; c < classes; ++c) {
            const double* s = scores.values<double>().data() + (b * classes + c) * n;
            std::vector<std::int64_t> order;
            for (std::int64_t i = 0; i < n; ++i)
                if (!scoreThresholdT || s[i] > scoreThreshold)
                    order.push_back(i);
            std::stable_sort(order.begin(), order.end(), [&](auto x, auto y) { return s[x] > s[y]; });
            std::vector<Box> kept;
            for (std::int64_t i : order) {
                if (static_cast<std::int64_t>(kept.size()) >= maxPerClass)
                    break;
                const Box box = corners(boxes.values<double>().data() + (b * n + i) * 4, centerPoint);
                if (std::any_of(kept.begin(), kept.end(), [&](const Box& k) { return iou(k, box) > iouThreshold; }))
                    continue;
                kept.push_back(box);
                selected.insert(selected.end(), {b, c, i});
            }
        }
    out = HostTensor::fromBytes({static_cast<std::int64_t>(selected.size() / 3), 3}, DType::I64, selected.data(),
                                selected.size() * sizeof(std::int64_t));
    return ok();
}

} // namespace costscope::cpu
