// SPDX-License-Identifier: MIT
// Folding a long layered drawing into side-by-side columns, as text wraps into lines: a transformer or a CNN is a
// chain of a few hundred layers only a few nodes wide, so drawn in one strip it fits a window at a zoom where no
// label can be read (gpt2 with 125 nodes: 1 200 x 8 600, zoom 0.08 at 1280x800). Cut into bands of consecutive
// layers placed left to right, the same drawing fills the window's shape. Cuts go where the fewest edges cross;
// such an edge leaves its column at the bottom, runs up the gutter and enters the next column from the top.
#include "layout/layout_steps.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace costscope::layout::detail {

namespace {

Point swapped(Point p)
{
    return {p.y, p.x};
}

void transpose(LayoutResult& r)
{
    for (Point& c : r.centers)
        c = swapped(c);
    for (auto& route : r.routes)
        for (Point& p : route)
            p = swapped(p);
    std::swap(r.width, r.height);
}

struct Band {
    int firstLayer = 0;
    int lastLayer = 0;
    double top = 0, bottom = 0; // along the layers
    double left = std::numeric_limits<double>::max(), right = std::numeric_limits<double>::lowest();
    double x = 0; // where the column's left edge goes
};

class Wrapper {
public:
    Wrapper(LayoutResult& r, const LayoutInput& in, double gutter) : m_r(r), m_in(in), m_gutter(gutter)
    {
        const auto layers = static_cast<std::size_t>(r.layerCount);
        m_layerTop.assign(layers, std::numeric_limits<double>::max());
        m_layerBottom.assign(layers, std::numeric_limits<double>::lowest());
        for (std::size_t v = 0; v < r.centers.size(); ++v) {
            const auto l = static_cast<std::size_t>(r.layers[v]);
            const double half = nodeHeight(v) / 2;
            m_layerTop[l] = std::min(m_layerTop[l], r.centers[v].y - half);
            m_layerBottom[l] = std::max(m_layerBottom[l], r.centers[v].y + half);
        }
        for (std::size_t l = 0; l < layers; ++l)
            if (m_layerTop[l] > m_layerBottom[l]) // no real node (cannot happen: empty layers are removed)
                m_layerTop[l] = m_layerBottom[l] = l > 0 ? m_layerBottom[l - 1] : 0;
        // Each layer's extent across (its boxes and the edges through it), so that a fold of k bands costs O(layers).
        m_layerLeft.assign(layers, std::numeric_limits<double>::max());
        m_layerRight.assign(layers, std::numeric_limits<double>::lowest());
        for (std::size_t v = 0; v < r.centers.size(); ++v) {
            const auto l = static_cast<std::size_t>(r.layers[v]);
            m_layerLeft[l] = std::min(m_layerLeft[l], r.centers[v].x - nodeWidth(v) / 2);
            m_layerRight[l] = std::max(m_layerRight[l], r.centers[v].x + nodeWidth(v) / 2);
        }
        // Edges crossing the cut below each layer: a cut with few of them makes a drawing with few gutter runs.
        m_crossing.assign(layers, 0);
        for (const auto& route : r.routes)
            for (std::size_t k = 0; k < route.size(); ++k) {
                const int here = layerOf(route[k].y);
                m_layerLeft[static_cast<std::size_t>(here)] =
                    std::min(m_layerLeft[static_cast<std::size_t>(here)], route[k].x);
                m_layerRight[static_cast<std::size_t>(here)] =
                    std::max(m_layerRight[static_cast<std::size_t>(here)], route[k].x);
                if (k == 0)
                    continue;
                const int before = layerOf(route[k - 1].y); // by value: std::minmax returns references
                for (int l = std::min(before, here); l < std::max(before, here); ++l)
                    ++m_crossing[static_cast<std::size_t>(l)];
            }
    }

    // The bands of the best fold for a window of this size (one band: leave the drawing as it is).
    std::vector<Band> bestFold(double windowWidth, double windowHeight) const
    {
        std::vector<Band> best = fold(1);
        double bestScore = zoomToFit(best, windowWidth, windowHeight);
        const int most = std::min(m_r.layerCount, 64);
        for (int k = 2; k <= most && bestScore < 1; ++k) {
            std::vector<Band> bands = fold(k);
            if (const double s = zoomToFit(bands, windowWidth, windowHeight); s > bestScore * 1.0001) {
                bestScore = s;
                best = std::move(bands);
            }
        }
        return best;
    }

