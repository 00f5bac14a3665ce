// SPDX-License-Identifier: MIT
#pragma once
#include "layout/group_tree.h"
#include "canvas/node_item.h"
#include "canvas/overlay_model.h"

namespace costscope {

// What a node's box says: op label (or leaf name), key attributes, output shape.
NodeItem::Content nodeContent(const Graph& g, std::size_t index);
// A collapsed group's box: name, member count and the aggregate numbers once costs exist.
NodeItem::Content groupContent(const GroupTree::Group& group, const GroupAggregate& aggregate);
QString aggregateLine(const GroupAggregate& a);
QColor opClassColour(OpClass c);
QString keyAttributes(const Op& op, int maxEntries = 3);
QString edgeTooltip(const Graph& g, std::size_t sourceNode, int multiplicity);

} // namespace costscope
