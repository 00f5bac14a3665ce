// SPDX-License-Identifier: MIT
#pragma once

namespace costscope {

class EmptyCanvasPrompt;
class MainWindow;

// What a new user meets: the empty-window prompt (shown while no graph is open), the empty canvas's right-click
// menu, the first view of an opened graph (fitted, on its costliest part), Help's guide and shortcut list, and
// what the two cost models are.
// Returns the prompt.
EmptyCanvasPrompt* installFirstContact(MainWindow* window);

} // namespace costscope