    void apply(const std::vector<Band>& bands)
    {
        if (bands.size() < 2)
            return;
        m_r.columns.resize(m_r.centers.size());
        for (std::size_t v = 0; v < m_r.centers.size(); ++v) {
            const std::size_t band = bandOfLayer(bands, m_r.layers[v]);
            m_r.centers[v] = moved(bands, m_r.centers[v], band);
            m_r.columns[v] = static_cast<int>(band);
        }
        for (auto& route : m_r.routes) {
            std::vector<Point> out;
            for (std::size_t k = 0; k < route.size(); ++k) {
                const std::size_t band = bandOfLayer(bands, layerOf(route[k].y));
                if (k > 0)
                    if (const std::size_t before = bandOfLayer(bands, layerOf(route[k - 1].y)); before != band)
                        connect(bands, out, before, band, moved(bands, route[k], band).x);
                out.push_back(moved(bands, route[k], band));
            }
            route = std::move(out);
        }
        double width = 0, height = 0;
        for (const Band& b : bands) {
            width = std::max(width, b.x + b.right - b.left);
            height = std::max(height, b.bottom - b.top);
        }
        m_r.width = width;
        m_r.height = height;
    }

private:
    double nodeHeight(std::size_t v) const { return m_in.nodes[v].height; }
    double nodeWidth(std::size_t v) const { return m_in.nodes[v].width; }

    int layerOf(double y) const
    {
        // The first layer whose bottom (plus half the gap below it) is below y.
        const auto it = std::lower_bound(m_layerBottom.begin(), m_layerBottom.end(), y - m_in.layerGap / 2);
        return std::min(static_cast<int>(it - m_layerBottom.begin()), m_r.layerCount - 1);
    }

    static std::size_t bandOfLayer(const std::vector<Band>& bands, int layer)
    {
        for (std::size_t b = 0; b < bands.size(); ++b)
            if (layer <= bands[b].lastLayer)
                return b;
        return bands.size() - 1;
    }

    static Point moved(const std::vector<Band>& bands, Point p, std::size_t b)
    {
        return {p.x - bands[b].left + bands[b].x, p.y - bands[b].top};
    }

    // From the end of `out` in column `from` into column `to` (entering at x): below the column to the gutter, along
    // the gutter to the top (the bottom when going back up), across to x.
    void connect(const std::vector<Band>& bands, std::vector<Point>& out, std::size_t from, std::size_t to,
                 double x) const
    {
        const double half = m_in.layerGap / 2;
        const Point last = out.back();
        const bool forward = to > from;
        const double leave = forward ? bands[from].bottom - bands[from].top + half : -half;
        const double gutter = forward ? bands[from].x + bands[from].right - bands[from].left + m_gutter / 2
                                      : bands[from].x - m_gutter / 2;
        const double enter = forward ? -half : bands[to].bottom - bands[to].top + half;
        out.push_back({last.x, leave});
        out.push_back({gutter, leave});
        out.push_back({gutter, enter});
        out.push_back({x, enter});
    }

