// SPDX-License-Identifier: MIT
#pragma once

class QMainWindow;

namespace costscope {

class BindingsEditor;
class GraphScene;
class OpenGraphFeed;
class SweepPanel;

// Adds the "Sweeps" dock beside the canvas of `window` and wires it to the open graph: the graph, the settings'
// model and device, all of their bindings (the sweep's base), the canvas selection (highlight, "Fuse selection")
// and clicks that set the swept symbol's binding (batch, or a symbol `bindings` lists for the graph).
SweepPanel* installSweepDock(QMainWindow* window, OpenGraphFeed* feed, GraphScene* scene,
                             const BindingsEditor* bindings);

} // namespace costscope
