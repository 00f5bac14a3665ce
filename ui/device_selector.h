// SPDX-License-Identifier: MIT
#pragma once
#include <QStringList>

class QComboBox;

namespace costscope {

// Fills the toolbar's device box with costDeviceGroups(): each group under a bold header that cannot be picked. The
// device chosen before stays chosen where it is still listed; otherwise "Cpu" (RLX's default) is.
void fillDeviceSelector(QComboBox* box);
// The device names a box lists, headers left out.
QStringList deviceNamesOf(const QComboBox* box);
bool isDeviceHeader(const QComboBox* box, int index);

} // namespace costscope
