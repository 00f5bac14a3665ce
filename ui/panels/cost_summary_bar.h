// SPDX-License-Identifier: MIT
#pragma once
#include "jobs/device_costs.h"
#include <QWidget>

class QLabel;

namespace costscope {

// The slim bar under the canvas: total cost per device for the chosen model, the pick (lowest total among the
// devices the RLX version's rule ranks) and the IO profile of one forward pass.
class CostSummaryBar : public QWidget {
    Q_OBJECT
public:
    explicit CostSummaryBar(QWidget* parent = nullptr);
    void showCosts(const DeviceCosts* costs, const QString& currentDevice);
    // Whose pick rule picks (the window's RLX version); applies from the next showCosts().
    void setRlxVersion(RlxVersion version) { m_version = version; }

    QString pickText() const;
    QString ioText() const;
    QString totalsText() const;
    // The total shown for a device in ns, or nullopt when the bar has none; used by tests.
    std::optional<double> totalNs(const QString& device) const;

private:
    // One label: the toolbar sizes the bar once, so separate labels could not grow with their text.
    QLabel* m_label;
    QString m_pick;
    QString m_io;
    QString m_totals;
    std::vector<std::pair<QString, double>> m_shown;
    RlxVersion m_version = kDefaultRlxVersion;
};

} // namespace costscope
