// SPDX-License-Identifier: MIT
// The pick among this machine's GPUs (issue 24) over a fake backend of four CUDA cards: each card's id, name and PCI
// id, its own profile (calibrated, else the datasheet preset its name matches, else RLX parity), and the pick of one
// card with the reason; device ids as users spell them (cuda:0, local/cuda:0, host/cuda:0).
#include "analysis/rlx_cost_model.h"
#include "calibration/device_profile_name.h"
#include "device_ref.h"
#include "formats/graph_file.h"
#include "local_device_pick.h"
#include "test_paths.h"

#include <QTemporaryDir>
#include <QTest>

using namespace costscope;
using namespace costscope::test;

namespace {
// Devices only: the pick estimates, it never compiles.
class FakeBackend : public Backend {
public:
    FakeBackend(std::string name, std::vector<DeviceInfo> devices) : m_name(std::move(name)), m_devices(devices) {}
    std::string name() const override { return m_name; }
    std::vector<DeviceInfo> devices() const override { return m_devices; }
    Result<std::unique_ptr<ExecutablePlan>> compile(const Graph&, const Bindings&, DeviceIndex) override
    {
        return Diagnostic::error("the fake backend runs nothing");
    }

private:
    std::string m_name;
    std::vector<DeviceInfo> m_devices;
};

DeviceInfo hostCpu()
{
    return {"cpu", 0, "Host CPU", 64ull << 30, 16, "", 0, 0};
}

DeviceInfo gpu(DeviceIndex i, std::string name, std::string pci)
{
    return {"cuda", i, std::move(name), 80ull << 30, 132, std::move(pci), 1980, 2619};
}

// A calibrated profile of one card, `speed` times the H100 datasheet's rates.
DeviceProfile calibrated(const DeviceInfo& d, double speed)
{
    DeviceProfile p;
    p.name = deviceProfileName(d);
    p.device = Device::Cuda;
    p.calibration = Calibration::Measured;
    p.sgemmGflops = 40000 * speed;
    p.memoryBw = 2500 * speed;
    p.dispatchNs = 4000 / speed;
    p.roundtripNs = 20000 / speed;
    return p;
}
} // namespace

