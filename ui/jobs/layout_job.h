// SPDX-License-Identifier: MIT
#pragma once
#include "layout/layered_layout.h"
#include <QFutureWatcher>
#include <QObject>
#include <atomic>
#include <memory>

namespace costscope {

// Runs layeredLayout on a worker thread. Starting a new layout cancels the running one; a result for an older
// request is dropped, so only the latest request ever reaches finished().
class LayoutJob : public QObject {
    Q_OBJECT
public:
    explicit LayoutJob(QObject* parent = nullptr);
    ~LayoutJob() override;
    void start(layout::LayoutInput input, std::shared_ptr<const layout::LayoutHint> hint);
    void cancel();

signals:
    void finished(std::shared_ptr<const costscope::layout::LayoutResult> result);

private:
    struct Run {
        std::shared_ptr<std::atomic<bool>> cancel;
        QFutureWatcher<std::shared_ptr<const layout::LayoutResult>>* watcher = nullptr;
    };
    Run m_current;
    quint64 m_generation = 0;
};

} // namespace costscope
