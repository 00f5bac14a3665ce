// SPDX-License-Identifier: MIT
#pragma once
#include "usecases/analysis_settings.h"
#include <QObject>

class QComboBox;
class QSpinBox;

namespace costscope {

// The largest value a binding's spin box takes (the toolbar's batch and the Bindings dock alike).
inline constexpr int kMaxBinding = 1 << 20;

// The one owner of the analysis settings in the GUI. Widgets are views of it: they write through the setters and
// follow changed(); readers (costs, sweeps, runs, export, the saved document) take value(), never a widget's text.
class AnalysisSettingsOwner : public QObject {
    Q_OBJECT
public:
    explicit AnalysisSettingsOwner(QObject* parent = nullptr);

    const AnalysisSettings& value() const { return m_value; }
    // Each emits changed() when the value differs; "batch" is always among the bindings (1 unless set), and a
    // precision the what-if does not offer (or fp32) is kept as "" (the graph's own dtypes).
    void set(const AnalysisSettings& value);
    void setModel(const std::string& model);
    void setDevice(const std::string& device);
    void setBinding(const std::string& symbol, std::int64_t value);
    void setBindings(const Bindings& bindings);
    void setPrecision(const std::string& precision);
    void setRlxVersion(RlxVersion version);

    // Two-way bindings of the toolbar's widgets: the widget writes its value here and shows every change.
    void bindModelSelector(QComboBox* box);
    void bindDeviceSelector(QComboBox* box);
    void bindRlxVersionSelector(QComboBox* box); // items carry the RlxVersion as data
    // Items carry the Precision as data; fp32 is written as "" (the graph's own dtypes). The settings' value wins:
    // the box shows it when bound.
    void bindPrecisionSelector(QComboBox* box);
    void bindBindingSpin(QSpinBox* spin, const std::string& symbol);

signals:
    void changed();

private:
    void bindText(QComboBox* box, std::string AnalysisSettings::*field);
    template <typename T>
    void setField(T AnalysisSettings::*field, T value);

    AnalysisSettings m_value;
};

} // namespace costscope