class TestLocalDevicePick : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_user.isValid());
        auto loaded = loadGraphFile(sourcePath("resources/examples/cnn.hir.json").toStdString());
        QVERIFY(loaded);
        m_graph = loaded->graph;
    }

    void deviceIdsAsUsersSpellThem()
    {
        auto bare = parseDeviceRef("cuda:1", "--device");
        QVERIFY(bare && bare->local() && bare->backend == "cuda" && bare->index == 1);
        auto local = parseDeviceRef("local/vulkan:0", "--device");
        QVERIFY(local && local->local() && local->backend == "vulkan" && local->index == 0);
        auto remote = parseDeviceRef("me@gpu7:2222/cuda:3", "--device");
        QVERIFY(remote && !remote->local() && remote->host == "me@gpu7:2222" && remote->index == 3);
        auto hostCpu = parseDeviceRef("127.0.0.1/cpu", "--device");
        QVERIFY(hostCpu && hostCpu->host == "127.0.0.1" && hostCpu->backend == "cpu" && hostCpu->index == 0);
        for (const char* bad : {"cuda", "tpu:0", "cuda:x", "cuda:-1", "/cuda:0", "cuda:1junk", ""}) {
            auto r = parseDeviceRef(bad, "--device");
            QVERIFY2(!r, bad);
            QVERIFY2(r.error().message.find("--device '" + std::string(bad) + "'") == 0, r.error().message.c_str());
        }
    }

    void selectionNamesWhatIsThere()
    {
        const std::vector<DeviceInfo> here = {hostCpu(), gpu(0, "NVIDIA H100 80GB HBM3", "0000:3b:00.0"),
                                              gpu(1, "NVIDIA H100 80GB HBM3", "0000:86:00.0")};
        auto all = selectLocalDevices(here, "all", "--device");
        QVERIFY(all && all->size() == 2 && (*all)[0].index == 0 && (*all)[1].index == 1);
        auto listed = selectLocalDevices(here, "local/cuda:1,cpu:0", "--device");
        QVERIFY(listed && listed->size() == 2 && (*listed)[0].backend == "cuda" && (*listed)[1].backend == "cpu");
        auto missing = selectLocalDevices(here, "cuda:0,cuda:5", "--device");
        QVERIFY(!missing);
        QCOMPARE(missing.error().message,
                 std::string("--device: no local device 'cuda:5' (devices here: cpu:0, cuda:0, cuda:1)"));
        auto remote = selectLocalDevices(here, "gpu7/cuda:0", "--device");
        QVERIFY(!remote && remote.error().message.find("remote host 'gpu7'") != std::string::npos);
        QVERIFY(!selectLocalDevices(here, "cuda:0,cuda:0", "--device"));
        auto none = selectLocalDevices({hostCpu()}, "all", "--device");
        QVERIFY(!none
                && none.error().message.find("no GPU on this machine (devices here: cpu:0)") != std::string::npos);
    }

    // Two H100s (one calibrated), an A100 and a card no datasheet knows: every card is a candidate with its own
    // profile, and the pick is one card, for a reason that names its predicted time.
    void pickChoosesAmongGpus()
    {
        const FakeBackend cuda("cuda", {gpu(0, "NVIDIA H100 80GB HBM3", "0000:3b:00.0"),
                                        gpu(1, "NVIDIA H100 80GB HBM3", "0000:86:00.0"),
                                        gpu(2, "NVIDIA A100-SXM4-80GB", "0000:af:00.0"), gpu(3, "Mystery GPU", "")});
        const FakeBackend cpu("cpu", {hostCpu()});
        const std::vector<DeviceInfo> here = devicesOf({&cpu, &cuda});
        QCOMPARE(here.size(), std::size_t(5));
        ProfileLibrary library = libraryWith({});
        auto gpus = selectLocalDevices(here, "all", "--device");
        QVERIFY(gpus);

        // Datasheets only: the two H100s tie and the first wins; the A100 is slower; the unknown card's RLX parity
        // model is Uncalibrated, left out by RLX 0.2.16.
        LocalDevicePick p = pick(*gpus, here, library, {});
        QCOMPARE(p.candidates.size(), std::size_t(4));
        QCOMPARE(p.candidates[0].id, std::string("cuda:0"));
        QCOMPARE(p.candidates[0].label(), std::string("NVIDIA H100 80GB HBM3, PCI 0000:3b:00.0"));
        QCOMPARE(p.candidates[0].profile.name, std::string("nvidia-h100"));
        QCOMPARE(p.candidates[0].profileOrigin, std::string("datasheet"));
        QCOMPARE(p.candidates[2].profile.name, std::string("nvidia-a100"));
        QCOMPARE(p.candidates[3].profile.name, std::string("rlx-linux/cuda"));
        QCOMPARE(p.candidates[3].profileOrigin, std::string("RLX parity"));
        QVERIFY(!p.pick.ranked[3] && p.pick.ranked[0]);
        QVERIFY(p.picked());
        QCOMPARE(p.picked()->id, std::string("cuda:0"));
        QVERIFY(p.estimates[0].ns == p.estimates[1].ns && p.estimates[2].ns > p.estimates[0].ns);
        QVERIFY2(p.pick.reason.find("lowest predicted time") == 0
                     && p.pick.reason.find("under nvidia-h100 (ArchDefault); next cuda:1") != std::string::npos
                     && p.pick.reason.find("(+0 %)") != std::string::npos
                     && p.pick.reason.find("1 candidate(s) left out of the ranking") != std::string::npos,
                 p.pick.reason.c_str());

        // The second H100 calibrated faster: identical cards told apart by their calibrations.
        library = libraryWith({calibrated(here[2], 3.0)});
        p = pick(*gpus, here, library, {});
        QCOMPARE(p.candidates[1].profileOrigin, std::string("calibrated"));
        QCOMPARE(p.candidates[1].profile.name, std::string("calibrated-cuda-nvidia-h100-80gb-hbm3-0000-86-00-0"));
        QCOMPARE(p.picked()->id, std::string("cuda:1"));
        QVERIFY2(p.pick.reason.find("under calibrated-cuda-nvidia-h100-80gb-hbm3-0000-86-00-0 (Measured)")
                     != std::string::npos,
                 p.pick.reason.c_str());
        QCOMPARE(p.picked()->profile.name, p.estimates[*p.pick.pick].profile);
        QVERIFY(p.estimates[1].ns < p.estimates[0].ns);

        // Both calibrated, the first now the faster one.
        library = libraryWith({calibrated(here[1], 5.0), calibrated(here[2], 3.0)});
        p = pick(*gpus, here, library, {});
        QCOMPARE(p.picked()->id, std::string("cuda:0"));

        // The policy works by kind: the CPU listed beside the GPUs, CUDA denied, leaves the CPU.
        DevicePolicy denyCuda;
        denyCuda.deny = {Device::Cuda};
        auto withCpu = selectLocalDevices(here, "cuda:0,cuda:1,cpu:0", "--device");
        QVERIFY(withCpu);
        p = pick(*withCpu, here, library, denyCuda);
        QCOMPARE(p.picked()->id, std::string("cpu:0"));
        QCOMPARE(p.candidates.front().id, std::string("cpu:0")); // the blocked ones go last
        QCOMPARE(p.blockers[1], std::string("denied by policy"));
        QCOMPARE(p.estimates.size(), std::size_t(1));

        // Every candidate blocked: no pick.
        p = pick(*gpus, here, library, denyCuda);
        QVERIFY(!p.picked() && p.estimates.empty());
    }

private:
    ProfileLibrary libraryWith(const std::vector<DeviceProfile>& userProfiles)
    {
        QDir(m_user.path()).removeRecursively();
        ProfilePaths paths{sourcePath("resources/profiles").toStdString(), m_user.path().toStdString(), ""};
        ProfileLibrary library = ProfileLibrary::load(paths);
        for (const DeviceProfile& p : userProfiles)
            if (!library.saveUserProfile(p))
                qFatal("cannot save a user profile");
        return ProfileLibrary::load(paths);
    }

    LocalDevicePick pick(const std::vector<DeviceInfo>& selected, const std::vector<DeviceInfo>& here,
                         const ProfileLibrary& library, const DevicePolicy& policy)
    {
        return pickAmongDevices(deviceCandidates(selected, here, library, "rlx-linux"), policy,
                                [&](const DeviceProfile& p) { return rlxEstimate(m_graph, p, {}); });
    }

    QTemporaryDir m_user;
    Graph m_graph;
};

QTEST_GUILESS_MAIN(TestLocalDevicePick)
#include "test_local_device_pick.moc"
