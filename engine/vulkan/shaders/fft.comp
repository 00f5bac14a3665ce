// SPDX-License-Identifier: MIT
// FFT over rows of n complex values. Mode 0 packs the input (planar F32 [.., 2n] or interleaved C64) into
// interleaved scratch; mode 1 is one Stockham radix-2 stage (n a power of two, log2 n stages ping-ponging between
// two scratch buffers, natural order out); mode 2 scales and writes the result in the input's layout; mode 3 is
// a direct DFT for other lengths. Written by hand: Debian's VkFFT (libvkfft-dev) wants its own Vulkan
// objects and runtime glslang compilation, far more than these few lines.
// p: 0 threads, 1 mode, 2 n, 3 stage span p, 4 planar, 5 inverse, 6 scale.
#version 450
#include "common.glsl"
layout(set = 0, binding = 1) readonly buffer Src { float src[]; };
layout(set = 0, binding = 2) writeonly buffer Dst { float dst[]; };

const float PI = 3.14159265358979323846;

void main()
{
    uint t = gid();
    if (t >= uint(p[0]))
        return;
    int mode = p[1], n = p[2];
    bool planar = p[4] != 0;
    float sgn = p[5] != 0 ? 1.0 : -1.0;
    if (mode == 0 || mode == 2) {
        int row = int(t) / n, i = int(t) % n;
        int pin = planar ? row * 2 * n + i : 2 * (row * n + i);
        int pim = planar ? row * 2 * n + n + i : 2 * (row * n + i) + 1;
        if (mode == 0) {
            dst[2 * int(t)] = src[pin];
            dst[2 * int(t) + 1] = src[pim];
        } else {
            dst[pin] = src[2 * int(t)] * pf(6);
            dst[pim] = src[2 * int(t) + 1] * pf(6);
        }
        return;
    }
    if (mode == 1) {
        int half_ = n / 2, span = p[3];
        int row = int(t) / half_, i = int(t) % half_;
        int base = row * n;
        int k = i & (span - 1);
        vec2 u0 = vec2(src[2 * (base + i)], src[2 * (base + i) + 1]);
        vec2 u1 = vec2(src[2 * (base + i + half_)], src[2 * (base + i + half_) + 1]);
        float ang = sgn * PI * float(k) / float(span);
        vec2 tw = vec2(cos(ang), sin(ang));
        u1 = vec2(u1.x * tw.x - u1.y * tw.y, u1.x * tw.y + u1.y * tw.x);
        int j = (i << 1) - k;
        dst[2 * (base + j)] = u0.x + u1.x;
        dst[2 * (base + j) + 1] = u0.y + u1.y;
        dst[2 * (base + j + span)] = u0.x - u1.x;
        dst[2 * (base + j + span) + 1] = u0.y - u1.y;
        return;
    }
    int row = int(t) / n, f = int(t) % n;
    vec2 acc = vec2(0.0);
    for (int s = 0; s < n; ++s) {
        float ang = sgn * 2.0 * PI * float((f * s) % n) / float(n);
        vec2 x = vec2(src[2 * (row * n + s)], src[2 * (row * n + s) + 1]);
        acc += vec2(x.x * cos(ang) - x.y * sin(ang), x.x * sin(ang) + x.y * cos(ang));
    }
    dst[2 * int(t)] = acc.x;
    dst[2 * int(t) + 1] = acc.y;
}
