// SPDX-License-Identifier: MIT
#include "model_explainer.h"
#include <QComboBox>
#include <QMessageBox>
#include <QToolBar>
#include <QToolButton>

namespace costscope {

QString costModelToolTip(const QString& model)
{
    if (model == QLatin1String("rlx"))
        return QObject::tr("RLX parity: the RLX compiler's own static cost model, reproduced exactly. It prices MatMul "
                           "and Attention by FLOPs and every other op (Conv included) by its output bytes, so a Conv's "
                           "compute reads 0 ns. Pick it to see what RLX will decide.");
    if (model == QLatin1String("costscope"))
        return QObject::tr("Costscope's model: every op's FLOPs and bytes on the device's roofline, with launch "
                           "costs; fitted to this machine's runs once the device is calibrated. Pick it for real "
                           "time.");
    return {};
}

QString costModelsExplanation()
{
    return QObject::tr(
        "<h3>Two cost models</h3>"
        "<p><b>rlx</b> is <i>RLX parity</i>: the static cost model of the RLX compiler and runtime, reproduced "
        "formula for formula, so that Costscope predicts what RLX itself will estimate and which device it will "
        "pick. RLX prices only MatMul, fused MatMul and Attention by their FLOPs; every other op, Conv included, costs "
        "its output bytes over the memory bandwidth plus a dispatch. That is why it can say a Conv's compute is "
        "0 ns: it never counts a Conv's FLOPs.</p>"
        "<p><b>costscope</b> prices every op's FLOPs and bytes on the device's roofline with launch and "
        "synchronisation costs, and once the device is calibrated (Run dock → Calibration) its kernel predictors are "
        "fitted to measured runs.</p>"
        "<p><b>Which to trust</b>: for time on real hardware, the <i>costscope</i> model with a calibrated profile; "
        "for what RLX will decide, <i>rlx</i>; above both, a measured run (the Measured time overlay).</p>");
}

void explainCostModels(QComboBox* models, QWidget* window)
{
    for (int i = 0; i < models->count(); ++i)
        models->setItemData(i, costModelToolTip(models->itemText(i)), Qt::ToolTipRole);
    models->setToolTip(QObject::tr("Cost model: rlx (RLX parity) or costscope (calibrated roofline); ? explains"));
    auto* bar = qobject_cast<QToolBar*>(models->parentWidget());
    if (!bar)
        return;
    auto* button = new QToolButton(bar);
    button->setObjectName(QStringLiteral("explainModelsButton"));
    button->setText(QStringLiteral("?"));
    button->setToolTip(QObject::tr("What the two cost models are and which to trust"));
    QObject::connect(button, &QToolButton::clicked, window, [window] {
        auto* box = new QMessageBox(QMessageBox::Information, QObject::tr("Cost models"), costModelsExplanation(),
                                    QMessageBox::Ok, window);
        box->setObjectName(QStringLiteral("modelsExplanation"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    for (QAction* a : bar->actions())
        if (bar->widgetForAction(a) == models) {
            const int next = static_cast<int>(bar->actions().indexOf(a)) + 1;
            bar->insertWidget(bar->actions().value(next), button);
            break;
        }
}

} // namespace costscope
