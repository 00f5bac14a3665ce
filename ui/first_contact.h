// SPDX-License-Identifier: MIT
#pragma once

class QMainWindow;

namespace costscope {

class DocumentController;
class EmptyCanvasPrompt;
class GraphPresenter;

// What a new user meets: the empty-window prompt (shown while no graph is open), the empty canvas's right-click
// menu, the first view of an opened graph (fitted, on its costliest part), and Help's guide and shortcut list.
// Returns the prompt.
EmptyCanvasPrompt* installFirstContact(QMainWindow* window, GraphPresenter* presenter, DocumentController* documents);

} // namespace costscope
