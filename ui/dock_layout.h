// SPDX-License-Identifier: MIT
#pragma once

class QMainWindow;

namespace costscope {

// The window's first arrangement (no saved state): every dock in one column on the right, full height, as one tab
// stack (Summary first and raised, then Properties, Bindings, Sweeps, Nodes, Top nodes, Roofline, Run and any other
// dock), so that the canvas keeps at least two thirds of the window at 1280×800 and wider. The column takes
// kColumnShare of the window's width (within kMinColumn..kMaxColumn px), set when the window is first shown.
void applyDefaultDockLayout(QMainWindow* window);

inline constexpr double kColumnShare = 0.22;
inline constexpr int kMinColumn = 260;
inline constexpr int kMaxColumn = 440;

} // namespace costscope
