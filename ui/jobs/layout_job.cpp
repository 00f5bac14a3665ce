// SPDX-License-Identifier: MIT
#include "jobs/layout_job.h"

namespace costscope {

LayoutJob::LayoutJob(QObject* parent) : QObject(parent) {}

void LayoutJob::cancel()
{
    m_job.drop();
}

void LayoutJob::start(layout::LayoutInput input, std::shared_ptr<const layout::LayoutHint> hint)
{
    m_job.start(
        [input = std::move(input), hint = std::move(hint)](const JobContext& job) {
            return std::make_shared<const layout::LayoutResult>(
                layout::layeredLayout(input, hint.get(), job.cancelFlag()));
        },
        [this](std::shared_ptr<const layout::LayoutResult> result) {
            if (!result->cancelled)
                emit finished(std::move(result));
        });
}

} // namespace costscope
