// SPDX-License-Identifier: MIT
#pragma once
#include <QWidget>

namespace costscope {

class OverlayModel;

// The overlay's key: a log-scale gradient with its end values, or the dominant-term swatches.
class LegendWidget : public QWidget {
    Q_OBJECT
public:
    explicit LegendWidget(QWidget* parent = nullptr);
    void setOverlay(const OverlayModel* overlay); // not owned
    QSize sizeHint() const override { return {360, 26}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    const OverlayModel* m_overlay = nullptr;
};

} // namespace costscope
