// SPDX-License-Identifier: MIT
#pragma once
#include "formats/costscope_document.h"

class QComboBox;
class QObject;

namespace costscope {

class CanvasView;
class GraphScene;

// The parts of the window a document's view is read from and put back into.
struct SessionViewParts {
    QComboBox* overlaySelector = nullptr;
    const QObject* actions = nullptr; // holds the View menu's checkable actions, found by object name
    CanvasView* canvas = nullptr;
    GraphScene* scene = nullptr;
};

// What a saved .costscope document keeps of the window beside the analysis settings: the view (overlay, direction,
// parameters shown, zoom), the collapsed groups by path, and every shown node box's position.
void storeSessionView(const SessionViewParts& window, CostscopeDocument& doc);
// Puts the view and the collapsed groups back (the layout then gives the boxes the positions they were saved at).
// Keys the document lacks leave the window as it is.
// Returns whether it set the zoom (the window then does not fit the graph to the view).
bool restoreSessionView(const SessionViewParts& window, const CostscopeDocument& doc);

} // namespace costscope
