// SPDX-License-Identifier: MIT
#pragma once
#include <QGraphicsView>

namespace costscope {

class CanvasView;

// The whole scene in a corner of the canvas, with the main view's area outlined; click or drag to move there.
class Minimap : public QGraphicsView {
    Q_OBJECT
public:
    explicit Minimap(CanvasView* main);
    void refit();

protected:
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void centreMainOn(const QPoint& pos);
    CanvasView* m_main;
};

} // namespace costscope
