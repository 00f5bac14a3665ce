// SPDX-License-Identifier: MIT
#pragma once
#include "ir/graph.h"
#include <QWidget>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;

namespace costscope {

// Finds nodes by name, op or regular expression; next/previous step through the matches in graph order. The default,
// "Name or op", finds "Softmax" whether the user thinks of a node by what it is called or by what it does.
class SearchBar : public QWidget {
    Q_OBJECT
public:
    enum class Mode { NameOrOp, Name, Op, Regex };
    explicit SearchBar(QWidget* parent = nullptr);
    void setGraph(const Graph* graph); // not owned
    void setQuery(const QString& text, Mode mode);
    const std::vector<NodeId>& matches() const { return m_matches; } // in graph order
    QLineEdit* edit() const { return m_edit; }
    Mode mode() const;

public slots:
    // Focuses the text field with its text selected, ready to type over (Ctrl+F).
    void focusSearch();
    void next();
    void previous();

signals:
    void nodeFound(costscope::NodeId id);

private:
    void update();
    void step(int delta);
    const Graph* m_graph = nullptr;
    QLineEdit* m_edit;
    QComboBox* m_mode;
    QLabel* m_status;
    std::vector<NodeId> m_matches;
    int m_current = -1;
};

} // namespace costscope
