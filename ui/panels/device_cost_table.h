// SPDX-License-Identifier: MIT
#pragma once
#include "jobs/device_costs.h"
#include <QTableWidget>

namespace costscope {

// The selected node's cost on every device (one row per device), the cheapest device's row in bold.
class DeviceCostTable : public QTableWidget {
    Q_OBJECT
public:
    enum Column { Device, Total, Compute, Memory, Dispatch, Sync, ColumnCount };

    explicit DeviceCostTable(QWidget* parent = nullptr);
    void showNode(const DeviceCosts* costs, int nodeIndex);
    // The node's value in ns for a device and column as last shown, or nullopt; used by tests.
    std::optional<double> valueNs(const QString& device, Column column) const;
};

} // namespace costscope
