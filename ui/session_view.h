// SPDX-License-Identifier: MIT
#pragma once
#include "formats/costscope_document.h"

namespace costscope {

class MainWindow;

// What a saved .costscope document keeps of the window beside the analysis settings: the view (overlay, direction,
// parameters shown, zoom), the collapsed groups by path, and every shown node box's position.
void storeSessionView(const MainWindow& window, CostscopeDocument& doc);
// Puts the view and the collapsed groups back (the layout then gives the boxes the positions they were saved at).
// Keys the document lacks leave the window as it is.
// Returns whether it set the zoom (the window then does not fit the graph to the view).
bool restoreSessionView(MainWindow& window, const CostscopeDocument& doc);

} // namespace costscope
