// SPDX-License-Identifier: MIT
#include "first_contact.h"
#include "canvas/canvas_menu.h"
#include "canvas/canvas_view.h"
#include "canvas/empty_prompt.h"
#include "canvas/first_view.h"
#include "document_controller.h"
#include "graph_presenter.h"
#include "help_guide.h"
#include "recent_files.h"
#include <QAction>
#include <QMainWindow>

namespace costscope {

EmptyCanvasPrompt* installFirstContact(QMainWindow* window, GraphPresenter* presenter, DocumentController* documents)
{
    auto* prompt = new EmptyCanvasPrompt(presenter->views().canvas->viewport());
    auto refresh = [presenter, prompt] {
        prompt->setVisible(!presenter->graph());
        if (!presenter->graph())
            prompt->setRecentFiles(recentFiles());
    };
    refresh();
    QObject::connect(presenter->feed(), &OpenGraphFeed::graphChanged, prompt, refresh);
    QObject::connect(prompt, &EmptyCanvasPrompt::openRequested, window, [window] {
        if (auto* open = window->findChild<QAction*>(QStringLiteral("actionOpen")))
            open->trigger();
    });
    QObject::connect(prompt, &EmptyCanvasPrompt::recentChosen, documents, &DocumentController::openFile);
    QObject::connect(prompt, &EmptyCanvasPrompt::templateChosen, documents,
                     [documents](edit::GraphTemplate t) { documents->newGraph(t); });
    installCanvasMenu(window, presenter, documents);
    installFirstView(presenter, documents);
    addHelpActions(window);
    return prompt;
}

} // namespace costscope
