// SPDX-License-Identifier: MIT
#pragma once
#include "jobs/job_tracker.h"
#include "layout/layered_layout.h"
#include <QObject>
#include <memory>

namespace costscope {

// Runs layeredLayout on a worker thread. Starting a new layout cancels the running one; a result for an older
// request is dropped, so only the latest request ever reaches finished().
class LayoutJob : public QObject {
    Q_OBJECT
public:
    explicit LayoutJob(QObject* parent = nullptr);
    void start(layout::LayoutInput input, std::shared_ptr<const layout::LayoutHint> hint);
    void cancel();

signals:
    void finished(std::shared_ptr<const costscope::layout::LayoutResult> result);

private:
    JobTracker m_job;
};

} // namespace costscope
