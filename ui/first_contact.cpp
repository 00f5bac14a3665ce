// SPDX-License-Identifier: MIT
#include "first_contact.h"
#include "canvas/canvas_menu.h"
#include "canvas/canvas_view.h"
#include "canvas/empty_prompt.h"
#include "canvas/first_view.h"
#include "help_guide.h"
#include "main_window.h"
#include "model_explainer.h"
#include "recent_files.h"
#include <QAction>

namespace costscope {

EmptyCanvasPrompt* installFirstContact(MainWindow* window)
{
    auto* prompt = new EmptyCanvasPrompt(window->canvas()->viewport());
    auto refresh = [window, prompt] {
        prompt->setVisible(!window->graph());
        if (!window->graph())
            prompt->setRecentFiles(recentFiles());
    };
    refresh();
    QObject::connect(window->openGraph(), &OpenGraphFeed::graphChanged, prompt, refresh);
    QObject::connect(prompt, &EmptyCanvasPrompt::openRequested, window, [window] {
        if (auto* open = window->findChild<QAction*>(QStringLiteral("actionOpen")))
            open->trigger();
    });
    QObject::connect(prompt, &EmptyCanvasPrompt::recentChosen, window, &MainWindow::openFile);
    QObject::connect(prompt, &EmptyCanvasPrompt::templateChosen, window,
                     [window](edit::GraphTemplate t) { window->newGraph(t); });
    installCanvasMenu(window);
    installFirstView(window);
    addHelpActions(window);
    explainCostModels(window);
    return prompt;
}

} // namespace costscope
