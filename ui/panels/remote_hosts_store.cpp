// SPDX-License-Identifier: MIT
#include "panels/remote_hosts_store.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QStringList>

#include <algorithm>
#include <optional>

namespace costscope {

namespace {
const QString kHostsKey = QStringLiteral("remote/hosts"); // one compact JSON object a host

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

QJsonObject hostJson(const RemoteHostDevices& h)
{
    const RemoteCliOptions& o = h.options;
    QJsonArray sshOptions, devices;
    for (const std::string& option : o.target.options)
        sshOptions.append(q(option));
    for (const RemoteDevice& d : h.devices)
        devices.append(QJsonObject{{"id", q(d.id)},
                                   {"backend", q(d.info.backend)},
                                   {"index", d.info.index},
                                   {"name", q(d.info.name)},
                                   {"memory_bytes", static_cast<double>(d.info.memoryBytes)},
                                   {"compute_units", d.info.computeUnits}});
    return {{"address", q(remoteAddress(o.target))},
            {"identity", q(o.target.identityFile)},
            {"ssh_options", sshOptions},
            {"connect_timeout_s", o.target.connectTimeoutS},
            {"cli", q(o.cli)},
            {"cache", q(o.cacheDir)},
            {"devices", devices}};
}

std::optional<RemoteHostDevices> hostFromJson(const QJsonObject& j)
{
    auto target = parseSshTarget(j["address"].toString().toStdString());
    if (!target)
        return std::nullopt;
    RemoteHostDevices h;
    h.options.target = *target;
    h.options.target.identityFile = j["identity"].toString().toStdString();
    for (const QJsonValue& option : j["ssh_options"].toArray())
        h.options.target.options.push_back(option.toString().toStdString());
    h.options.target.connectTimeoutS = j["connect_timeout_s"].toInt(h.options.target.connectTimeoutS);
    h.options.cli = j["cli"].toString(q(h.options.cli)).toStdString();
    h.options.cacheDir = j["cache"].toString(q(h.options.cacheDir)).toStdString();
    for (const QJsonValue& v : j["devices"].toArray()) {
        const QJsonObject d = v.toObject();
        RemoteDevice device;
        device.id = d["id"].toString().toStdString();
        device.info.backend = d["backend"].toString().toStdString();
        device.info.index = static_cast<DeviceIndex>(d["index"].toInt());
        device.info.name = d["name"].toString().toStdString();
        device.info.memoryBytes = static_cast<std::uint64_t>(d["memory_bytes"].toDouble());
        device.info.computeUnits = d["compute_units"].toInt();
        if (!device.id.empty() && !device.info.backend.empty())
            h.devices.push_back(std::move(device));
    }
    return h;
}

void store(const std::vector<RemoteHostDevices>& hosts)
{
    QStringList entries;
    for (const RemoteHostDevices& h : hosts)
        entries << QString::fromUtf8(QJsonDocument(hostJson(h)).toJson(QJsonDocument::Compact));
    QSettings().setValue(kHostsKey, entries);
}
} // namespace

std::string remoteAddress(const SshTarget& t)
{
    const bool v6 = t.host.find(':') != std::string::npos;
    const std::string host = v6 ? '[' + t.host + ']' : t.host;
    return (t.user.empty() ? "" : t.user + '@') + host + (t.port > 0 ? ':' + std::to_string(t.port) : "");
}

std::vector<RemoteHostDevices> savedRemoteHosts()
{
    std::vector<RemoteHostDevices> hosts;
    for (const QString& entry : QSettings().value(kHostsKey).toStringList())
        if (auto h = hostFromJson(QJsonDocument::fromJson(entry.toUtf8()).object()))
            hosts.push_back(std::move(*h));
    return hosts;
}

void saveRemoteHost(const RemoteHostDevices& host)
{
    auto hosts = savedRemoteHosts();
    RemoteHostDevices kept = host;
    kept.options.cancel = nullptr;
    kept.options.onProgress = nullptr;
    const auto same = std::find_if(hosts.begin(), hosts.end(), [&](const RemoteHostDevices& h) {
        return h.options.target.host == host.options.target.host;
    });
    if (same != hosts.end())
        *same = std::move(kept);
    else
        hosts.push_back(std::move(kept));
    store(hosts);
}

void removeRemoteHost(const std::string& hostName)
{
    auto hosts = savedRemoteHosts();
    std::erase_if(hosts, [&](const RemoteHostDevices& h) { return h.options.target.host == hostName; });
    store(hosts);
}

} // namespace costscope
