// SPDX-License-Identifier: MIT
#include "jobs/load_job.h"

namespace costscope {
namespace {

struct Outcome {
    std::shared_ptr<const Graph> graph;
    QString error;
    std::shared_ptr<const CostscopeDocument> session;
    QStringList warnings;
};

Outcome load(const QString& path)
{
    const std::string file = path.toStdString();
    auto result = loadGraphFile(file);
    if (!result)
        return {nullptr, QString::fromStdString(result.error().format(file)), nullptr, {}};
    QStringList warnings;
    for (const Diagnostic& w : result->warnings)
        warnings << QString::fromStdString(w.format(file));
    return {
        std::make_shared<const Graph>(std::move(result->graph)), {}, std::move(result->session), std::move(warnings)};
}

} // namespace

LoadJob::LoadJob(QObject* parent) : QObject(parent) {}

void LoadJob::start(const QString& path)
{
    m_job.start([path] { return load(path); },
                [this, path](Outcome out) {
                    if (out.graph) {
                        emit loaded(path, std::move(out.graph));
                        if (out.session)
                            emit sessionLoaded(path, std::move(out.session));
                        if (!out.warnings.isEmpty())
                            emit warned(path, out.warnings);
                    } else
                        emit failed(path, out.error);
                });
}

} // namespace costscope
