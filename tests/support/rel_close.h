// SPDX-License-Identifier: MIT
#pragma once

#include <QTest>

#include <cmath>

// Compares two doubles to 1e-9 relative (the RLX parity tolerance); infinities must match exactly.
#define COSTSCOPE_COMPARE_REL(actual, expected)                                                                        \
    do {                                                                                                               \
        const double a_ = (actual), e_ = (expected);                                                                   \
        const bool ok_ = (std::isinf(e_) || std::isinf(a_))                                                           \
            ? a_ == e_                                                                                                 \
            : std::abs(a_ - e_) <= 1e-9 * std::max(std::abs(e_), 1e-300);                                              \
        QVERIFY2(ok_, qPrintable(QStringLiteral("%1 = %2, expected %3")                                               \
                                     .arg(QStringLiteral(#actual))                                                     \
                                     .arg(a_, 0, 'g', 17)                                                              \
                                     .arg(e_, 0, 'g', 17)));                                                           \
    } while (0)
