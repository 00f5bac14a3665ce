// SPDX-License-Identifier: MIT
#pragma once
#include <QWidget>

namespace costscope {

class OverlayModel;

// The overlay's key: a log-scale gradient with the ends of the colour scale, or the swatches of a categorical mode
// (dominant term, sync points).
class LegendWidget : public QWidget {
    Q_OBJECT
public:
    explicit LegendWidget(QWidget* parent = nullptr);
    void setOverlay(const OverlayModel* overlay); // not owned
    QSize sizeHint() const override { return {360, 26}; }
    // What the key says, as text: "1.3 µs … 13.3 µs", "sync point | no sync point", "No cost overlay".
    QString text() const;
    // Repaints and refreshes the tooltip (the nodes' own range): call when the overlay changed.
    void refresh();

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    const OverlayModel* m_overlay = nullptr;
};

} // namespace costscope
