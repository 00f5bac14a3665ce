// SPDX-License-Identifier: MIT
// The activations, numbered as in vk_elementwise.cpp's table; a, b, c, d are their parameters.
float erfApprox(float x)
{
    // Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7): GLSL has no erf.
    float s = sign(x);
    x = abs(x);
    float t = 1.0 / (1.0 + 0.3275911 * x);
    float y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * exp(-x * x);
    return s * y;
}

float safeTanh(float x)
{
    return tanh(clamp(x, -15.0, 15.0));
}

float activate(int op, float x, float a, float b, float c, float d)
{
    switch (op) {
    case 0: return max(x, 0.0);
    case 1: return 1.0 / (1.0 + exp(-x));
    case 2: return safeTanh(x);
    case 3: return exp(x);
    case 4: return log(x);
    case 5: return sqrt(x);
    case 6: return inversesqrt(x);
    case 7: return -x;
    case 8: return abs(x);
    case 9: return erfApprox(x);
    case 10: return sign(x);
    case 11: return x > 20.0 ? x : log(1.0 + exp(x));
    case 12: return x / (1.0 + abs(x));
    case 13: return isnan(x) ? 1.0 : 0.0;
    case 14: return 1.0 / x;
    case 15: return floor(x);
    case 16: return ceil(x);
    case 17: return roundEven(x);
    case 18: return sin(x);
    case 19: return cos(x);
    case 20: return 0.5 * x * (1.0 + erfApprox(x * 0.70710678118654752440));
    case 21: return 0.5 * x * (1.0 + safeTanh(0.79788456080286535588 * (x + 0.044715 * x * x * x)));
    case 22: return x / (1.0 + exp(-x));
    case 23: return x < 0.0 ? a * x : x;
    case 24: return x < 0.0 ? a * (exp(x) - 1.0) : x;
    case 25: return c * (x > 0.0 ? x : a * (exp(x) - 1.0));
    case 26: return x < -d ? x + b : (x > d ? x - b : 0.0);
    case 27: return max(0.0, min(1.0, a * x + b));
    case 28: return min(max(x, a), b);
    }
    return x;
}
