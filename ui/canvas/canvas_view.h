// SPDX-License-Identifier: MIT
#pragma once
#include <QGraphicsView>

class QMenu;
class QVariantAnimation;

namespace costscope {

class Minimap;

// The main view on the graph: wheel zoom around the cursor, +/-/0 keys, drag to pan, fit, and a minimap in
// the bottom-right corner.
class CanvasView : public QGraphicsView {
    Q_OBJECT
public:
    explicit CanvasView(QGraphicsScene* scene, QWidget* parent = nullptr);
    void zoomBy(double factor);
    void fitAll();
    // Whether the view still shows what fitAll() showed: no zoom since (panning a fitted view changes nothing).
    bool isFitted() const { return m_fitted; }
    double zoom() const { return transform().m11(); }
    void setMinimapVisible(bool visible);
    Minimap* minimap() const { return m_minimap; }
    // Brings an item into view at a readable zoom (zooming in when the view is far out), centred, and rings it
    // with a fading pulse: what a jump (Ctrl+J) shows, so that it is seen even when the item was already on screen.
    void reveal(const QGraphicsItem* item);
    // Brings a scene rectangle into view, centred; one taller or wider than the view shows its start (top or left).
    void showSceneRect(const QRectF& rect);
    // The scene rectangle the pulse rings while it is visible; empty otherwise.
    QRectF pulseRect() const { return m_pulseStrength > 0 ? m_pulseRect : QRectF(); }

signals:
    void viewChanged();
    // The view was resized: the room it has for the scene, without scroll bars, in pixels.
    void viewportResized(QSizeF room);
    // An op dragged from the palette was dropped at scenePos (the window looks up the node under it).
    void opDropped(const QByteArray& opName, QPointF scenePos);
    // A local file was dropped on the canvas: the window opens it.
    void fileDropped(const QString& path);
    // A right click on empty canvas (no box under it): listeners fill `menu`, which then opens there.
    void backgroundContextMenu(QMenu* menu, QPointF scenePos);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void placeMinimap();
    void updateMinimapVisibility();
    Minimap* m_minimap;
    bool m_minimapEnabled = true;
    bool m_fitted = false;
    QRectF m_pulseRect;
    double m_pulseStrength = 0; // 1 when the pulse starts, 0 once it faded
    QVariantAnimation* m_pulse = nullptr;
};

} // namespace costscope
