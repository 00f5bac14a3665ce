// SPDX-License-Identifier: MIT
#include "analysis_settings_owner.h"

#include <QComboBox>
#include <QSpinBox>

#include <algorithm>

namespace costscope {

AnalysisSettingsOwner::AnalysisSettingsOwner(QObject* parent) : QObject(parent)
{
}

void AnalysisSettingsOwner::set(const AnalysisSettings& value)
{
    AnalysisSettings v = value;
    v.bindings.emplace("batch", 1); // the toolbar's batch always has a value
    if (v.whatIfPrecision() == Precision::Fp32)
        v.precision.clear(); // "fp32", or a name the what-if does not offer: the graph's own dtypes, one spelling
    if (v == m_value)
        return;
    m_value = std::move(v);
    emit changed();
}

template <typename T>
void AnalysisSettingsOwner::setField(T AnalysisSettings::*field, T value)
{
    AnalysisSettings v = m_value;
    v.*field = std::move(value);
    set(v);
}

void AnalysisSettingsOwner::setModel(const std::string& model)
{
    setField(&AnalysisSettings::model, model);
}

void AnalysisSettingsOwner::setDevice(const std::string& device)
{
    setField(&AnalysisSettings::device, device);
}

void AnalysisSettingsOwner::setBinding(const std::string& symbol, std::int64_t value)
{
    Bindings b = m_value.bindings;
    b[symbol] = value;
    setField(&AnalysisSettings::bindings, std::move(b));
}

void AnalysisSettingsOwner::setBindings(const Bindings& bindings)
{
    setField(&AnalysisSettings::bindings, bindings);
}

void AnalysisSettingsOwner::setPrecision(const std::string& precision)
{
    setField(&AnalysisSettings::precision, precision);
}

void AnalysisSettingsOwner::setRlxVersion(RlxVersion version)
{
    setField(&AnalysisSettings::rlxVersion, version);
}

void AnalysisSettingsOwner::bindText(QComboBox* box, std::string AnalysisSettings::*field)
{
    auto show = [this, box, field] {
        const int i = box->findText(QString::fromStdString(m_value.*field));
        if (i >= 0)
            box->setCurrentIndex(i); // its own listeners hear of it too; writing back the same value is a no-op
    };
    // A value the box does not list (a profile since deleted) gives way to the box's choice.
    if (box->findText(QString::fromStdString(m_value.*field)) < 0)
        setField(field, box->currentText().toStdString());
    show();
    connect(box, &QComboBox::currentTextChanged, this,
            [this, field](const QString& text) { setField(field, text.toStdString()); });
    connect(this, &AnalysisSettingsOwner::changed, box, show);
}

void AnalysisSettingsOwner::bindModelSelector(QComboBox* box)
{
    bindText(box, &AnalysisSettings::model);
}

void AnalysisSettingsOwner::bindDeviceSelector(QComboBox* box)
{
    bindText(box, &AnalysisSettings::device);
}

void AnalysisSettingsOwner::bindRlxVersionSelector(QComboBox* box)
{
    auto show = [this, box] {
        const int i = box->findData(static_cast<int>(m_value.rlxVersion));
        if (i >= 0)
            box->setCurrentIndex(i); // its own listeners hear of it too; writing back the same value is a no-op
    };
    setRlxVersion(static_cast<RlxVersion>(box->currentData().toInt()));
    connect(box, &QComboBox::currentIndexChanged, this,
            [this, box] { setRlxVersion(static_cast<RlxVersion>(box->currentData().toInt())); });
    connect(this, &AnalysisSettingsOwner::changed, box, show);
}

void AnalysisSettingsOwner::bindPrecisionSelector(QComboBox* box)
{
    auto show = [this, box] {
        const int i = box->findData(static_cast<int>(m_value.whatIfPrecision()));
        if (i >= 0)
            box->setCurrentIndex(i); // its own listeners hear of it too; writing back the same value is a no-op
    };
    show();
    connect(box, &QComboBox::currentIndexChanged, this, [this, box] {
        const auto p = static_cast<Precision>(box->currentData().toInt());
        setPrecision(p == Precision::Fp32 ? std::string() : std::string(precisionName(p)));
    });
    connect(this, &AnalysisSettingsOwner::changed, box, show);
}

void AnalysisSettingsOwner::bindBindingSpin(QSpinBox* spin, const std::string& symbol)
{
    auto show = [this, spin, symbol] {
        const auto it = m_value.bindings.find(symbol);
        if (it == m_value.bindings.end())
            return;
        const int v = static_cast<int>(std::clamp<std::int64_t>(it->second, spin->minimum(), spin->maximum()));
        spin->setValue(v);
    };
    show();
    connect(spin, &QSpinBox::valueChanged, this, [this, symbol](int v) { setBinding(symbol, v); });
    connect(this, &AnalysisSettingsOwner::changed, spin, show);
}

} // namespace costscope