    // k bands whose longest is as short as it can be (bisection over a greedy packing), each cut then moved to where
    // the fewest edges cross among the cuts that keep every band within 3 % of that: bands of equal length were cut
    // "about" there (within a fifth of a band), and inception v1 came out as one short and one long column.
    std::vector<Band> fold(int k) const
    {
        const int layers = m_r.layerCount;
        auto length = [this](int first, int last) {
            return m_layerBottom[static_cast<std::size_t>(last)] - m_layerTop[static_cast<std::size_t>(first)];
        };
        // Per first layer, the first layer past the longest band of at most `bound` that starts there.
        auto ends = [&](double bound) {
            std::vector<int> next(static_cast<std::size_t>(layers) + 1, layers);
            int end = layers;
            for (int l = layers - 1; l >= 0; --l) {
                while (end > l + 1 && length(l, end - 1) > bound)
                    --end;
                next[static_cast<std::size_t>(l)] = end;
            }
            return next;
        };
        auto bandsFor = [&](double bound) {
            const std::vector<int> next = ends(bound);
            int count = 0;
            for (int l = 0; l < layers; l = next[static_cast<std::size_t>(l)])
                ++count;
            return count;
        };
        double thickest = 0;
        for (int l = 0; l < layers; ++l)
            thickest = std::max(thickest, length(l, l));
        double low = thickest, high = length(0, layers - 1);
        for (int step = 0; step < 40 && high - low > std::max(0.5, 1e-3 * high); ++step) { // 0.1 % is close enough
            const double mid = (low + high) / 2;
            (bandsFor(mid) <= k ? high : low) = mid;
        }
        const double bound = high * 1.03;
        const std::vector<int> next = ends(bound);
        std::vector<int> needed(static_cast<std::size_t>(layers) + 1, 0); // bands that cover layers l.. at that bound
        for (int l = layers - 1; l >= 0; --l)
            needed[static_cast<std::size_t>(l)] =
                1 + needed[static_cast<std::size_t>(next[static_cast<std::size_t>(l)])];
        std::vector<int> cuts; // last layer of each band but the last
        for (int first = 0, band = 0; band + 1 < k && first < layers - 1; ++band) {
            int chosen = -1;
            for (int last = first; last < next[static_cast<std::size_t>(first)] && last < layers - 1; ++last) {
                if (needed[static_cast<std::size_t>(last) + 1] > k - band - 1)
                    continue;
                if (chosen < 0
                    || m_crossing[static_cast<std::size_t>(last)] < m_crossing[static_cast<std::size_t>(chosen)]
                    || (m_crossing[static_cast<std::size_t>(last)] == m_crossing[static_cast<std::size_t>(chosen)]
                        && std::abs(length(first, last) - high) < std::abs(length(first, chosen) - high)))
                    chosen = last;
            }
            if (chosen < 0)
                break;
            cuts.push_back(chosen);
            first = chosen + 1;
        }
        cuts.push_back(layers - 1);
        std::vector<Band> bands;
        int first = 0;
        for (int last : cuts) {
            Band b;
            b.firstLayer = first;
            b.lastLayer = last;
            b.top = m_layerTop[static_cast<std::size_t>(first)];
            b.bottom = m_layerBottom[static_cast<std::size_t>(last)];
            bands.push_back(b);
            first = last + 1;
        }
        for (Band& b : bands)
            for (int l = b.firstLayer; l <= b.lastLayer; ++l) {
                b.left = std::min(b.left, m_layerLeft[static_cast<std::size_t>(l)]);
                b.right = std::max(b.right, m_layerRight[static_cast<std::size_t>(l)]);
            }
        double x = 0;
        for (Band& b : bands) {
            b.x = x;
            x += b.right - b.left + m_gutter;
        }
        return bands;
    }

    // The zoom at which the folded drawing fits the window, up to 1 (a canvas does not fit by enlarging).
    double zoomToFit(const std::vector<Band>& bands, double windowWidth, double windowHeight) const
    {
        double width = 0, height = 0;
        for (const Band& b : bands) {
            width = std::max(width, b.x + b.right - b.left);
            height = std::max(height, b.bottom - b.top);
        }
        const double margin = 2 * m_in.wrapMargin;
        return std::min(
            {1.0, windowWidth / std::max(width + margin, 1.0), windowHeight / std::max(height + margin, 1.0)});
    }

    LayoutResult& m_r;
    const LayoutInput& m_in;
    double m_gutter;
    std::vector<double> m_layerTop, m_layerBottom, m_layerLeft, m_layerRight;
    std::vector<int> m_crossing;
};

} // namespace

void wrapIntoColumns(LayoutResult& r, const LayoutInput& in)
{
    if (in.wrapWidth <= 0 || in.wrapHeight <= 0 || r.layerCount < 2 || r.cancelled)
        return;
    const bool tb = in.direction == Direction::TopToBottom;
    LayoutInput sized = in; // sizes along the layers as height, across them as width
    if (!tb) {
        transpose(r);
        for (auto& node : sized.nodes)
            std::swap(node.width, node.height);
    }
    Wrapper wrapper(r, sized, 2 * in.nodeGap + in.layerGap);
    wrapper.apply(tb ? wrapper.bestFold(in.wrapWidth, in.wrapHeight) : wrapper.bestFold(in.wrapHeight, in.wrapWidth));
    if (!tb)
        transpose(r);
}

} // namespace costscope::layout::detail
