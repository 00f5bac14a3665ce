// SPDX-License-Identifier: MIT
#pragma once

namespace costscope {

class MainWindow;
class SweepPanel;

// Adds the "Sweeps" dock beside the canvas and wires it to the window: the loaded graph, the toolbar's model and
// device, all of the window's bindings (the sweep's base), the canvas selection (highlight, "Fuse selection") and
// clicks that set the swept symbol's binding.
SweepPanel* installSweepDock(MainWindow* window);

} // namespace costscope
